/* SPDX-License-Identifier: BSD-3-Clause */
/* numaprobe check, the subcommand: refuses paths that are not regular files before opening them,
 * checks each file in a child process (some damage crashes HDF5 or makes it loop, and that is a
 * verdict on the file), and turns the verdicts on several files into one exit status. */
#include "tools/check.h"

#include "util/file_kind.h"
#include "util/isolate.h"
#include "util/options.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Why @p path cannot be read as a results file (in @p why), or NULL. Nothing but a regular file
 * is opened: opening a FIFO for reading blocks until something writes to it. */
static const char *unreadable(const char *path, struct stat *st, char *why, size_t len)
{
    if (stat(path, st) != 0)
        return strerror(errno);
    if (S_ISDIR(st->st_mode))
        return "it is a directory";
    const char *kind = nprb_file_kind(st->st_mode);
    if (kind != NULL) {
        snprintf(why, len, "it is %s, not a regular file", kind);
        return why;
    }
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return strerror(errno);
    close(fd);
    return NULL;
}

struct child_arg {
    const char *path;
    enum nprb_check_format format;
    FILE *out;
};

static int check_job(void *arg)
{
    const struct child_arg *job = arg;
    return nprb_check_readable_file(job->path, job->format, job->out);
}

/* A verdict the parent reaches itself (no file to read, or the child crashed or hung), in the
 * child's form: a JSON object, or for an invalid file the child's lines. */
static void say_verdict(const struct child_arg *job, const char *verdict, const char *text)
{
    if (job->format == NPRB_CHECK_JSON) {
        json_t *o =
            json_pack("{s:s, s:s, s:[s]}", "path", job->path, "verdict", verdict, "problems", text);
        if (o != NULL)
            json_dumpf(o, job->out, JSON_COMPACT);
        fputc('\n', job->out);
        json_decref(o);
    } else {
        fprintf(job->out, "check: %s: %s\ncheck: %s: INVALID\n", job->path, text, job->path);
    }
}

enum nprb_status nprb_check_file(const char *path, enum nprb_check_format format, FILE *out,
                                 FILE *err, long limit_s)
{
    struct stat st;
    char why[96];
    const char *why_not = unreadable(path, &st, why, sizeof why);
    if (why_not != NULL) {
        fprintf(err, "numaprobe check: cannot read %s: %s\n", path, why_not);
        if (format == NPRB_CHECK_JSON)
            say_verdict(&(struct child_arg){path, format, out}, "unreadable", why_not);
        return NPRB_ERR_USAGE;
    }
    /* In a child process: some damage makes HDF5 itself crash or loop, and that is a verdict. */
    unsigned limit = limit_s >= 0 ? (unsigned)limit_s : nprb_isolated_limit_s((size_t)st.st_size);
    struct child_arg job = {path, format, out};
    struct nprb_isolated child;
    int code = NPRB_EXIT_RUNTIME;
    if (nprb_run_isolated(check_job, &job, limit, &child) != 0) {
        code = check_job(&job); /* no child to be had: check here, unprotected */
    } else if (child.timed_out) {
        char text[160];
        snprintf(text, sizeof text,
                 "reading it did not end within %u s: the file is damaged in a way that makes "
                 "HDF5 loop (--timeout sets the limit)",
                 limit);
        say_verdict(&job, "invalid", text);
        code = NPRB_EXIT_VALIDATION;
    } else if (child.crashed) {
        char text[160];
        snprintf(text, sizeof text,
                 "reading it crashed (signal %d, %s): the file is damaged in a way HDF5 does not "
                 "detect",
                 child.signal, strsignal(child.signal));
        say_verdict(&job, "invalid", text);
        code = NPRB_EXIT_VALIDATION;
    } else {
        code = child.exit_code;
    }
    if (code == NPRB_EXIT_OK || code == NPRB_EXIT_VALIDATION)
        return code == NPRB_EXIT_OK ? NPRB_OK : NPRB_ERR_VALIDATION;
    fprintf(err, "numaprobe check: checking %s failed (exit status %d)\n", path, code);
    return NPRB_ERR_SYSTEM;
}

static const char check_usage[] =
    "Usage: numaprobe check [--timeout SECONDS] [--json] FILE...\n"
    "Validates numaprobe results files (final, merged, or a rank's checkpoint): schema and\n"
    "version, every table and column, and internal consistency. Prints one line per problem.\n"
    "--timeout: give up on a file (invalid) after SECONDS; default a minute plus a second per\n"
    "MiB; 0: no limit. Exit: 0 every FILE valid; 4 a FILE is invalid; 1 the check of a FILE\n"
    "itself failed; 2 a FILE cannot be read (missing, a directory, a FIFO, no permission) or bad\n"
    "usage. With several files the first of 4, 1, 2 that applies to any of them wins, and a last\n"
    "line counts them. --json: stdout is one JSON document instead (each file's verdict,\n"
    "problems and warnings, the counts, the exit status). docs/SCHEMA.md says what is checked.\n";

enum check_option { CHECK_TIMEOUT, CHECK_JSON, CHECK_HELP, N_CHECK_OPTIONS };

static const struct nprb_option_row check_options[N_CHECK_OPTIONS] = {
    [CHECK_TIMEOUT] = {"timeout", 0, "SECONDS", "give up on a file after SECONDS (0: no limit)"},
    [CHECK_JSON] = {"json", 0, NULL, "the verdicts as one JSON document on stdout"},
    [CHECK_HELP] = {"help", 'h', NULL, "print this help and exit"},
};

/* What the verdicts on several files add up to: any invalid file is what a script must hear
 * first; a file not checked (the check failed) hides less than a path that is not a file. */
enum verdict { VALID, UNREADABLE, CHECK_FAILED, INVALID, N_VERDICTS };

static enum verdict verdict_of(enum nprb_status st)
{
    switch (st) {
    case NPRB_OK:
        return VALID;
    case NPRB_ERR_VALIDATION:
        return INVALID;
    case NPRB_ERR_USAGE:
        return UNREADABLE;
    default:
        return CHECK_FAILED;
    }
}

static const char *const verdict_names[N_VERDICTS] = {
    [VALID] = "valid",
    [UNREADABLE] = "unreadable",
    [CHECK_FAILED] = "check_failed",
    [INVALID] = "invalid",
};

static const enum nprb_status verdict_status[N_VERDICTS] = {
    [VALID] = NPRB_OK,
    [UNREADABLE] = NPRB_ERR_USAGE,
    [CHECK_FAILED] = NPRB_ERR_SYSTEM,
    [INVALID] = NPRB_ERR_VALIDATION,
};

/* check --json: every file checked into a temporary file, read back as the child's object. */
static enum nprb_status check_json(int argc, char **argv, int first, long limit_s, FILE *out,
                                   FILE *err)
{
    size_t counts[N_VERDICTS] = {0};
    enum verdict worst = VALID;
    json_t *files = json_array();
    for (int i = first; i < argc; i++) {
        FILE *tmp = tmpfile();
        if (tmp == NULL) {
            fprintf(err, "numaprobe check: no temporary file: %s\n", strerror(errno));
            json_decref(files);
            return NPRB_ERR_SYSTEM;
        }
        enum verdict v = verdict_of(nprb_check_file(argv[i], NPRB_CHECK_JSON, tmp, err, limit_s));
        rewind(tmp);
        json_t *o = json_loadf(tmp, JSON_DISABLE_EOF_CHECK, NULL);
        fclose(tmp);
        if (!json_is_object(o)) { /* not readable as a file, or no verdict from the child */
            json_decref(o);
            o = json_object();
            /* The path as given where it is text JSON can hold, else "?" for each odd byte. */
            if (json_object_set_new(o, "path", json_string(argv[i])) != 0) {
                char path[4096];
                snprintf(path, sizeof path, "%s", argv[i]);
                for (char *p = path; *p != '\0'; p++)
                    *p = (unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f ? '?' : *p;
                json_object_set_new(o, "path", json_string(path));
            }
        }
        json_object_set_new(o, "verdict", json_string(verdict_names[v]));
        json_array_append_new(files, o);
        counts[v]++;
        worst = v > worst ? v : worst;
    }
    json_t *doc = json_pack(
        "{s:o, s:{s:I, s:I, s:I, s:I}, s:s, s:i}", "files", files, "counts", "valid",
        (json_int_t)counts[VALID], "invalid", (json_int_t)counts[INVALID], "unreadable",
        (json_int_t)counts[UNREADABLE], "check_failed", (json_int_t)counts[CHECK_FAILED], "verdict",
        verdict_names[worst], "exit_status", nprb_status_exit_code(verdict_status[worst]));
    if (doc == NULL || json_dumpf(doc, out, JSON_INDENT(1)) != 0) {
        fprintf(err, "numaprobe check: cannot write the JSON verdict\n");
        json_decref(doc);
        return NPRB_ERR_SYSTEM;
    }
    fputc('\n', out);
    json_decref(doc);
    return verdict_status[worst];
}

enum nprb_status nprb_check_command(int argc, char **argv, FILE *out, FILE *err)
{
    long limit_s = -1;
    bool json = false;
    struct nprb_options opts;
    nprb_options_init(&opts, check_options, N_CHECK_OPTIONS);
    int id;
    const char *value = NULL;
    char why[160];
    while ((id = nprb_options_next(&opts, argc, argv, &value, why, sizeof why)) != -1) {
        switch (id) {
        case CHECK_HELP:
            fputs(check_usage, out);
            return NPRB_OK;
        case CHECK_JSON:
            json = true;
            break;
        case CHECK_TIMEOUT:
            if ((limit_s = nprb_isolated_parse_limit(value)) < 0) {
                fprintf(err, "numaprobe check: --timeout needs a whole number of seconds\n%s",
                        check_usage);
                return NPRB_ERR_USAGE;
            }
            break;
        default:
            fprintf(err, "numaprobe check: %s\n%s", why, check_usage);
            return NPRB_ERR_USAGE;
        }
    }
    int first = optind;
    if (first == argc) {
        fprintf(err, "numaprobe check: no FILE given\n%s", check_usage);
        return NPRB_ERR_USAGE;
    }
    if (json)
        return check_json(argc, argv, first, limit_s, out, err);
    size_t counts[N_VERDICTS] = {0};
    enum verdict worst = VALID;
    for (int i = first; i < argc; i++) {
        enum verdict v = verdict_of(nprb_check_file(argv[i], NPRB_CHECK_TEXT, out, err, limit_s));
        counts[v]++;
        worst = v > worst ? v : worst;
    }
    if (argc - first > 1) {
        fflush(err); /* the per-file reasons first, then the count */
        fprintf(out,
                "check: %d files: %zu valid, %zu invalid, %zu not readable as a file, %zu whose "
                "check failed\n",
                argc - first, counts[VALID], counts[INVALID], counts[UNREADABLE],
                counts[CHECK_FAILED]);
    }
    return verdict_status[worst];
}
