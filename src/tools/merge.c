/* SPDX-License-Identifier: BSD-3-Clause */
/* numaprobe merge: the checkpoints of a job are ordinary results files, one per rank, so merging
 * is reading each back through the row descriptors and appending its rows, rank by rank, with
 * the same writer a job uses. Two passes: the first reads only root attributes, so checkpoints of
 * different jobs are refused before anything is written; the second moves the rows. */
#include "tools/merge.h"

#include "results/h5in.h"
#include "util/file_kind.h"
#include "results/h5out.h"
#include "util/isolate.h"
#include "results/output.h"
#include "results/results.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_WORLD_SIZE (INT64_C(1) << 24) /* beyond any fleet; a larger one is a damaged file */

struct checkpoint {
    long rank; /* from the file name */
    char path[PATH_MAX];
    char refused[96]; /* why it is not read at all (not a regular file), or empty */
    bool usable;      /* readable and of this job */
    bool finished;    /* checkpoint_complete = 1 */
};

struct merge {
    const char *dir, *output;
    long limit_s; /* per checkpoint read; -1: by its size */
    FILE *err;
    struct checkpoint *items;
    size_t count;
    struct nprb_attrs job; /* root attributes of the first readable checkpoint */
    size_t first;          /* its index */
    char end_utc[64];      /* latest end_utc among the checkpoints */
    int64_t hosts_ok, hosts_failed;
};

/* "rank-" digits ".h5", nothing else: temporary files (rank-00003.h5.tmp-123) are skipped. */
static bool checkpoint_name(const char *name, long *rank)
{
    if (strncmp(name, "rank-", 5) != 0)
        return false;
    char *end = NULL;
    errno = 0;
    long r = strtol(name + 5, &end, 10);
    if (end == name + 5 || errno != 0 || r < 0 || r > INT32_MAX || strcmp(end, ".h5") != 0 ||
        name[5] < '0' || name[5] > '9')
        return false;
    *rank = r;
    return true;
}

static int by_rank(const void *a, const void *b)
{
    long x = ((const struct checkpoint *)a)->rank, y = ((const struct checkpoint *)b)->rank;
    return (x > y) - (x < y);
}

/* Only a regular file is opened: HDF5 opening a FIFO blocks until something writes to it, and a
 * symbolic link loop or a dangling link cannot be read at all. Such an entry is never read; it is
 * reported with the others that are skipped, and its rank counts as missing. */
static void refuse_unless_regular(struct checkpoint *c)
{
    struct stat st;
    const char *kind = NULL;
    if (stat(c->path, &st) != 0)
        snprintf(c->refused, sizeof c->refused, "cannot stat it: %s", strerror(errno));
    else if ((kind = nprb_file_kind(st.st_mode)) != NULL)
        snprintf(c->refused, sizeof c->refused, "it is %s, not a regular file", kind);
}

static enum nprb_status list_checkpoints(struct merge *m)
{
    DIR *d = opendir(m->dir);
    if (d == NULL) {
        fprintf(m->err, "numaprobe merge: cannot read checkpoint directory %s: %s\n", m->dir,
                strerror(errno));
        return NPRB_ERR_USAGE;
    }
    size_t capacity = 0;
    enum nprb_status st = NPRB_OK;
    const struct dirent *e;
    while (st == NPRB_OK && (e = readdir(d)) != NULL) {
        long rank;
        if (!checkpoint_name(e->d_name, &rank))
            continue;
        if (m->count == capacity) {
            capacity = capacity ? 2 * capacity : 64;
            struct checkpoint *items = realloc(m->items, capacity * sizeof *items);
            if (items == NULL) {
                st = NPRB_ERR_NOMEM;
                break;
            }
            m->items = items;
        }
        struct checkpoint *c = &m->items[m->count++];
        memset(c, 0, sizeof *c);
        c->rank = rank;
        snprintf(c->path, sizeof c->path, "%s/%s", m->dir, e->d_name);
        refuse_unless_regular(c);
    }
    closedir(d);
    if (st != NPRB_OK)
        return st;
    if (m->count == 0) {
        fprintf(m->err, "numaprobe merge: no checkpoints (rank-NNNNN.h5) in %s\n", m->dir);
        return NPRB_ERR_USAGE;
    }
    qsort(m->items, m->count, sizeof *m->items, by_rank);
    for (size_t i = 1; i < m->count; i++) {
        if (m->items[i].rank == m->items[i - 1].rank) {
            fprintf(m->err, "numaprobe merge: two checkpoints of rank %ld: %s and %s\n",
                    m->items[i].rank, m->items[i - 1].path, m->items[i].path);
            return NPRB_ERR_USAGE;
        }
    }
    return NPRB_OK;
}

static int schema_major(const char *version)
{
    int major = -1;
    return version != NULL && sscanf(version, "%d.", &major) == 1 ? major : -1;
}

static bool same_text(const struct nprb_attrs *a, const struct nprb_attrs *b, const char *name)
{
    const char *x = nprb_attrs_text(a, name), *y = nprb_attrs_text(b, name);
    return x != NULL && y != NULL && strcmp(x, y) == 0;
}

/* Why the checkpoint cannot be used on its own account, or NULL. */
static const char *unusable(const struct checkpoint *c, const struct nprb_attrs *attrs)
{
    const char *schema = nprb_attrs_text(attrs, "schema");
    if (schema == NULL || strcmp(schema, NPRB_SCHEMA_NAME) != 0)
        return "not a numaprobe results file (root attribute schema)";
    if (nprb_attrs_int(attrs, "checkpoint_rank", -1) != c->rank)
        return "its checkpoint_rank attribute does not match its file name";
    int64_t world = nprb_attrs_int(attrs, "world_size", -1);
    if (world < 1 || world > MAX_WORLD_SIZE || c->rank >= world)
        return "its rank is not below world_size (or world_size is missing)";
    if (nprb_attrs_text(attrs, "start_utc") == NULL ||
        nprb_attrs_text(attrs, "command_line") == NULL)
        return "start_utc or command_line missing";
    return NULL;
}

/* Reads a whole checkpoint and forgets it; run in a child process (see would_crash()). */
static int read_whole(void *arg)
{
    struct nprb_h5in *in = NULL;
    struct nprb_attrs attrs = {0};
    struct nprb_results rows;
    nprb_results_init(&rows);
    char why[256];
    int rc = nprb_h5in_open(&in, arg, why, sizeof why) == 0 && nprb_h5in_attrs(in, &attrs) == 0 &&
             nprb_h5in_read_all(in, &rows, why, sizeof why) == 0;
    nprb_h5in_close(in);
    nprb_attrs_free(&attrs);
    nprb_results_free(&rows);
    return rc ? 0 : 1;
}

/* Some damage makes HDF5 itself crash (it trusts sizes in the global heap, for one): each
 * checkpoint is read once in a child process before this process touches it. A read that fails
 * without crashing is reported by the reads below, in their words. */
static bool would_crash(const struct merge *m, const struct checkpoint *c, char *why, size_t len)
{
    struct stat st;
    unsigned limit = m->limit_s >= 0           ? (unsigned)m->limit_s
                     : stat(c->path, &st) == 0 ? nprb_isolated_limit_s((size_t)st.st_size)
                                               : nprb_isolated_limit_s(0);
    struct nprb_isolated child;
    if (nprb_run_isolated(read_whole, (void *)c->path, limit, &child) != 0 || !child.crashed)
        return false;
    if (child.timed_out)
        snprintf(why, len, "reading it did not end within %u s: damaged (HDF5 loops on it)", limit);
    else
        snprintf(why, len, "reading it crashed (signal %d, %s): damaged", child.signal,
                 strsignal(child.signal));
    return true;
}

/* Reads a checkpoint's root attributes. @return NULL, or why the checkpoint cannot be used. */
static const char *open_checkpoint(const struct merge *m, const struct checkpoint *c,
                                   struct nprb_attrs *attrs, char *why, size_t len)
{
    struct nprb_h5in *in = NULL;
    if (would_crash(m, c, why, len))
        return why;
    if (nprb_h5in_open(&in, c->path, why, len) != 0)
        return why;
    int rc = nprb_h5in_attrs(in, attrs);
    nprb_h5in_close(in);
    if (rc != 0)
        return "root attributes cannot be read";
    return unusable(c, attrs);
}

/* An attribute's value as text, for messages. */
static const char *shown(const struct nprb_attrs *attrs, const char *name, char *buf, size_t len)
{
    const struct nprb_attr *a = nprb_attrs_find(attrs, name);
    if (a != NULL && a->type == NPRB_ATTR_INT)
        snprintf(buf, len, "%" PRId64, a->value);
    else
        snprintf(buf, len, "%.100s", a != NULL && a->text != NULL ? a->text : "(none)");
    return buf;
}

/* The attribute in which two checkpoints' jobs differ, or NULL when they are of one job. */
static const char *job_difference(const struct nprb_attrs *a, const struct nprb_attrs *b)
{
    if (schema_major(nprb_attrs_text(a, "schema_version")) !=
        schema_major(nprb_attrs_text(b, "schema_version")))
        return "schema_version";
    if (!same_text(a, b, "start_utc"))
        return "start_utc";
    if (!same_text(a, b, "command_line"))
        return "command_line";
    if (nprb_attrs_int(a, "world_size", -1) != nprb_attrs_int(b, "world_size", -1))
        return "world_size";
    /* Older checkpoints do not name their job; where both do, the names must agree. */
    const char *job_a = nprb_attrs_text(a, "checkpoint_job"),
               *job_b = nprb_attrs_text(b, "checkpoint_job");
    if (job_a != NULL && job_b != NULL && strcmp(job_a, job_b) != 0)
        return "checkpoint_job";
    return NULL;
}

/* Checkpoint @p i is the job's first readable one: its attributes become the merged file's. */
static enum nprb_status adopt_job(struct merge *m, size_t i, struct nprb_attrs *attrs)
{
    const char *version = nprb_attrs_text(attrs, "schema_version");
    if (schema_major(version) != schema_major(NPRB_SCHEMA_VERSION)) {
        fprintf(m->err,
                "numaprobe merge: %s has schema_version %s; this numaprobe writes %s (another "
                "major version): merge with the numaprobe that wrote it\n",
                m->items[i].path, version != NULL ? version : "(none)", NPRB_SCHEMA_VERSION);
        return NPRB_ERR_USAGE;
    }
    m->job = *attrs;
    memset(attrs, 0, sizeof *attrs);
    m->first = i;
    return NPRB_OK;
}

/* The first pass: attributes only. Different jobs in one directory are a usage error. */
static enum nprb_status read_attributes(struct merge *m)
{
    bool have_job = false;
    for (size_t i = 0; i < m->count; i++) {
        struct checkpoint *c = &m->items[i];
        struct nprb_attrs attrs = {0};
        char why[256] = "";
        const char *bad =
            c->refused[0] ? c->refused : open_checkpoint(m, c, &attrs, why, sizeof why);
        const char *differs = bad == NULL && have_job ? job_difference(&m->job, &attrs) : NULL;
        enum nprb_status st = NPRB_OK;
        if (bad != NULL) {
            fprintf(m->err, "numaprobe merge: skipping %s: %s\n", c->path, bad);
        } else if (differs != NULL) {
            char mine[128], theirs[128];
            fprintf(m->err,
                    "numaprobe merge: %s and %s belong to different jobs (%s differs: '%s' vs "
                    "'%s'); put each job's checkpoints in their own directory\n",
                    m->items[m->first].path, c->path, differs,
                    shown(&m->job, differs, mine, sizeof mine),
                    shown(&attrs, differs, theirs, sizeof theirs));
            st = NPRB_ERR_USAGE;
        } else {
            c->usable = true;
            c->finished = nprb_attrs_int(&attrs, "checkpoint_complete", 0) == 1;
            const char *end = nprb_attrs_text(&attrs, "end_utc");
            /* ISO 8601 UTC times order as text. */
            if (end != NULL && strcmp(end, m->end_utc) > 0)
                snprintf(m->end_utc, sizeof m->end_utc, "%s", end);
            if (!have_job)
                st = adopt_job(m, i, &attrs);
            have_job = true;
        }
        nprb_attrs_free(&attrs);
        if (st != NPRB_OK)
            return st;
    }
    if (!have_job) {
        fprintf(m->err, "numaprobe merge: none of the %zu checkpoint(s) in %s can be read\n",
                m->count, m->dir);
        return NPRB_ERR_SYSTEM;
    }
    return NPRB_OK;
}

/* Every row of a rank's checkpoint names that rank; anything else is a damaged file. */
static bool rows_of_rank(const struct nprb_results *r, long rank)
{
    for (int t = 0; t < NPRB_N_TABLES; t++) {
        const struct nprb_rows *rows = &r->tables[t];
        for (size_t i = 0; i < rows->count; i++) {
            int32_t row_rank; /* "rank" is the first column of every table (results.c) */
            memcpy(&row_rank, rows->data + i * rows->row_bytes, sizeof row_rank);
            if (row_rank != rank)
                return false;
        }
    }
    return true;
}

/* A rank that died while measuring left its host row "running": say what that means, so that
 * no reader takes it for a host that finished. */
static void mark_unfinished(struct merge *m, struct nprb_results *r)
{
    struct nprb_rows *rows = &r->tables[NPRB_TABLE_HOSTS];
    for (size_t i = 0; i < rows->count; i++) {
        struct nprb_host_row *h = (struct nprb_host_row *)(rows->data + i * rows->row_bytes);
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
static enum nprb_status move_rows(struct merge *m, struct nprb_h5 *h5)
{
    for (size_t i = 0; i < m->count; i++) {
        struct checkpoint *c = &m->items[i];
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
static char *rank_list(const struct merge *m, int64_t world_size, bool unfinished)
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
        const struct checkpoint *c = i < m->count && m->items[i].rank == r ? &m->items[i] : NULL;
        bool listed = unfinished ? c != NULL && c->usable && !c->finished : c == NULL || !c->usable;
        if (listed) {
            fprintf(s, "%s%" PRId64, first ? "" : ",", r);
            first = false;
        }
    }
    fclose(s);
    return text;
}

static bool write_attributes(struct merge *m, struct nprb_h5 *h5, bool *complete)
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

static enum nprb_status merge_into(struct merge *m, struct nprb_h5 *h5, FILE *out);

enum nprb_status nprb_merge(const char *dir, const char *output, bool force, long limit_s,
                            FILE *out, FILE *err)
{
    struct merge m = {.dir = dir, .output = output, .limit_s = limit_s, .err = err};
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
static enum nprb_status merge_into(struct merge *mp, struct nprb_h5 *h5, FILE *out)
{
    struct merge m = *mp;
    const char *dir = m.dir, *output = m.output;
    FILE *err = m.err;
    char why[2 * PATH_MAX + 256];
    enum nprb_status st = list_checkpoints(&m);
    if (st == NPRB_OK)
        st = read_attributes(&m);
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

enum nprb_status nprb_merge_command(int argc, char **argv, FILE *out, FILE *err)
{
    const char *dir = NULL, *output = NULL;
    long limit_s = -1;
    bool force = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(merge_usage, out);
            return NPRB_OK;
        }
        if (strcmp(a, "-f") == 0 || strcmp(a, "--force") == 0) {
            force = true;
        } else if ((strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0 ||
                    strncmp(a, "--output=", 9) == 0) &&
                   output != NULL) {
            fprintf(err, "numaprobe merge: option -o given twice\n%s", merge_usage);
            return NPRB_ERR_USAGE;
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            if (i + 1 == argc) {
                fprintf(err, "numaprobe merge: option %s needs a value\n%s", a, merge_usage);
                return NPRB_ERR_USAGE;
            }
            output = argv[++i];
        } else if (strncmp(a, "--output=", 9) == 0) {
            output = a + 9;
        } else if (strcmp(a, "--timeout") == 0 || strncmp(a, "--timeout=", 10) == 0) {
            const char *value = a[9] == '=' ? a + 10 : i + 1 < argc ? argv[++i] : NULL;
            if ((limit_s = nprb_isolated_parse_limit(value)) < 0) {
                fprintf(err, "numaprobe merge: --timeout needs a whole number of seconds\n%s",
                        merge_usage);
                return NPRB_ERR_USAGE;
            }
        } else if (a[0] == '-') {
            fprintf(err, "numaprobe merge: unknown option '%s'\n%s", a, merge_usage);
            return NPRB_ERR_USAGE;
        } else if (dir == NULL) {
            dir = a;
        } else {
            fprintf(err, "numaprobe merge: unexpected argument '%s'\n%s", a, merge_usage);
            return NPRB_ERR_USAGE;
        }
    }
    if (dir == NULL || output == NULL) {
        fprintf(err, "numaprobe merge: %s\n%s",
                dir == NULL ? "no checkpoint DIR given" : "no output file given (-o FILE)",
                merge_usage);
        return NPRB_ERR_USAGE;
    }
    return nprb_merge(dir, output, force, limit_s, out, err);
}
