/* SPDX-License-Identifier: BSD-3-Clause */
/* numaprobe merge: the checkpoints of a job are ordinary results files, one per rank, so merging
 * is reading each back through the row descriptors and appending its rows, rank by rank, with
 * the same writer a job uses. Two passes: the first reads only root attributes, so checkpoints of
 * different jobs are refused before anything is written (merge_read.c); the second, here, moves
 * the rows and writes the merged file, its attributes and the one-line outcome. */
#include "tools/merge.h"

#include "results/h5in.h"
#include "results/h5out.h"
#include "results/output.h"
#include "results/results.h"
#include "tools/merge_read.h"
#include "util/isolate.h"
#include "util/options.h"

#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Every row of a rank's checkpoint names that rank; anything else is a damaged file. */
static bool rows_of_rank(const struct nprb_results *r, long rank)
{
    for (int t = 0; t < NPRB_N_TABLES; t++) {
        const struct nprb_rows *rows = &r->tables[t];
        for (size_t i = 0; i < rows->count; i++) {
            int32_t row_rank; /* "rank" is the first column of every table (results.c) */
            memcpy(&row_rank, nprb_row_at(rows, i), sizeof row_rank);
            if (row_rank != rank)
                return false;
        }
    }
    return true;
}

/* A rank that died while measuring left its host row "running": say what that means, so that
 * no reader takes it for a host that finished. */
static void mark_unfinished(struct nprb_merge *m, struct nprb_results *r)
{
    struct nprb_rows *rows = &r->tables[NPRB_TABLE_HOSTS];
    for (size_t i = 0; i < rows->count; i++) {
        struct nprb_host_row *h = nprb_row_mut(rows, i);
        /* As the writer counts them: every rank whose row is not ok has failed. */
        if (strcmp(h->status, NPRB_ROW_OK) == 0)
            m->hosts_ok++;
        else
            m->hosts_failed++;
        if (strcmp(h->status, "running") != 0)
            continue;
        char error[NPRB_NOTE_LEN + 64];
        snprintf(error, sizeof error,
                 "rank %" PRId32 " stopped before finishing: rows up to its last checkpoint%s%s",
                 h->rank, h->error[0] ? "; first failure: " : "", h->error);
        NPRB_SET_TEXT(h->status, "incomplete");
        NPRB_SET_TEXT(h->error, error);
    }
}

/* The second pass: one checkpoint's rows in memory at a time, appended table by table. A
 * checkpoint that cannot be read whole is skipped before any of its rows reach the output. */
static enum nprb_status move_rows(struct nprb_merge *m, struct nprb_h5 *h5)
{
    for (size_t i = 0; i < m->count; i++) {
        struct nprb_merge_checkpoint *c = &m->items[i];
        if (!c->usable)
            continue;
        struct nprb_results r;
        nprb_results_init(&r);
        struct nprb_h5in *in = NULL;
        char why[256] = "";
        struct nprb_attrs attrs = {0}; /* read for the schema version: which columns it has */
        if (nprb_h5in_open(&in, c->path, why, sizeof why) == 0 &&
            nprb_h5in_attrs(in, &attrs) == 0 && nprb_h5in_read_all(in, &r, why, sizeof why) == 0 &&
            !rows_of_rank(&r, c->rank))
            snprintf(why, sizeof why, "it holds rows of another rank");
        nprb_attrs_free(&attrs);
        nprb_h5in_close(in);
        if (why[0] != '\0') {
            fprintf(m->err, "numaprobe merge: skipping %s: %s\n", c->path, why);
            c->usable = false;
            nprb_results_free(&r);
            continue;
        }
        mark_unfinished(m, &r);
        int rc = 0;
        for (int t = 0; rc == 0 && t < NPRB_N_TABLES; t++)
            rc = nprb_h5_append(h5, (enum nprb_table_id)t, r.tables[t].data, r.tables[t].count);
        nprb_results_free(&r);
        if (rc != 0) {
            fprintf(m->err, "numaprobe merge: cannot write the rows of %s to %s (HDF5 error)\n",
                    c->path, m->output);
            return NPRB_ERR_SYSTEM;
        }
    }
    return NPRB_OK;
}

/* "3,7": ranks 0..world_size-1 with no usable checkpoint (@p finished false), or whose
 * checkpoint is usable but unfinished (@p finished true). Caller frees. */
static char *rank_list(const struct nprb_merge *m, int64_t world_size, bool unfinished)
{
    char *text = NULL;
    size_t len = 0;
    FILE *s = open_memstream(&text, &len);
    if (s == NULL)
        return NULL;
    bool first = true;
    size_t i = 0;
    for (int64_t r = 0; r < world_size; r++) {
        while (i < m->count && m->items[i].rank < r)
            i++;
        const struct nprb_merge_checkpoint *c =
            i < m->count && m->items[i].rank == r ? &m->items[i] : NULL;
        bool listed = unfinished ? c != NULL && c->usable && !c->finished : c == NULL || !c->usable;
        if (listed) {
            fprintf(s, "%s%" PRId64, first ? "" : ",", r);
            first = false;
        }
    }
    fclose(s);
    return text;
}

static bool write_attributes(struct nprb_merge *m, struct nprb_h5 *h5, bool *complete)
{
    for (size_t i = 0; i < m->job.count; i++) {
        const struct nprb_attr *a = &m->job.items[i];
        const struct nprb_root_attr *known = nprb_root_attr_named(a->name);
        if (known != NULL && known->scope == NPRB_ATTR_CHECKPOINT)
            continue;
        if (known == NULL || a->type != known->type)
            fprintf(m->err,
                    "numaprobe merge: root attribute %s of %s is not in the results "
                    "contract with its type; not copied\n",
                    a->name, m->items[m->first].path);
        else if (a->type == NPRB_ATTR_TEXT)
            nprb_h5_attr_text(h5, a->name, a->text);
        else
            nprb_h5_attr_int(h5, a->name, a->value);
    }
    int64_t world = nprb_attrs_int(&m->job, "world_size", 0);
    char *missing = rank_list(m, world, false);
    char *unfinished = rank_list(m, world, true);
    if (missing == NULL || unfinished == NULL) {
        free(missing);
        free(unfinished);
        return false;
    }
    *complete = missing[0] == '\0' && unfinished[0] == '\0';
    if (m->end_utc[0] != '\0')
        nprb_h5_attr_text(h5, "end_utc", m->end_utc);
    nprb_h5_attr_int(h5, "complete", *complete);
    nprb_h5_attr_text(h5, "merged_from", m->dir);
    nprb_h5_attr_text(h5, "ranks_missing", missing);
    nprb_h5_attr_text(h5, "ranks_incomplete", unfinished);
    nprb_h5_attr_int(h5, "hosts_ok", m->hosts_ok);
    nprb_h5_attr_int(h5, "hosts_failed", m->hosts_failed);
    if (!*complete)
        fprintf(m->err,
                "numaprobe merge: %s is partial: ranks missing: %s; ranks that did not "
                "finish: %s\n",
                m->output, missing[0] ? missing : "none", unfinished[0] ? unfinished : "none");
    free(missing);
    free(unfinished);
    return true;
}

/* Whether the resolved @p path is @p dir or lies under it. */
static bool under(const char *dir, const char *path)
{
    size_t n = strlen(dir);
    return strncmp(path, dir, n) == 0 &&
           (path[n] == '\0' || path[n] == '/' || (n > 0 && dir[n - 1] == '/'));
}

/* Why @p output must not be written, given the checkpoint directory: an output inside DIR would
 * replace a checkpoint (merge DIR -o DIR/rank-00000.h5 overwrote its own input) or be read as one
 * by the next merge. Both are resolved (symbolic links, "..") before they are compared; an output
 * whose directory does not exist is left to the output check. @return NULL, or why not. */
static const char *output_among_inputs(const char *dir, const char *output, char *why, size_t len)
{
    char dir_real[PATH_MAX], out_dir_real[PATH_MAX], out_real[PATH_MAX], copy[PATH_MAX];
    if (realpath(dir, dir_real) == NULL)
        return NULL; /* reported when the directory is listed */
    snprintf(copy, sizeof copy, "%s", output);
    if (realpath(output, out_real) != NULL && under(dir_real, out_real)) {
        snprintf(why, len,
                 "refusing to write %s: it is %s, inside the checkpoint directory %s (one of the "
                 "inputs or beside them); write the merged file elsewhere",
                 output, out_real, dir);
        return why;
    }
    if (realpath(dirname(copy), out_dir_real) != NULL && under(dir_real, out_dir_real)) {
        snprintf(why, len,
                 "refusing to write %s inside the checkpoint directory %s: it would replace a "
                 "checkpoint or be read as one; write the merged file elsewhere (e.g. beside %s)",
                 output, dir, dir);
        return why;
    }
    return NULL;
}

static enum nprb_status merge_into(struct nprb_merge *m, struct nprb_h5 *h5, FILE *out);

enum nprb_status nprb_merge(const char *dir, const char *output, bool force, long limit_s,
                            FILE *out, FILE *err)
{
    struct nprb_merge m = {.dir = dir, .output = output, .limit_s = limit_s, .err = err};
    struct nprb_h5 *h5 = NULL;
    struct nprb_output_lock lock;
    char why[3 * PATH_MAX + 256], aside[PATH_MAX], warning[PATH_MAX + 128];
    if (output_among_inputs(dir, output, why, sizeof why) != NULL) {
        fprintf(err, "numaprobe merge: %s\n", why);
        return NPRB_ERR_USAGE;
    }
    /* The output is checked and locked first, as for a run: a typo in -o should not cost a read
     * of every checkpoint, and a job writing the same file is not raced. */
    if (nprb_output_begin(output, force, false, &lock, &h5, aside, sizeof aside, warning,
                          sizeof warning, why, sizeof why) != 0) {
        fprintf(err, "numaprobe merge: %s\n", why);
        return NPRB_ERR_USAGE;
    }
    if (warning[0])
        fprintf(err, "numaprobe merge: warning: %s\n", warning);
    enum nprb_status st = merge_into(&m, h5, out);
    nprb_output_unlock(&lock);
    nprb_attrs_free(&m.job);
    free(m.items);
    return st;
}

/* Everything after the output is locked; @p h5 is committed or discarded. */
static enum nprb_status merge_into(struct nprb_merge *mp, struct nprb_h5 *h5, FILE *out)
{
    struct nprb_merge m = *mp;
    const char *dir = m.dir, *output = m.output;
    FILE *err = m.err;
    char why[2 * PATH_MAX + 256];
    enum nprb_status st = nprb_merge_list_checkpoints(&m);
    if (st == NPRB_OK)
        st = nprb_merge_read_attributes(&m);
    if (st == NPRB_OK)
        st = move_rows(&m, h5);
    bool complete = false;
    if (st == NPRB_OK && !write_attributes(&m, h5, &complete))
        st = NPRB_ERR_NOMEM;
    if (st == NPRB_OK) {
        if (nprb_h5_commit(h5, why, sizeof why) != 0) {
            fprintf(err, "numaprobe merge: %s\n", why);
            st = NPRB_ERR_SYSTEM;
        } else {
            size_t merged = 0;
            for (size_t i = 0; i < m.count; i++)
                merged += m.items[i].usable;
            fprintf(out, "numaprobe merge: %zu of %" PRId64 " rank(s) from %s -> %s (%s)\n", merged,
                    nprb_attrs_int(&m.job, "world_size", 0), dir, output,
                    complete ? "complete" : "partial");
            st = complete ? NPRB_OK : NPRB_ERR_PARTIAL;
        }
        h5 = NULL;
    }
    nprb_h5_discard(h5);
    *mp = m; /* what was read, for the caller to free */
    return st;
}

static const char merge_usage[] =
    "Usage: numaprobe merge DIR -o FILE [--force] [--timeout SECONDS]\n"
    "Rebuilds one results file from the per-rank checkpoints DIR/rank-NNNNN.h5 of a job (a job\n"
    "writing OUT.h5 keeps them in OUT.h5.checkpoints/). Exit: 0 every rank merged and finished,\n"
    "5 written but ranks missing or unfinished (see ranks_missing, ranks_incomplete), 2 usage\n"
    "(no DIR, no -o, unwritable FILE or one inside DIR, no checkpoints, checkpoints of\n"
    "different jobs), 1 no checkpoint readable or FILE not written. FILE is checked and locked\n"
    "as a run's -o is: an existing FILE is replaced only with --force. A checkpoint that is not a\n"
    "regular file (a FIFO) is skipped. --timeout: skip a checkpoint whose reading has not ended\n"
    "after SECONDS (default a minute plus a second per MiB; 0: no limit).\n";

enum merge_option { MERGE_OUTPUT, MERGE_FORCE, MERGE_TIMEOUT, MERGE_HELP, N_MERGE_OPTIONS };

static const struct nprb_option_row merge_options[N_MERGE_OPTIONS] = {
    [MERGE_OUTPUT] = {"output", 'o', "FILE", "the merged results file"},
    [MERGE_FORCE] = {"force", 'f', NULL, "replace an existing FILE"},
    [MERGE_TIMEOUT] = {"timeout", 0, "SECONDS", "skip a checkpoint read for longer (0: no limit)"},
    [MERGE_HELP] = {"help", 'h', NULL, "print this help and exit"},
};

enum nprb_status nprb_merge_command(int argc, char **argv, FILE *out, FILE *err)
{
    const char *dir = NULL, *output = NULL;
    long limit_s = -1;
    bool force = false;
    struct nprb_options opts;
    nprb_options_init(&opts, merge_options, N_MERGE_OPTIONS);
    int id;
    const char *value = NULL;
    char why[160];
    while ((id = nprb_options_next(&opts, argc, argv, &value, why, sizeof why)) != -1) {
        switch (id) {
        case MERGE_HELP:
            fputs(merge_usage, out);
            return NPRB_OK;
        case MERGE_FORCE:
            force = true;
            break;
        case MERGE_OUTPUT:
            if (output != NULL) {
                fprintf(err, "numaprobe merge: option -o given twice\n%s", merge_usage);
                return NPRB_ERR_USAGE;
            }
            output = value;
            break;
        case MERGE_TIMEOUT:
            if ((limit_s = nprb_isolated_parse_limit(value)) < 0) {
                fprintf(err, "numaprobe merge: --timeout needs a whole number of seconds\n%s",
                        merge_usage);
                return NPRB_ERR_USAGE;
            }
            break;
        default:
            fprintf(err, "numaprobe merge: %s\n%s", why, merge_usage);
            return NPRB_ERR_USAGE;
        }
    }
    if (optind < argc)
        dir = argv[optind++];
    if (optind < argc) {
        fprintf(err, "numaprobe merge: unexpected argument '%s'\n%s", argv[optind], merge_usage);
        return NPRB_ERR_USAGE;
    }
    if (dir == NULL || output == NULL) {
        fprintf(err, "numaprobe merge: %s\n%s",
                dir == NULL ? "no checkpoint DIR given" : "no output file given (-o FILE)",
                merge_usage);
        return NPRB_ERR_USAGE;
    }
    return nprb_merge(dir, output, force, limit_s, out, err);
}
