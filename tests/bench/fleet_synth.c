/* SPDX-License-Identifier: BSD-3-Clause */
/* The synthetic fleet of the write-path benchmarks (fleet_synth.h). */
#include "fleet_synth.h"

#include "results/contract.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Node types: template, a faster one, a slower one, then variations of them. */
static const struct node_type {
    double latency, bandwidth;
} node_types[FLEET_SYNTH_MAX_TYPES] = {{1.0, 1.0},  {0.85, 1.3}, {1.15, 0.8}, {0.95, 1.1},
                                       {1.05, 0.9}, {0.9, 1.2},  {1.1, 0.85}, {1.2, 0.7}};

/* splitmix64: a reproducible spread without libc's global state. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* About normal, mean 0, deviation 1 (the sum of four uniforms, rescaled). */
static double gauss(uint64_t *state)
{
    double s = 0;
    for (int i = 0; i < 4; i++)
        s += (double)(next_random(state) >> 11) * 0x1.0p-53;
    return (s - 2.0) * sqrt(3.0);
}

static const struct nprb_field *field_named(const struct nprb_table_desc *d, const char *name)
{
    for (size_t i = 0; i < d->field_count; i++)
        if (strcmp(d->fields[i].name, name) == 0)
            return &d->fields[i];
    return NULL;
}

static void set_text(const struct nprb_table_desc *d, unsigned char *row, const char *name,
                     const char *value)
{
    const struct nprb_field *f = field_named(d, name);
    if (f != NULL && f->kind == NPRB_FIELD_STR)
        nprb_copy_text((char *)row + f->offset, f->size, value);
}

static void set_i32(const struct nprb_table_desc *d, unsigned char *row, const char *name,
                    int32_t value)
{
    const struct nprb_field *f = field_named(d, name);
    if (f != NULL && f->kind == NPRB_FIELD_I32)
        memcpy(row + f->offset, &value, sizeof value);
}

/* Where in each table's row the columns this bench changes lie, looked up once in the
 * descriptors and the contract: the rank, the host name, and the float columns in ns and GB/s. */
enum { MAX_SCALED = 24 };
struct columns {
    const struct nprb_field *rank, *hostname;
    size_t ns[MAX_SCALED], gbs[MAX_SCALED];
    size_t n_ns, n_gbs;
};
static struct columns columns_of[NPRB_N_TABLES];

static void find_columns(void)
{
    for (int t = 0; t < NPRB_N_TABLES; t++) {
        const struct nprb_table_desc *d = nprb_table_desc((enum nprb_table_id)t);
        struct columns *c = &columns_of[t];
        c->rank = field_named(d, "rank");
        c->hostname = field_named(d, "hostname");
        for (size_t i = 0; i < d->field_count; i++) {
            const char *u = d->fields[i].unit;
            bool array = d->fields[i].kind == NPRB_FIELD_F64_ARRAY;
            if ((d->fields[i].kind != NPRB_FIELD_F64 && !array) || u == NULL)
                continue;
            /* Each pass's figure scales with the headline it is one of. */
            for (size_t k = 0; k < (array ? d->fields[i].size / sizeof(double) : 1); k++) {
                size_t at = d->fields[i].offset + k * sizeof(double);
                if (strcmp(u, "ns") == 0 && c->n_ns < MAX_SCALED)
                    c->ns[c->n_ns++] = at;
                if (strcmp(u, "GB/s") == 0 && c->n_gbs < MAX_SCALED)
                    c->gbs[c->n_gbs++] = at;
            }
        }
    }
}

/* Scales the float columns at @p offsets by @p factor (NaN stays NaN). */
static void scale(unsigned char *row, const size_t *offsets, size_t n, double factor)
{
    for (size_t i = 0; i < n; i++) {
        double v;
        memcpy(&v, row + offsets[i], sizeof v);
        v *= factor;
        memcpy(row + offsets[i], &v, sizeof v);
    }
}

/* Copies column @p from over the columns @p to of every row of table @p t (absent names skip). */
static void copy_column(struct nprb_results *tpl, enum nprb_table_id t, const char *from,
                        const char *const *to)
{
    const struct nprb_table_desc *d = nprb_table_desc(t);
    const struct nprb_field *src = field_named(d, from);
    for (size_t i = 0; src != NULL && i < tpl->tables[t].count; i++) {
        unsigned char *row = tpl->tables[t].data + i * tpl->tables[t].row_bytes;
        for (const char *const *name = to; *name != NULL; name++) {
            const struct nprb_field *dst = field_named(d, *name);
            if (dst != NULL && dst->kind == NPRB_FIELD_F64 && src->kind == NPRB_FIELD_F64)
                memcpy(row + dst->offset, row + src->offset, sizeof(double));
        }
    }
}

/* Sets the double column @p name of every row of table @p t to @p value (absent: nothing). */
static void set_column(struct nprb_results *tpl, enum nprb_table_id t, const char *name,
                       double value)
{
    const struct nprb_field *f = field_named(nprb_table_desc(t), name);
    for (size_t i = 0; f != NULL && f->kind == NPRB_FIELD_F64 && i < tpl->tables[t].count; i++)
        memcpy(tpl->tables[t].data + i * tpl->tables[t].row_bytes + f->offset, &value,
               sizeof value);
}

/* Takes the template's own spread out of its rows (every sample at the median, every
 * repetition at the best, every uncertainty 0): a template measured on a busy machine is noisy,
 * and the report keeps noisy figures out of its verdicts, so the planted outliers would go
 * unjudged. The fleet's spread is the one this bench plants. */
static void quiet(struct nprb_results *tpl)
{
    set_column(tpl, NPRB_TABLE_LATENCY, "uncertainty_pct", 0);
    set_column(tpl, NPRB_TABLE_BANDWIDTH, "uncertainty_pct", 0);
    static const char *const samples[] = {"latency_ns_min", "latency_ns_p90", "latency_ns_p99",
                                          "latency_ns_max", NULL};
    static const char *const repetitions[] = {"gbs_median", "gbs_worst", NULL};
    copy_column(tpl, NPRB_TABLE_LATENCY, "latency_ns_median", samples);
    copy_column(tpl, NPRB_TABLE_LOADED_LATENCY, "latency_ns_median", samples);
    copy_column(tpl, NPRB_TABLE_BANDWIDTH, "gbs_best", repetitions);
}

struct host {
    int32_t rank;
    int type;
    char name[64];
    double latency, bandwidth; /* this host's factors */
    uint64_t random;
};

/* One host's rows, made from the template's (@p tpl) into @p out (same counts). */
static void make_host(const struct nprb_results *tpl, struct nprb_results *out, struct host *h)
{
    for (int t = 0; t < NPRB_N_TABLES; t++) {
        const struct columns *c = &columns_of[t];
        const struct nprb_rows *from = &tpl->tables[t];
        memcpy(out->tables[t].data, from->data, from->count * from->row_bytes);
        out->tables[t].count = from->count;
        for (size_t i = 0; i < from->count; i++) {
            unsigned char *row = out->tables[t].data + i * from->row_bytes;
            if (c->rank != NULL)
                memcpy(row + c->rank->offset, &h->rank, sizeof h->rank);
            if (c->hostname != NULL)
                nprb_copy_text((char *)row + c->hostname->offset, c->hostname->size, h->name);
            if (t == NPRB_TABLE_DISTANCES) /* firmware's figures, not measured */
                continue;
            if (t == NPRB_TABLE_HOSTS) {
                scale(row, c->gbs, c->n_gbs, node_types[h->type].bandwidth);
                continue;
            }
            /* One factor a row keeps min <= median <= p90 and best >= median. */
            double noise = 1.0 + 0.005 * gauss(&h->random);
            scale(row, c->ns, c->n_ns, h->latency * noise);
            scale(row, c->gbs, c->n_gbs, h->bandwidth / noise);
        }
    }
}

static void make_host_row(const struct nprb_results *tpl, struct nprb_results *out,
                          const struct host *h)
{
    const struct nprb_table_desc *d = nprb_table_desc(NPRB_TABLE_HOSTS);
    unsigned char *row = out->tables[NPRB_TABLE_HOSTS].data;
    const struct nprb_host_row *src = (const void *)tpl->tables[NPRB_TABLE_HOSTS].data;
    char text[128];
    set_i32(d, row, "host_index", h->rank);
    set_i32(d, row, "ranks_on_host", 1);
    snprintf(text, sizeof text, "%.14s%02x", src->fingerprint, h->type);
    set_text(d, row, "fingerprint", text);
    if (h->type > 0) {
        snprintf(text, sizeof text, "%.40s (type %c)", src->node_type, 'A' + h->type);
        set_text(d, row, "node_type", text);
        snprintf(text, sizeof text, "%.60s (type %c)", src->cpu_model, 'A' + h->type);
        set_text(d, row, "cpu_model", text);
    }
    if (h->rank % 1000 == 11)
        set_text(d, row, "thp_mode", "never");
}

/* The template's first rank's rows only: a host of one rank. */
static int first_rank_only(struct nprb_results *all, struct nprb_results *tpl)
{
    if (all->tables[NPRB_TABLE_HOSTS].count == 0)
        return -1;
    int32_t rank;
    memcpy(&rank, all->tables[NPRB_TABLE_HOSTS].data, sizeof rank);
    for (int t = 0; t < NPRB_N_TABLES; t++)
        for (size_t i = 0; i < all->tables[t].count; i++) {
            const unsigned char *row = all->tables[t].data + i * all->tables[t].row_bytes;
            int32_t r;
            memcpy(&r, row, sizeof r); /* every row struct starts with its int32 rank */
            if (r == rank && nprb_results_add(tpl, (enum nprb_table_id)t, row) != 0)
                return -1;
        }
    return 0;
}

static int read_template(const char *who, const char *path, struct nprb_attrs *attrs,
                         struct nprb_results *tpl)
{
    char err[512];
    struct nprb_h5in *in = NULL;
    struct nprb_results all;
    nprb_results_init(&all);
    int rc = -1;
    if (nprb_h5in_open(&in, path, err, sizeof err) != 0 || nprb_h5in_attrs(in, attrs) != 0 ||
        nprb_h5in_read_all(in, &all, err, sizeof err) != 0)
        fprintf(stderr, "%s: cannot read %s: %s\n", who, path, err);
    else if (first_rank_only(&all, tpl) != 0)
        fprintf(stderr, "%s: %s has no /hosts row\n", who, path);
    else
        rc = 0;
    nprb_h5in_close(in);
    nprb_results_free(&all);
    return rc;
}

int fleet_synth_open(struct fleet_synth *f, const char *who, const char *template_path, int hosts,
                     int types)
{
    memset(f, 0, sizeof *f);
    nprb_results_init(&f->tpl);
    nprb_results_init(&f->row);
    if (hosts < 1 || types < 1 || types > FLEET_SYNTH_MAX_TYPES) {
        fprintf(stderr, "%s: HOSTS must be at least 1, TYPES 1..%d\n", who, FLEET_SYNTH_MAX_TYPES);
        return -1;
    }
    f->hosts = hosts;
    f->types = types;
    if (read_template(who, template_path, &f->attrs, &f->tpl) != 0)
        return -1;
    find_columns();
    quiet(&f->tpl);
    for (int t = 0; t < NPRB_N_TABLES; t++) {
        f->rows_a_host += f->tpl.tables[t].count;
        for (size_t i = 0; i < f->tpl.tables[t].count; i++) /* room for one host's rows */
            if (nprb_results_add(&f->row, (enum nprb_table_id)t, f->tpl.tables[t].data) != 0)
                return -1;
    }
    const struct nprb_host_row *first = (const void *)f->tpl.tables[NPRB_TABLE_HOSTS].data;
    f->failed = strcmp(first->status, NPRB_ROW_OK) != 0 ? hosts : 0;
    return 0;
}

void fleet_synth_host(struct fleet_synth *f, int index)
{
    /* Types in blocks, as racks of one kind are: host names sort by type. */
    int type = (int)((int64_t)index * f->types / f->hosts);
    struct host h = {.rank = index, .type = type, .random = 0x5eedULL + (uint64_t)index};
    snprintf(h.name, sizeof h.name, "node%c%05d", 'a' + type, index);
    double spread = 1.0 + 0.02 * gauss(&h.random);
    h.latency = node_types[type].latency * spread;
    h.bandwidth = node_types[type].bandwidth / spread * (index % 500 == 7 ? 0.6 : 1.0);
    make_host(&f->tpl, &f->row, &h);
    make_host_row(&f->tpl, &f->row, &h);
}

int fleet_synth_root_attrs(const struct fleet_synth *f, struct nprb_h5 *h5,
                           const char *command_line)
{
    size_t count = 0;
    const struct nprb_root_attr *rules = nprb_root_attrs(&count);
    for (size_t i = 0; i < count; i++) {
        const struct nprb_root_attr *r = &rules[i];
        const struct nprb_attr *a = nprb_attrs_find(&f->attrs, r->name);
        if ((r->scope != NPRB_ATTR_EVERY && r->scope != NPRB_ATTR_FINAL) || a == NULL ||
            a->type != r->type)
            continue;
        if (a->type == NPRB_ATTR_TEXT)
            nprb_h5_attr_text(h5, r->name, a->text);
        else
            nprb_h5_attr_int(h5, r->name, a->value);
    }
    char summary[128];
    snprintf(summary, sizeof summary, "%d of %d rank(s) ok", f->hosts, f->hosts);
    nprb_h5_attr_text(h5, "schema_version", NPRB_SCHEMA_VERSION);
    nprb_h5_attr_text(h5, "command_line", command_line);
    nprb_h5_attr_text(h5, "binding_summary", summary);
    nprb_h5_attr_int(h5, "world_size", f->hosts);
    nprb_h5_attr_int(h5, "host_count", f->hosts);
    nprb_h5_attr_int(h5, "complete", 1);
    nprb_h5_attr_int(h5, "hosts_ok", f->hosts - f->failed);
    return nprb_h5_attr_int(h5, "hosts_failed", f->failed);
}

void fleet_synth_close(struct fleet_synth *f)
{
    nprb_attrs_free(&f->attrs);
    nprb_results_free(&f->tpl);
    nprb_results_free(&f->row);
}
