/* SPDX-License-Identifier: BSD-3-Clause */
/* numaprobe merge, reading side: which files of DIR are checkpoints, and the first pass, which
 * reads each one's root attributes (after a whole read in a child process, since some damage
 * crashes HDF5 itself) and decides which are usable and whether they are all of one job. */
#include "tools/merge_read.h"

#include "results/results.h"
#include "util/file_kind.h"
#include "util/isolate.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_WORLD_SIZE (INT64_C(1) << 24) /* beyond any fleet; a larger one is a damaged file */

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
    long x = ((const struct nprb_merge_checkpoint *)a)->rank,
         y = ((const struct nprb_merge_checkpoint *)b)->rank;
    return (x > y) - (x < y);
}

/* Only a regular file is opened: HDF5 opening a FIFO blocks until something writes to it, and a
 * symbolic link loop or a dangling link cannot be read at all. Such an entry is never read; it is
 * reported with the others that are skipped, and its rank counts as missing. */
static void refuse_unless_regular(struct nprb_merge_checkpoint *c)
{
    struct stat st;
    const char *kind = NULL;
    if (stat(c->path, &st) != 0)
        snprintf(c->refused, sizeof c->refused, "cannot stat it: %s", strerror(errno));
    else if ((kind = nprb_file_kind(st.st_mode)) != NULL)
        snprintf(c->refused, sizeof c->refused, "it is %s, not a regular file", kind);
}

enum nprb_status nprb_merge_list_checkpoints(struct nprb_merge *m)
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
            struct nprb_merge_checkpoint *items = realloc(m->items, capacity * sizeof *items);
            if (items == NULL) {
                st = NPRB_ERR_NOMEM;
                break;
            }
            m->items = items;
        }
        struct nprb_merge_checkpoint *c = &m->items[m->count++];
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
static const char *unusable(const struct nprb_merge_checkpoint *c, const struct nprb_attrs *attrs)
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
static bool would_crash(const struct nprb_merge *m, const struct nprb_merge_checkpoint *c,
                        char *why, size_t len)
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
static const char *open_checkpoint(const struct nprb_merge *m,
                                   const struct nprb_merge_checkpoint *c, struct nprb_attrs *attrs,
                                   char *why, size_t len)
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
static enum nprb_status adopt_job(struct nprb_merge *m, size_t i, struct nprb_attrs *attrs)
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

enum nprb_status nprb_merge_read_attributes(struct nprb_merge *m)
{
    bool have_job = false;
    for (size_t i = 0; i < m->count; i++) {
        struct nprb_merge_checkpoint *c = &m->items[i];
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
