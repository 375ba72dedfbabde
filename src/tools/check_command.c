/* SPDX-License-Identifier: BSD-3-Clause */
/* numaprobe check, the subcommand: refuses paths that are not regular files before opening them,
 * checks each file in a child process (some damage crashes HDF5 or makes it loop, and that is a
 * verdict on the file), and turns the verdicts on several files into one exit status. */
#include "tools/check.h"

#include "util/file_kind.h"
#include "util/isolate.h"

#include <errno.h>
#include <fcntl.h>
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
    FILE *out;
};

static int check_job(void *arg)
{
    const struct child_arg *job = arg;
    return nprb_check_readable_file(job->path, job->out);
}

enum nprb_status nprb_check_file(const char *path, FILE *out, FILE *err, long limit_s)
{
    struct stat st;
    char why[96];
    const char *why_not = unreadable(path, &st, why, sizeof why);
    if (why_not != NULL) {
        fprintf(err, "numaprobe check: cannot read %s: %s\n", path, why_not);
        return NPRB_ERR_USAGE;
    }
    /* In a child process: some damage makes HDF5 itself crash or loop, and that is a verdict. */
    unsigned limit = limit_s >= 0 ? (unsigned)limit_s : nprb_isolated_limit_s((size_t)st.st_size);
    struct child_arg job = {path, out};
    struct nprb_isolated child;
    int code = NPRB_EXIT_RUNTIME;
    if (nprb_run_isolated(check_job, &job, limit, &child) != 0) {
        code = check_job(&job); /* no child to be had: check here, unprotected */
    } else if (child.timed_out) {
        fprintf(out,
                "check: %s: reading it did not end within %u s: the file is damaged in a way "
                "that makes HDF5 loop (--timeout sets the limit)\ncheck: %s: INVALID\n",
                path, limit, path);
        code = NPRB_EXIT_VALIDATION;
    } else if (child.crashed) {
        fprintf(out,
                "check: %s: reading it crashed (signal %d, %s): the file is damaged in a way "
                "HDF5 does not detect\ncheck: %s: INVALID\n",
                path, child.signal, strsignal(child.signal), path);
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
    "Usage: numaprobe check [--timeout SECONDS] FILE...\n"
    "Validates numaprobe results files (final, merged, or a rank's checkpoint): schema and\n"
    "version, every table and column, and internal consistency. Prints one line per problem.\n"
    "--timeout: give up on a file (invalid) after SECONDS; default a minute plus a second per\n"
    "MiB; 0: no limit. Exit: 0 every FILE valid; 4 a FILE is invalid; 1 the check of a FILE\n"
    "itself failed; 2 a FILE cannot be read (missing, a directory, a FIFO, no permission) or bad\n"
    "usage. With several files the first of 4, 1, 2 that applies to any of them wins, and a last\n"
    "line counts them. docs/SCHEMA.md says what is checked.\n";

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

static const enum nprb_status verdict_status[N_VERDICTS] = {
    [VALID] = NPRB_OK,
    [UNREADABLE] = NPRB_ERR_USAGE,
    [CHECK_FAILED] = NPRB_ERR_SYSTEM,
    [INVALID] = NPRB_ERR_VALIDATION,
};

enum nprb_status nprb_check_command(int argc, char **argv, FILE *out, FILE *err)
{
    long limit_s = -1;
    int first = 1;
    for (; first < argc && argv[first][0] == '-' && argv[first][1] != '\0'; first++) {
        const char *a = argv[first];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(check_usage, out);
            return NPRB_OK;
        }
        if (strcmp(a, "--timeout") == 0 || strncmp(a, "--timeout=", 10) == 0) {
            const char *value = a[9] == '=' ? a + 10 : first + 1 < argc ? argv[++first] : NULL;
            if ((limit_s = nprb_isolated_parse_limit(value)) < 0) {
                fprintf(err, "numaprobe check: --timeout needs a whole number of seconds\n%s",
                        check_usage);
                return NPRB_ERR_USAGE;
            }
            continue;
        }
        fprintf(err, "numaprobe check: unknown option '%s'\n%s", a, check_usage);
        return NPRB_ERR_USAGE;
    }
    if (first == argc) {
        fprintf(err, "numaprobe check: no FILE given\n%s", check_usage);
        return NPRB_ERR_USAGE;
    }
    size_t counts[N_VERDICTS] = {0};
    enum verdict worst = VALID;
    for (int i = first; i < argc; i++) {
        enum verdict v = verdict_of(nprb_check_file(argv[i], out, err, limit_s));
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
