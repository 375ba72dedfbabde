/* SPDX-License-Identifier: BSD-3-Clause */
/* numaprobe check: reads a results file back through the same row descriptors the writer uses
 * and reports every way it departs from the schema. Tables are read in blocks, so a fleet's file
 * is checked in bounded memory: only what check_host keeps of /hosts and the (rank,
 * measurement) keys are kept. */
#include "tools/check.h"

#include "tools/check_hosts.h"
#include "tools/check_keys.h"
#include "tools/check_rows.h"
#include "tools/check_say.h"
#include "results/contract.h"
#include "results/h5in.h"
#include "results/results.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
    AREA_FILE = NPRB_N_TABLES, /* problems of the file as a whole; tables use their id */
    N_AREAS,
    MAX_SHOWN = 20,    /* lines printed per area; the rest are counted */
    BLOCK_ROWS = 4096, /* rows read at a time */
};

struct checker {
    const char *path;
    FILE *out;
    struct nprb_check_voice voice;
    size_t problems, warnings; /* each problem makes the file invalid; warnings: worth a look */
    size_t shown[N_AREAS], hidden[N_AREAS];
    struct nprb_h5in *in;
    struct nprb_attrs attrs;
    int64_t world_size, host_count, complete, checkpoint_rank;
    bool checkpoint, merged;
    int minor; /* the file's schema minor; -1 unknown */
    bool hosts_read;
    struct nprb_check_host *hosts; /* sorted by rank */
    size_t host_rows;
    size_t *topo_rows[2]; /* /numa_nodes and /distances rows per host row */
    struct nprb_check_keys measured;
    /* The last measurement looked up in measured, and its first key there (NULL: none): a
     * measurement's counter and placement rows follow each other, so most lookups repeat. */
    struct {
        bool valid;
        int32_t rank, measurement;
        struct nprb_check_key *found;
    } last;
    struct {
        bool valid;
        int32_t rank;
        long index;
    } last_host; /* the last rank host_of() found, and its /hosts row (-1: none) */
};

static void say(struct checker *c, int area, bool warning, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void say(struct checker *c, int area, bool warning, const char *fmt, ...)
{
    if (warning)
        c->warnings++;
    else
        c->problems++;
    if (c->shown[area] >= MAX_SHOWN) {
        c->hidden[area]++;
        return;
    }
    c->shown[area]++;
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    nprb_check_voice_say(&c->voice, warning, text);
}

#define PROBLEM(c, area, ...) say((c), (area), false, __VA_ARGS__)
#define WARNING(c, area, ...) say((c), (area), true, __VA_ARGS__)

static void table_problem(void *ctx, const char *text)
{
    PROBLEM((struct checker *)ctx, AREA_FILE, "%s", text);
}

static void row_problem(void *ctx, enum nprb_table_id table, bool warning, const char *text)
{
    say(ctx, (int)table, warning, "%s", text);
}

/* ---- root attributes ------------------------------------------------------------------------ */

static bool require_attr(struct checker *c, const char *name, enum nprb_attr_type type)
{
    const struct nprb_attr *a = nprb_attrs_find(&c->attrs, name);
    if (a == NULL) {
        PROBLEM(c, AREA_FILE, "root attribute %s missing", name);
        return false;
    }
    if (a->type != type) {
        PROBLEM(c, AREA_FILE, "root attribute %s is not %s", name,
                type == NPRB_ATTR_TEXT ? "a string" : "an integer");
        return false;
    }
    return true;
}

/* @return false when the file's layout is not one this binary knows (a different major). */
static bool check_version(struct checker *c)
{
    const char *schema = nprb_attrs_text(&c->attrs, "schema");
    if (schema != NULL && strcmp(schema, NPRB_SCHEMA_NAME) != 0)
        PROBLEM(c, AREA_FILE, "schema is '%s', expected '%s'", schema, NPRB_SCHEMA_NAME);
    const char *version = nprb_attrs_text(&c->attrs, "schema_version");
    if (version == NULL)
        return true;
    int mine[3] = {0}, theirs[3] = {0};
    char tail = 0;
    (void)sscanf(NPRB_SCHEMA_VERSION, "%d.%d.%d", &mine[0], &mine[1], &mine[2]);
    if (sscanf(version, "%d.%d.%d%c", &theirs[0], &theirs[1], &theirs[2], &tail) != 3) {
        PROBLEM(c, AREA_FILE, "schema_version '%s' is not MAJOR.MINOR.PATCH", version);
        return false;
    }
    if (theirs[0] != mine[0]) {
        PROBLEM(c, AREA_FILE,
                "schema_version %s: major version %d, this numaprobe reads %d.x (schema %s); "
                "tables not checked",
                version, theirs[0], mine[0], NPRB_SCHEMA_VERSION);
        return false;
    }
    if (theirs[1] < mine[1])
        WARNING(c, AREA_FILE,
                "schema_version %s is older than this numaprobe's %s: the columns added since "
                "may be absent (docs/SCHEMA.md); anything else added since is reported missing",
                version, NPRB_SCHEMA_VERSION);
    if (theirs[1] > mine[1])
        WARNING(c, AREA_FILE,
                "schema_version %s is newer than this numaprobe's %s: columns it added are "
                "not checked",
                version, NPRB_SCHEMA_VERSION);
    return true;
}

static bool check_attributes(struct checker *c)
{
    if (nprb_h5in_attrs(c->in, &c->attrs) != 0) {
        PROBLEM(c, AREA_FILE, "root attributes cannot be read (damaged file)");
        return false;
    }
    c->checkpoint = nprb_attrs_find(&c->attrs, "checkpoint_rank") != NULL;
    c->merged = nprb_attrs_find(&c->attrs, "merged_from") != NULL;
    /* The contract's attributes this kind of file carries (contract.c); a file of an older minor
     * may lack those added since, but what it has must have its type. */
    int minor = c->minor = nprb_schema_minor(nprb_attrs_text(&c->attrs, "schema_version"));
    size_t count;
    const struct nprb_root_attr *rules = nprb_root_attrs(&count);
    for (size_t i = 0; i < count; i++) {
        const struct nprb_root_attr *r = &rules[i];
        bool belongs = r->scope == NPRB_ATTR_EVERY ||
                       (r->scope == NPRB_ATTR_FINAL && !c->checkpoint) ||
                       (r->scope == NPRB_ATTR_CHECKPOINT && c->checkpoint) ||
                       (r->scope == NPRB_ATTR_MERGED && c->merged);
        /* A version not of this major (reported below) is held to the first minor's. */
        bool older = minor < 0 ? r->since_minor > 0 : minor < r->since_minor;
        if ((belongs && r->required && !older) || nprb_attrs_find(&c->attrs, r->name) != NULL)
            require_attr(c, r->name, r->type);
    }
    if (c->checkpoint)
        c->checkpoint_rank = nprb_attrs_int(&c->attrs, "checkpoint_rank", -1);
    c->world_size = nprb_attrs_int(&c->attrs, "world_size", -1);
    c->host_count = nprb_attrs_int(&c->attrs, "host_count", -1);
    c->complete = nprb_attrs_int(&c->attrs, "complete", -1);
    if (nprb_attrs_find(&c->attrs, "world_size") != NULL && c->world_size < 1)
        PROBLEM(c, AREA_FILE, "world_size is %" PRId64 ", expected at least 1", c->world_size);
    if (nprb_attrs_find(&c->attrs, "host_count") != NULL &&
        (c->host_count < 1 || (c->world_size >= 1 && c->host_count > c->world_size)))
        PROBLEM(c, AREA_FILE, "host_count is %" PRId64 ", expected 1..world_size (%" PRId64 ")",
                c->host_count, c->world_size);
    if (nprb_attrs_find(&c->attrs, "complete") != NULL && c->complete != 0 && c->complete != 1)
        PROBLEM(c, AREA_FILE, "complete is %" PRId64 ", expected 0 or 1", c->complete);
    if (c->checkpoint && c->complete == 1)
        PROBLEM(c, AREA_FILE, "a checkpoint (checkpoint_rank %" PRId64 ") marked complete=1",
                c->checkpoint_rank);
    return check_version(c);
}

/* ---- /hosts ---------------------------------------------------------------------------------- */

static bool host_status_allowed(const struct checker *c, const char *status)
{
    if (strcmp(status, NPRB_ROW_OK) == 0 || strcmp(status, NPRB_ROW_FAILED) == 0)
        return true;
    if (strcmp(status, "hung") == 0) /* given up by rank 0's watchdog */
        return !c->checkpoint;
    if (strcmp(status, "running") == 0) /* a checkpoint of a rank still measuring */
        return c->checkpoint;
    if (strcmp(status, "incomplete") == 0) /* merged: the rank stopped before finishing */
        return !c->checkpoint && c->complete == 0;
    return false;
}

static int by_int32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static void check_host_counts(struct checker *c)
{
    bool all_there = c->world_size > 0 && c->host_rows == (size_t)c->world_size;
    char missing[256];
    nprb_check_missing_ranks(c->hosts, c->host_rows, c->world_size, missing, sizeof missing);
    if (c->checkpoint) {
        if (c->host_rows != 1 || c->hosts[0].rank != c->checkpoint_rank)
            PROBLEM(c, NPRB_TABLE_HOSTS,
                    "/hosts has %zu rows; a checkpoint holds its own rank's row (rank %" PRId64
                    ") alone",
                    c->host_rows, c->checkpoint_rank);
    } else if (!all_there && c->complete == 1) {
        PROBLEM(c, NPRB_TABLE_HOSTS,
                "/hosts has %zu rows but world_size is %" PRId64
                " and complete=1 (ranks missing: %s)",
                c->host_rows, c->world_size, missing[0] ? missing : "none");
    } else if (!all_there) {
        WARNING(c, NPRB_TABLE_HOSTS,
                "complete=0: /hosts has %zu of %" PRId64 " ranks (ranks missing: %s)", c->host_rows,
                c->world_size, missing[0] ? missing : "none");
    }
    const char *listed = nprb_attrs_text(&c->attrs, "ranks_missing");
    if (c->merged && listed != NULL &&
        !nprb_check_lists_missing(c->hosts, c->host_rows, c->world_size, listed))
        PROBLEM(c, AREA_FILE, "ranks_missing says '%.120s' but /hosts lacks '%s'", listed, missing);

    /* host_index names hosts 0..host_count-1; ranks_on_host counts the rows sharing it. */
    int32_t *index = malloc((c->host_rows ? c->host_rows : 1) * sizeof *index);
    if (index == NULL)
        return;
    for (size_t i = 0; i < c->host_rows; i++)
        index[i] = c->hosts[i].host_index;
    qsort(index, c->host_rows, sizeof *index, by_int32);
    size_t distinct = 0;
    int64_t failed = 0;
    for (size_t i = 0; i < c->host_rows; i++) {
        const struct nprb_check_host *h = &c->hosts[i];
        distinct += i == 0 || index[i] != index[i - 1];
        failed += strcmp(h->status, NPRB_ROW_OK) != 0;
        size_t same = nprb_check_count_equal(index, c->host_rows, h->host_index);
        /* A hung rank's row is written by rank 0, which knows little more than its host. */
        bool hung = strcmp(h->status, "hung") == 0;
        if (all_there && !hung && h->ranks_on_host != (int32_t)same)
            PROBLEM(c, NPRB_TABLE_HOSTS,
                    "/hosts rank %" PRId32 ": ranks_on_host %" PRId32 " but %zu rows have "
                    "host_index %" PRId32,
                    h->rank, h->ranks_on_host, same, h->host_index);
    }
    free(index);
    if (c->host_count > 0 && !c->checkpoint &&
        (all_there ? distinct != (size_t)c->host_count : distinct > (size_t)c->host_count))
        PROBLEM(c, NPRB_TABLE_HOSTS,
                "host_count is %" PRId64 " but /hosts has %zu distinct "
                "host_index values",
                c->host_count, distinct);
    /* The writer counts every rank whose row is not ok (failed, hung). A checkpoint's count is
     * its rank's view while running, so it is not compared. */
    const struct nprb_attr *hf = nprb_attrs_find(&c->attrs, "hosts_failed");
    if (!c->checkpoint && hf != NULL && hf->type == NPRB_ATTR_INT && hf->value != failed)
        PROBLEM(c, AREA_FILE, "hosts_failed is %" PRId64 " but %" PRId64 " /hosts rows are not ok",
                hf->value, failed);
}

static void check_host(struct checker *c, const struct nprb_host_row *h, size_t i)
{
    if (h->rank < 0 || (c->world_size > 0 && h->rank >= c->world_size))
        PROBLEM(c, NPRB_TABLE_HOSTS,
                "/hosts row %zu: rank %" PRId32 " outside 0..world_size-1 (world_size %" PRId64 ")",
                i, h->rank, c->world_size);
    if (h->host_index < 0 || (c->host_count > 0 && h->host_index >= c->host_count))
        PROBLEM(c, NPRB_TABLE_HOSTS,
                "/hosts row %zu: host_index %" PRId32 " outside 0..host_count-1 (host_count "
                "%" PRId64 ")",
                i, h->host_index, c->host_count);
    if (!host_status_allowed(c, h->status))
        PROBLEM(c, NPRB_TABLE_HOSTS, "/hosts row %zu: status '%s' is not one of %s", i, h->status,
                c->checkpoint      ? "ok, failed, running"
                : c->complete == 0 ? "ok, failed, hung, incomplete"
                                   : "ok, failed, hung");
    else if (strcmp(h->status, NPRB_ROW_OK) != 0 && strcmp(h->status, "running") != 0 &&
             h->error[0] == '\0')
        WARNING(c, NPRB_TABLE_HOSTS, "/hosts row %zu: status %s without an error saying why", i,
                h->status);
    struct nprb_check_host *kept = &c->hosts[i];
    *kept = (struct nprb_check_host){h->rank, h->host_index, h->ranks_on_host, h->numa_nodes, ""};
    memcpy(kept->status, h->status, sizeof kept->status);
}

static void check_hosts(struct checker *c, size_t rows)
{
    c->hosts = calloc(rows ? rows : 1, sizeof *c->hosts);
    c->topo_rows[0] = calloc(rows ? rows : 1, sizeof(size_t));
    c->topo_rows[1] = calloc(rows ? rows : 1, sizeof(size_t));
    struct nprb_host_row *buf = malloc(BLOCK_ROWS * sizeof *buf);
    if (c->hosts == NULL || c->topo_rows[0] == NULL || c->topo_rows[1] == NULL || buf == NULL) {
        PROBLEM(c, NPRB_TABLE_HOSTS, "/hosts: %zu rows do not fit in memory", rows);
        free(buf);
        return;
    }
    for (size_t start = 0; start < rows; start += BLOCK_ROWS) {
        size_t n = rows - start < BLOCK_ROWS ? rows - start : BLOCK_ROWS;
        if (nprb_h5in_read(c->in, NPRB_TABLE_HOSTS, start, n, buf) != 0) {
            PROBLEM(c, NPRB_TABLE_HOSTS, "/hosts: rows cannot be read (damaged file)");
            free(buf);
            return;
        }
        for (size_t r = 0; r < n; r++)
            check_host(c, &buf[r], start + r);
    }
    free(buf);
    qsort(c->hosts, rows, sizeof *c->hosts, nprb_check_host_by_rank);
    c->host_rows = rows;
    for (size_t i = 1; i < rows; i++)
        if (c->hosts[i].rank == c->hosts[i - 1].rank)
            PROBLEM(c, NPRB_TABLE_HOSTS, "/hosts: rank %" PRId32 " has more than one row",
                    c->hosts[i].rank);
    c->hosts_read = true;
    check_host_counts(c);
}

/* ---- rows of the other tables ---------------------------------------------------------------- */

/* Placement, numastat and counter rows describe a measurement; each must name one that exists
 * (but a counter row of measurement -1, which is the rank's). */
static bool describes_measurement(enum nprb_table_id id)
{
    return id == NPRB_TABLE_PLACEMENT || id == NPRB_TABLE_NUMASTAT || id == NPRB_TABLE_COUNTERS;
}

static void check_row(struct checker *c, const struct nprb_row_rules *v, const unsigned char *row,
                      size_t i)
{
    int32_t rank = nprb_row_i32(row, v->rank);
    /* A rank's rows follow each other: its host is looked up once for the run of them. */
    if (!c->last_host.valid || c->last_host.rank != rank) {
        c->last_host.index = c->hosts_read ? nprb_check_host_find(c->hosts, c->host_rows, rank) : 0;
        c->last_host.rank = rank;
        c->last_host.valid = true;
    }
    long host = c->last_host.index;
    if (c->checkpoint && rank != c->checkpoint_rank)
        PROBLEM(c, v->id, "/%s row %zu: rank %" PRId32 " in the checkpoint of rank %" PRId64,
                v->desc->name, i, rank, c->checkpoint_rank);
    else if (host < 0)
        PROBLEM(c, v->id, "/%s row %zu: rank %" PRId32 " not in /hosts", v->desc->name, i, rank);
    if (host >= 0 && c->hosts_read && v->id == NPRB_TABLE_NUMA_NODES)
        c->topo_rows[0][host]++;
    if (host >= 0 && c->hosts_read && v->id == NPRB_TABLE_DISTANCES)
        c->topo_rows[1][host]++;
    bool ok = nprb_row_check(v, row, i, row_problem, c);
    nprb_check_passes(v->id, row, i, ok, c->minor, row_problem, c);
    if (v->measurement == NULL)
        return;
    struct nprb_check_key key = {
        rank, nprb_row_i32(row, v->measurement), (uint32_t)i, (uint8_t)v->id, ok, false};
    if (describes_measurement(v->id)) {
        if (v->id == NPRB_TABLE_COUNTERS && key.measurement == -1)
            return;
        if (!c->last.valid || c->last.rank != key.rank || c->last.measurement != key.measurement) {
            c->last.found = nprb_check_keys_find(&c->measured, key.rank, key.measurement);
            c->last.rank = key.rank;
            c->last.measurement = key.measurement;
            c->last.valid = true;
        }
        if (!c->last.found)
            PROBLEM(c, v->id,
                    "/%s row %zu: rank %" PRId32 " measurement %" PRId32
                    " matches no measurement row",
                    v->desc->name, i, key.rank, key.measurement);
        if (v->id == NPRB_TABLE_PLACEMENT && c->last.found != NULL && !c->last.found->placed)
            nprb_check_keys_place(&c->measured, c->last.found);
    } else if (nprb_check_keys_add(&c->measured, key) != 0) {
        PROBLEM(c, v->id, "/%s: out of memory", v->desc->name);
    }
}

static void check_table(struct checker *c, enum nprb_table_id id)
{
    size_t rows = 0;
    if (nprb_h5in_table(c->in, id, &rows, table_problem, c) != 0)
        return;
    if (!describes_measurement(id) && rows > UINT32_MAX) { /* a key's row (check_keys.h) */
        PROBLEM(c, id, "/%s: %zu rows, more than check can index: not checked",
                nprb_table_desc(id)->name, rows);
        return;
    }
    nprb_h5in_table_attrs(c->in, id, table_problem, c);
    if (id == NPRB_TABLE_HOSTS) {
        check_hosts(c, rows);
        return;
    }
    struct nprb_row_rules v;
    nprb_row_rules_init(&v, id);
    unsigned char *buf = malloc(BLOCK_ROWS * v.desc->row_bytes);
    if (buf == NULL) {
        PROBLEM(c, id, "/%s: out of memory", v.desc->name);
        return;
    }
    for (size_t start = 0; start < rows; start += BLOCK_ROWS) {
        size_t n = rows - start < BLOCK_ROWS ? rows - start : BLOCK_ROWS;
        if (nprb_h5in_read(c->in, id, start, n, buf) != 0) {
            PROBLEM(c, id, "/%s: rows %zu..%zu cannot be read (damaged file)", v.desc->name, start,
                    start + n - 1);
            break;
        }
        for (size_t r = 0; r < n; r++)
            check_row(c, &v, buf + r * v.desc->row_bytes, start + r);
    }
    free(buf);
}

/* ---- the joins across tables ----------------------------------------------------------------- */

static void check_keys(struct checker *c)
{
    const struct nprb_check_keys *m = &c->measured;
    for (size_t i = 1; i < m->count; i++) {
        const struct nprb_check_key *a = &m->items[i - 1], *b = &m->items[i];
        /* A balancing series has one row per sample under one measurement id. */
        bool series = a->table == NPRB_TABLE_BALANCING && b->table == NPRB_TABLE_BALANCING;
        if (a->rank == b->rank && a->measurement == b->measurement && !series)
            PROBLEM(c, b->table,
                    "/%s row %" PRIu32 ": rank %" PRId32 " measurement %" PRId32
                    " is also /%s row %" PRIu32 " (ids are unique within a rank)",
                    nprb_table_desc((enum nprb_table_id)b->table)->name, b->row, b->rank,
                    b->measurement, nprb_table_desc((enum nprb_table_id)a->table)->name, a->row);
    }
    for (size_t i = 0; i < m->count; i++) {
        const struct nprb_check_key *k = &m->items[i];
        if (k->ok && k->table != NPRB_TABLE_BALANCING && !k->placed)
            PROBLEM(c, k->table,
                    "/%s row %" PRIu32 ": status ok but no /placement rows for rank %" PRId32
                    " measurement %" PRId32,
                    nprb_table_desc((enum nprb_table_id)k->table)->name, k->row, k->rank,
                    k->measurement);
    }
}

/* One /numa_nodes row per NUMA node of the host row, and one /distances row per node pair. */
static void check_topology_rows(struct checker *c)
{
    for (size_t h = 0; h < c->host_rows; h++) {
        size_t n = c->hosts[h].numa_nodes > 0 ? (size_t)c->hosts[h].numa_nodes : 0;
        if (c->topo_rows[0][h] != n)
            PROBLEM(c, NPRB_TABLE_NUMA_NODES,
                    "/numa_nodes: rank %" PRId32 " has %zu rows, /hosts says %zu NUMA nodes",
                    c->hosts[h].rank, c->topo_rows[0][h], n);
        if (c->topo_rows[1][h] != n * n)
            PROBLEM(c, NPRB_TABLE_DISTANCES,
                    "/distances: rank %" PRId32 " has %zu rows, expected %zu (%zu NUMA nodes)",
                    c->hosts[h].rank, c->topo_rows[1][h], n * n, n);
    }
}

static void check_tables(struct checker *c)
{
    size_t before = c->problems;
    check_table(c, NPRB_TABLE_HOSTS);
    bool topo_read = true;
    for (int t = 0; t < NPRB_N_TABLES; t++) {
        enum nprb_table_id id = (enum nprb_table_id)t;
        if (id == NPRB_TABLE_HOSTS || describes_measurement(id))
            continue;
        size_t problems = c->problems;
        check_table(c, id);
        if ((id == NPRB_TABLE_NUMA_NODES || id == NPRB_TABLE_DISTANCES) && c->problems != problems)
            topo_read = false;
    }
    nprb_check_keys_sort(&c->measured);
    check_table(c, NPRB_TABLE_PLACEMENT);
    check_table(c, NPRB_TABLE_NUMASTAT);
    check_table(c, NPRB_TABLE_COUNTERS);
    check_keys(c);
    /* Counting rows per host means something only when both tables were read whole. */
    if (c->hosts_read && topo_read && c->problems == before)
        check_topology_rows(c);
}

/* ---- the file as a whole ------------------------------------------------------------ */

static void summarise(struct checker *c)
{
    size_t hidden = 0;
    for (int a = 0; a < N_AREAS; a++) {
        hidden += c->hidden[a];
        if (c->hidden[a] > 0 && c->voice.texts == NULL)
            fprintf(c->out, "check: %s: ... and %zu more in %s%s (not shown)\n", c->path,
                    c->hidden[a], a == AREA_FILE ? "the file" : "/",
                    a == AREA_FILE ? "" : nprb_table_desc((enum nprb_table_id)a)->name);
    }
    char what[160] = "";
    if (c->checkpoint)
        snprintf(what, sizeof what, ", checkpoint of rank %" PRId64 "%s", c->checkpoint_rank,
                 nprb_attrs_int(&c->attrs, "checkpoint_complete", 0) == 1 ? " (finished)"
                                                                          : " (running)");
    else if (c->merged)
        snprintf(what, sizeof what, ", merged from %.120s",
                 nprb_attrs_text(&c->attrs, "merged_from"));
    struct nprb_check_facts f = {
        .schema_version = nprb_attrs_text(&c->attrs, "schema_version"),
        .kind = c->checkpoint ? "checkpoint"
                : c->merged   ? "merged"
                              : "final",
        .what = what,
        .ranks = c->host_rows,
        .problems = c->problems,
        .warnings = c->warnings,
        .not_shown = hidden,
        .world_size = c->world_size,
        .hosts = c->host_count,
        .complete = c->complete,
    };
    nprb_check_voice_verdict(&c->voice, &f);
}

int nprb_check_readable_file(const char *path, enum nprb_check_format format, FILE *out)
{
    struct checker c = {.path = path, .out = out};
    if (nprb_check_voice_open(&c.voice, path, format, out) != 0)
        return NPRB_EXIT_RUNTIME;
    char why[256];
    if (nprb_h5in_open(&c.in, path, why, sizeof why) != 0)
        PROBLEM(&c, AREA_FILE, "%s", why);
    else if (check_attributes(&c))
        check_tables(&c);
    summarise(&c);
    nprb_h5in_close(c.in);
    nprb_attrs_free(&c.attrs);
    free(c.hosts);
    free(c.topo_rows[0]);
    free(c.topo_rows[1]);
    free(c.measured.items);
    return c.problems == 0 ? NPRB_EXIT_OK : NPRB_EXIT_VALIDATION;
}
