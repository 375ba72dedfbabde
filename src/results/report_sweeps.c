/* SPDX-License-Identifier: BSD-3-Clause */
#include "results/report_sweeps.h"

#include "util/units.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KEYS 64
#define MAX_ROWS 256 /* from: every with pairs: all gives nodes x nodes x patterns curves */
#define COLUMNS_PER_BLOCK 10

/* A grid of figures: rows named by text, columns by a number, NaN where nothing was measured. */
struct grid {
    int rows, cols;
    char row_name[MAX_ROWS][24];
    uint64_t col[MAX_KEYS];
    double value[MAX_ROWS][MAX_KEYS];
};

struct cell {
    const char *row;
    uint64_t col;
    double value;
};

static int row_index(struct grid *g, const char *name)
{
    for (int r = 0; r < g->rows; r++)
        if (strcmp(g->row_name[r], name) == 0)
            return r;
    if (g->rows == MAX_ROWS)
        return -1;
    snprintf(g->row_name[g->rows], sizeof g->row_name[0], "%s", name);
    for (int c = 0; c < MAX_KEYS; c++)
        g->value[g->rows][c] = NAN;
    return g->rows++;
}

static int col_index(struct grid *g, uint64_t col)
{
    int c = 0;
    while (c < g->cols && g->col[c] < col)
        c++;
    if (c < g->cols && g->col[c] == col)
        return c;
    if (g->cols == MAX_KEYS)
        return -1;
    /* Keep columns sorted: shift the larger ones right. */
    memmove(&g->col[c + 1], &g->col[c], (size_t)(g->cols - c) * sizeof g->col[0]);
    for (int r = 0; r < MAX_ROWS; r++)
        memmove(&g->value[r][c + 1], &g->value[r][c], (size_t)(g->cols - c) * sizeof(double));
    for (int r = 0; r < MAX_ROWS; r++)
        g->value[r][c] = NAN;
    g->col[c] = col;
    g->cols++;
    return c;
}

static void put(struct grid *g, const struct cell *cell)
{
    int r = row_index(g, cell->row), c = col_index(g, cell->col);
    if (r >= 0 && c >= 0)
        g->value[r][c] = cell->value;
}

enum col_kind { COL_SIZE, COL_COUNT };

static void print_grid(FILE *out, const char *title, const char *corner, const struct grid *g,
                       enum col_kind kind, int decimals)
{
    if (g->rows == 0)
        return;
    fprintf(out, "\n%s\n", title);
    for (int first = 0; first < g->cols; first += COLUMNS_PER_BLOCK) {
        int last = first + COLUMNS_PER_BLOCK < g->cols ? first + COLUMNS_PER_BLOCK : g->cols;
        fprintf(out, "%-17s", corner);
        for (int c = first; c < last; c++) {
            char head[32];
            if (kind == COL_SIZE)
                nprb_format_size(g->col[c], head, sizeof head);
            else
                snprintf(head, sizeof head, "%llu", (unsigned long long)g->col[c]);
            fprintf(out, " %9s", head);
        }
        fputc('\n', out);
        for (int r = 0; r < g->rows; r++) {
            fprintf(out, "%-17s", g->row_name[r]);
            for (int c = first; c < last; c++) {
                if (isnan(g->value[r][c]))
                    fprintf(out, " %9s", "-");
                else
                    fprintf(out, " %9.*f", decimals, g->value[r][c]);
            }
            fputc('\n', out);
        }
    }
}

static const void *row_at(const struct nprb_rows *rows, size_t i)
{
    return rows->data + i * rows->row_bytes;
}

int nprb_report_has_sweeps(const struct nprb_results *rows)
{
    if (rows->tables[NPRB_TABLE_LOADED_LATENCY].count > 0)
        return 1;
    const struct nprb_rows *bl = &rows->tables[NPRB_TABLE_BALANCING];
    for (size_t i = 0; i < bl->count; i++)
        if (strcmp(((const struct nprb_balancing_row *)row_at(bl, i))->status, "ok") == 0)
            return 1;
    const struct nprb_rows *lat = &rows->tables[NPRB_TABLE_LATENCY];
    for (size_t i = 0; i < lat->count; i++) {
        const struct nprb_latency_row *l = row_at(lat, i);
        if (strcmp(l->experiment, "latency_matrix") != 0 && strcmp(l->status, "ok") == 0)
            return 1;
    }
    const struct nprb_rows *bw = &rows->tables[NPRB_TABLE_BANDWIDTH];
    for (size_t i = 0; i < bw->count; i++) {
        const struct nprb_bandwidth_row *b = row_at(bw, i);
        if (strcmp(b->experiment, "bandwidth_matrix") != 0 && strcmp(b->status, "ok") == 0)
            return 1;
    }
    return 0;
}

static void latency_grids(FILE *out, const struct nprb_results *rows, struct grid *g)
{
    const struct nprb_rows *lat = &rows->tables[NPRB_TABLE_LATENCY];
    const char *host = "";
    /* Which nodes' cores swept: one (from: first) or each CPU node (from: every). */
    int first_cpu = -1;
    bool several = false;
    for (size_t i = 0; i < lat->count; i++) {
        const struct nprb_latency_row *l = row_at(lat, i);
        if (strcmp(l->experiment, "latency_sweep") != 0 || strcmp(l->status, "ok") != 0)
            continue;
        several |= first_cpu >= 0 && l->cpu_node != first_cpu;
        first_cpu = first_cpu < 0 ? l->cpu_node : first_cpu;
    }
    memset(g, 0, sizeof *g);
    for (size_t i = 0; i < lat->count; i++) {
        const struct nprb_latency_row *l = row_at(lat, i);
        if (strcmp(l->experiment, "latency_sweep") != 0 || strcmp(l->status, "ok") != 0)
            continue;
        host = l->hostname;
        /* Curves through another node's memory (pairs: all), or from another node's core
         * (from: every), get their own rows. */
        char name[32], from[12] = "";
        if (several)
            snprintf(from, sizeof from, "n%d ", (int)l->cpu_node);
        if (l->mem_node == l->cpu_node)
            snprintf(name, sizeof name, "%s%s", from, l->pattern);
        else
            snprintf(name, sizeof name, "%s%s m%d", from, l->pattern, (int)l->mem_node);
        struct cell cell = {name, l->size_bytes, l->latency_ns_median};
        put(g, &cell);
    }
    char title[240];
    if (several)
        snprintf(title, sizeof title,
                 "latency_sweep on %s: ns per access (median) by working set, one core of each "
                 "CPU node (nC: a core of node C; mN: memory on node N, else the core's own)",
                 host);
    else
        snprintf(title, sizeof title,
                 "latency_sweep on %s: ns per access (median) by working set, one core of node %d, "
                 "local memory (mN: memory on node N)",
                 host, first_cpu);
    print_grid(out, title, "pattern", g, COL_SIZE, 2);

    memset(g, 0, sizeof *g);
    for (size_t i = 0; i < lat->count; i++) {
        const struct nprb_latency_row *l = row_at(lat, i);
        if (strcmp(l->experiment, "stride_sweep") != 0 || strcmp(l->status, "ok") != 0)
            continue;
        host = l->hostname;
        char name[24];
        nprb_format_size(l->size_bytes, name, sizeof name);
        struct cell cell = {name, l->slot_bytes, l->latency_ns_median};
        put(g, &cell);
    }
    snprintf(title, sizeof title, "stride_sweep on %s: ns per access (median) by stride", host);
    print_grid(out, title, "working set", g, COL_SIZE, 2);
}

static void bandwidth_grids(FILE *out, const struct nprb_results *rows, struct grid *g)
{
    const struct nprb_rows *bw = &rows->tables[NPRB_TABLE_BANDWIDTH];
    static const char *const experiments[] = {"bandwidth_sweep", "thread_scaling"};
    for (size_t e = 0; e < 2; e++) {
        const char *host = "";
        int threads = 0;
        memset(g, 0, sizeof *g);
        for (size_t i = 0; i < bw->count; i++) {
            const struct nprb_bandwidth_row *b = row_at(bw, i);
            if (strcmp(b->experiment, experiments[e]) != 0 || strcmp(b->status, "ok") != 0)
                continue;
            host = b->hostname;
            threads = b->threads;
            char name[32];
            if (b->stride_bytes != 0) /* one curve per stride of read_strided */
                snprintf(name, sizeof name, "%s:%llu", b->kernel,
                         (unsigned long long)b->stride_bytes);
            else
                snprintf(name, sizeof name, "%s", b->kernel);
            struct cell cell = {name, e == 0 ? b->size_bytes : (uint64_t)b->threads, b->gbs_best};
            put(g, &cell);
        }
        char title[200];
        if (e == 0)
            snprintf(title, sizeof title,
                     "bandwidth_sweep on %s: GB/s (best, bytes the program moves) by size per "
                     "array, %d threads",
                     host, threads);
        else
            snprintf(title, sizeof title,
                     "thread_scaling on %s: GB/s (best) by threads, one node's local memory", host);
        print_grid(out, title, e == 0 ? "kernel" : "kernel\\threads", g,
                   e == 0 ? COL_SIZE : COL_COUNT, 1);
    }
}

static void cache_levels(FILE *out, const struct nprb_results *rows)
{
    const struct nprb_rows *lv = &rows->tables[NPRB_TABLE_CACHE_LEVELS];
    if (lv->count == 0)
        return;
    fprintf(out, "\ncache levels: hwloc's sizes beside the steps the random-chase curve shows\n");
    fprintf(out, "%-6s %10s %12s %12s  %s\n", "level", "hwloc", "measured", "ns below", "");
    for (size_t i = 0; i < lv->count; i++) {
        const struct nprb_cache_level_row *c = row_at(lv, i);
        char hw[32], seen[32];
        nprb_format_size(c->hwloc_bytes, hw, sizeof hw);
        if (c->measured_bytes > 0)
            nprb_format_size(c->measured_bytes, seen, sizeof seen);
        else
            snprintf(seen, sizeof seen, "-");
        fprintf(out, "L%-5d %10s %12s %12.2f  %s\n", c->level, hw, seen, c->latency_ns_below,
                c->note);
    }
}

static void first_touch(FILE *out, const struct nprb_results *rows)
{
    const struct nprb_rows *bw = &rows->tables[NPRB_TABLE_BANDWIDTH];
    bool header = false;
    for (size_t i = 0; i < bw->count; i++) {
        const struct nprb_bandwidth_row *b = row_at(bw, i);
        if (strcmp(b->experiment, "first_touch") != 0 || strcmp(b->status, "not_applicable") == 0)
            continue;
        if (!header) {
            fprintf(out,
                    "\nfirst_touch on %s: who writes the array first, where its pages land, "
                    "what the parallel read then gets (%d threads, every node)\n",
                    b->hostname, b->threads);
            fprintf(out, "%-22s %14s %12s  %s\n", "first written by", "beside reader", "read GB/s",
                    "status");
            header = true;
        }
        char mode[48];
        if (strcmp(b->init_mode, "serial") == 0)
            snprintf(mode, sizeof mode, "one thread on node %d", b->mem_node);
        else if (strcmp(b->mem_policy, "interleave") == 0)
            snprintf(mode, sizeof mode, "threads, interleaved");
        else if (strcmp(b->init_mode, "bound") == 0)
            snprintf(mode, sizeof mode, "threads, chunks bound");
        else
            snprintf(mode, sizeof mode, "threads, %s", b->init_mode);
        fprintf(out, "%-22s %13.1f%% %12.1f  %s\n", mode, 100 * b->pages_on_target_frac,
                b->gbs_best, b->status);
    }
}

static void loaded_latency(FILE *out, const struct nprb_results *rows)
{
    const struct nprb_rows *ll = &rows->tables[NPRB_TABLE_LOADED_LATENCY];
    int cpu = -2, mem = -2;
    for (size_t i = 0; i < ll->count; i++) {
        const struct nprb_loaded_row *r = row_at(ll, i);
        if (strcmp(r->status, "not_applicable") == 0)
            continue;
        if (r->cpu_node != cpu || r->mem_node != mem) {
            cpu = r->cpu_node;
            mem = r->mem_node;
            fprintf(out,
                    "\nloaded_latency on %s: CPUs of node %d -> memory of node %d, %d load "
                    "thread(s) (%s)\n%-14s %12s %14s  %s\n",
                    r->hostname, cpu, mem, r->load_threads, r->load_kernel, "delay (spins)",
                    "load GB/s", "latency ns", "status");
        }
        fprintf(out, "%-14llu %12.1f %14.1f  %s\n", (unsigned long long)r->delay_spins, r->load_gbs,
                r->latency_ns_median, r->status);
    }
}

/* One line per series: where the pages were at the first and the last sample. */
static void balancing(FILE *out, const struct nprb_results *rows)
{
    const struct nprb_rows *bl = &rows->tables[NPRB_TABLE_BALANCING];
    bool header = false;
    size_t i = 0;
    while (i < bl->count) {
        const struct nprb_balancing_row *first = row_at(bl, i), *last = first;
        size_t j = i;
        for (; j < bl->count; j++) {
            const struct nprb_balancing_row *r = row_at(bl, j);
            if (r->measurement != first->measurement)
                break;
            last = r;
        }
        if (strcmp(first->status, "ok") == 0) {
            if (!header)
                fprintf(out,
                        "\nnuma_balancing on %s: pages first touched on node %d, %d threads "
                        "moved to node %d\n",
                        first->hostname, first->from_node, first->threads, first->to_node);
            header = true;
            fprintf(out,
                    "kernel.numa_balancing=%d: pages on the threads' node %5.1f%% -> %5.1f%% "
                    "in %.1f s; read %.1f -> %.1f GB/s\n",
                    first->numa_balancing, 100 * first->frac_on_to, 100 * last->frac_on_to,
                    last->t_s, first->read_gbs, last->read_gbs);
        }
        i = j;
    }
}

void nprb_report_sweeps(FILE *out, const struct nprb_results *rows)
{
    struct grid *g = malloc(sizeof *g);
    if (g == NULL)
        return;
    latency_grids(out, rows, g);
    cache_levels(out, rows);
    bandwidth_grids(out, rows, g);
    first_touch(out, rows);
    loaded_latency(out, rows);
    balancing(out, rows);
    free(g);
}
