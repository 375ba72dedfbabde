/* SPDX-License-Identifier: BSD-3-Clause */
/* report_topology: the host's NUMA layout as numactl --hardware shows it, and the class table
 * (latency and bandwidth per pair class), both printed in each host's stdout block. They read
 * one rank's rows only, as the rest of the report does, so they work while rows arrive. */
#include "report/report_topology.h"

#include "report/figure.h"
#include "util/timer.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* "0-3,8" -> "0 1 2 3 8": numactl lists every CPU, and the comparison with it in the guest test
 * is then a plain string match. */
static void print_cpus_spelled_out(FILE *out, const char *list)
{
    const char *p = list;
    while (*p != '\0') {
        char *end;
        long first = strtol(p, &end, 10);
        if (end == p)
            return;
        long last = first;
        p = end;
        if (*p == '-') {
            last = strtol(p + 1, &end, 10);
            p = end;
        }
        for (long cpu = first; cpu <= last; cpu++)
            fprintf(out, " %ld", cpu);
        if (*p == ',')
            p++;
    }
}

/* The node ids as ranges, "0-7" or "0,2,4-5", as numactl's "available:" line writes them. */
static void print_node_ranges(FILE *out, const struct nprb_rows *nodes)
{
    size_t i = 0;
    while (i < nodes->count) {
        int first = ((const struct nprb_numa_node_row *)nprb_row_at(nodes, i))->node, last = first;
        size_t j = i + 1;
        while (j < nodes->count &&
               ((const struct nprb_numa_node_row *)nprb_row_at(nodes, j))->node == last + 1) {
            last++;
            j++;
        }
        fprintf(out, "%s%d", i ? "," : "", first);
        if (last > first)
            fprintf(out, "-%d", last);
        i = j;
    }
}

static int slit_between(const struct nprb_rows *dist, int from, int to)
{
    for (size_t i = 0; i < dist->count; i++) {
        const struct nprb_distance_row *d = nprb_row_at(dist, i);
        if (d->from_node == from && d->to_node == to)
            return d->slit;
    }
    return 0;
}

void nprb_report_topology(FILE *out, const struct nprb_results *rows)
{
    const struct nprb_rows *nodes = &rows->tables[NPRB_TABLE_NUMA_NODES];
    const struct nprb_rows *dist = &rows->tables[NPRB_TABLE_DISTANCES];
    if (nodes->count == 0)
        return;
    fprintf(out, "  NUMA topology (as numactl --hardware; free: when the run started)\n");
    fprintf(out, "  available: %zu nodes (", nodes->count);
    print_node_ranges(out, nodes);
    fprintf(out, ")\n");
    for (size_t i = 0; i < nodes->count; i++) {
        const struct nprb_numa_node_row *n = nprb_row_at(nodes, i);
        fprintf(out, "  node %d cpus:", n->node);
        print_cpus_spelled_out(out, n->cpu_list);
        /* MB as numactl means it: MiB, rounded down. */
        fprintf(out, "\n  node %d size: %llu MB\n", n->node,
                (unsigned long long)(n->memory_bytes >> 20));
        if (n->free_bytes > 0)
            fprintf(out, "  node %d free: %llu MB\n", n->node,
                    (unsigned long long)(n->free_bytes >> 20));
        else
            fprintf(out, "  node %d free: unknown\n", n->node);
        if (n->package >= 0)
            fprintf(out, "  node %d package: %d\n", n->node, n->package);
        else
            fprintf(out, "  node %d package: none\n", n->node);
    }
    if (dist->count == 0)
        return;
    fprintf(out, "  node distances:\n  node ");
    for (size_t j = 0; j < nodes->count; j++)
        fprintf(out, " %3d", ((const struct nprb_numa_node_row *)nprb_row_at(nodes, j))->node);
    fputc('\n', out);
    for (size_t i = 0; i < nodes->count; i++) {
        int from = ((const struct nprb_numa_node_row *)nprb_row_at(nodes, i))->node;
        fprintf(out, "  %3d:", from);
        for (size_t j = 0; j < nodes->count; j++) {
            int to = ((const struct nprb_numa_node_row *)nprb_row_at(nodes, j))->node;
            int slit = slit_between(dist, from, to);
            if (slit > 0)
                fprintf(out, " %3d", slit);
            else
                fprintf(out, " %3s", "-"); /* the firmware gave no SLIT */
        }
        fputc('\n', out);
    }
}

/* ---- the class table ------------------------------------------------------------------- */

/* The classes of one node pair, local first (the others' ratios are to it). */
static const enum nprb_pair_class classes[] = {NPRB_PAIR_LOCAL, NPRB_PAIR_SAME_PACKAGE,
                                               NPRB_PAIR_CROSS_PACKAGE, NPRB_PAIR_MEMORY_ONLY};
enum { CLASSES = sizeof classes / sizeof classes[0], METRICS = 3 };
enum metric { LATENCY, READ, TRIAD };

/* The figures of one class: every ok cell's value per metric, cells per metric (ok or not, to
 * count the pairs) and the SLIT range. */
struct class_figures {
    double *values[METRICS];
    size_t n_values[METRICS];
    size_t n_cells[METRICS];
    int slit_min, slit_max;
};

static int class_index(enum nprb_pair_class pair_class)
{
    for (int c = 0; c < CLASSES; c++)
        if (pair_class == classes[c])
            return c;
    return -1;
}

static void add_cell(struct class_figures *f, enum metric m, int slit, const char *status,
                     double value)
{
    f->n_cells[m]++;
    if (slit > 0) {
        f->slit_min = f->slit_min == 0 || slit < f->slit_min ? slit : f->slit_min;
        f->slit_max = slit > f->slit_max ? slit : f->slit_max;
    }
    if (strcmp(status, NPRB_ROW_OK) == 0 && isfinite(value))
        f->values[m][f->n_values[m]++] = value;
}

/* A row's status says it was measured or tried (not "not applicable"). */
static bool tried(const char *status)
{
    return strcmp(status, NPRB_ROW_NOT_APPLICABLE) != 0;
}

static void collect(struct class_figures *fig, const struct nprb_results *rows)
{
    const struct nprb_rows *lat = &rows->tables[NPRB_TABLE_LATENCY];
    const struct nprb_rows *bw = &rows->tables[NPRB_TABLE_BANDWIDTH];
    for (size_t i = 0; i < lat->count; i++) {
        const struct nprb_latency_row *l = nprb_row_at(lat, i);
        int c = class_index(l->pair_class_id);
        if (c >= 0 && nprb_latency_matrix_cell(l) && tried(l->status))
            add_cell(&fig[c], LATENCY, l->slit, l->status, l->latency_ns_median);
    }
    for (size_t i = 0; i < bw->count; i++) {
        const struct nprb_bandwidth_row *b = nprb_row_at(bw, i);
        int c = class_index(b->pair_class_id);
        bool read = b->kernel_id == NPRB_KERNEL_READ, triad = b->kernel_id == NPRB_KERNEL_TRIAD;
        if (c >= 0 && (read || triad) && nprb_bandwidth_matrix_cell(b) && tried(b->status))
            add_cell(&fig[c], read ? READ : TRIAD, b->slit, b->status, b->gbs_best);
    }
}

static void print_figure(FILE *out, double value, double local, int decimals)
{
    if (isnan(value))
        fprintf(out, " %10s %6s", "-", "");
    else if (isnan(local) || local <= 0)
        fprintf(out, " %10.*f %6s", decimals, value, "-");
    else
        fprintf(out, " %10.*f %6.2f", decimals, value, value / local);
}

void nprb_report_classes(FILE *out, const struct nprb_results *rows)
{
    size_t most = rows->tables[NPRB_TABLE_LATENCY].count + rows->tables[NPRB_TABLE_BANDWIDTH].count;
    struct class_figures fig[CLASSES];
    memset(fig, 0, sizeof fig);
    bool ok = true;
    for (int c = 0; c < CLASSES; c++)
        for (int m = 0; m < METRICS; m++)
            ok &= (fig[c].values[m] = malloc((most + 1) * sizeof(double))) != NULL;
    if (ok)
        collect(fig, rows);
    double med[CLASSES][METRICS] = {{0}};
    size_t pairs[CLASSES] = {0}, total = 0;
    for (int c = 0; ok && c < CLASSES; c++) {
        for (int m = 0; m < METRICS; m++) {
            med[c][m] = nprb_median(fig[c].values[m], fig[c].n_values[m]);
            /* One cell per pair and metric: the pairs are the most cells any metric has. */
            pairs[c] = fig[c].n_cells[m] > pairs[c] ? fig[c].n_cells[m] : pairs[c];
        }
        total += pairs[c];
    }
    if (ok && total > 0) {
        fprintf(out,
                "  by pair class: median over pairs (cells bound to one node, valid ones), ratio "
                "to local\n  %-14s %5s %7s %10s %6s %10s %6s %10s %6s\n",
                "class", "pairs", "SLIT", "lat ns", "ratio", "read GB/s", "ratio", "triad GB/s",
                "ratio");
        for (int c = 0; c < CLASSES; c++) {
            if (pairs[c] == 0)
                continue;
            char slit[16] = "-";
            if (fig[c].slit_min > 0 && fig[c].slit_min == fig[c].slit_max)
                snprintf(slit, sizeof slit, "%d", fig[c].slit_min);
            else if (fig[c].slit_min > 0)
                snprintf(slit, sizeof slit, "%d-%d", fig[c].slit_min, fig[c].slit_max);
            fprintf(out, "  %-14s %5zu %7s", nprb_pair_class_name(classes[c]), pairs[c], slit);
            print_figure(out, med[c][LATENCY], med[0][LATENCY], 1);
            print_figure(out, med[c][READ], med[0][READ], 1);
            print_figure(out, med[c][TRIAD], med[0][TRIAD], 1);
            fputc('\n', out);
        }
    }
    for (int c = 0; c < CLASSES; c++)
        for (int m = 0; m < METRICS; m++)
            free(fig[c].values[m]);
}
