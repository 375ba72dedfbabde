/* SPDX-License-Identifier: BSD-3-Clause */
#include "results/plausibility.h"

#include "util/timer.h"

#include <math.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROW_CELLS 1024

static void add_flag(char *flags, size_t len, const char *flag)
{
    size_t used = strlen(flags);
    if (strstr(flags, flag) != NULL || used + strlen(flag) + 2 > len)
        return;
    snprintf(flags + used, len - used, "%s%s", used > 0 ? "," : "", flag);
}

static bool is_ok(const char *status)
{
    return strcmp(status, NPRB_ROW_OK) == 0;
}

/* One bound cell of a matrix row, seen through what the rules need. */
struct cell {
    double value; /* latency ns (median), or GB/s (best) */
    bool local, memonly;
    char *flags;
};

/* The rules of one matrix row: @p lower_is_better for latency. */
static void judge_row(struct cell *cells, int n, bool lower_is_better)
{
    double local = NAN, values[MAX_ROW_CELLS];
    for (int i = 0; i < n; i++) {
        values[i] = cells[i].value;
        if (cells[i].local)
            local = cells[i].value;
    }
    for (int i = 0; i < n && !isnan(local); i++) {
        if (cells[i].local || cells[i].memonly)
            continue;
        bool faster = lower_is_better ? cells[i].value < local * (1 - NPRB_REMOTE_FASTER_MARGIN)
                                      : cells[i].value > local * (1 + NPRB_REMOTE_FASTER_MARGIN);
        if (faster)
            add_flag(cells[i].flags, NPRB_FLAGS_LEN, "remote_faster_than_local");
    }
    if (n < 3)
        return;
    double median = nprb_median(values, (size_t)n);
    for (int i = 0; i < n && median > 0; i++)
        if (cells[i].value > median * NPRB_ROW_OUTLIER_FACTOR ||
            cells[i].value < median / NPRB_ROW_OUTLIER_FACTOR)
            add_flag(cells[i].flags, NPRB_FLAGS_LEN, "row_outlier");
}

/* What the rules read of a row, whatever its table. */
struct view {
    enum nprb_experiment_id experiment;
    enum nprb_mem_policy policy;
    const char *status;
    enum nprb_pair_class pair_class;
    const char *series; /* cells of one matrix row share it: the pattern, or the kernel */
    int rank, cpu_node;
    double value;  /* latency ns (median), or GB/s (best) */
    bool unstable; /* p99 far above the median, or best far above the median */
    char *flags;
};

static struct view latency_view(unsigned char *row)
{
    struct nprb_latency_row *r = (struct nprb_latency_row *)row;
    return (struct view){r->experiment_id,
                         r->mem_policy_id,
                         r->status,
                         r->pair_class_id,
                         r->pattern,
                         r->rank,
                         r->cpu_node,
                         r->latency_ns_median,
                         r->latency_ns_p99 > NPRB_UNSTABLE_P99_RATIO * r->latency_ns_median,
                         r->flags};
}

static struct view bandwidth_view(unsigned char *row)
{
    struct nprb_bandwidth_row *r = (struct nprb_bandwidth_row *)row;
    return (struct view){
        r->experiment_id, r->mem_policy_id, r->status,
        r->pair_class_id, r->kernel,        r->rank,
        r->cpu_node,      r->gbs_best,      r->gbs_best > NPRB_UNSTABLE_BEST_RATIO * r->gbs_median,
        r->flags};
}

static struct view loaded_view(unsigned char *row)
{
    struct nprb_loaded_row *r = (struct nprb_loaded_row *)row;
    return (struct view){r->experiment_id,
                         r->mem_policy_id,
                         r->status,
                         r->pair_class_id,
                         r->load_kernel,
                         r->rank,
                         r->cpu_node,
                         r->latency_ns_median,
                         r->latency_ns_p99 > NPRB_UNSTABLE_P99_RATIO * r->latency_ns_median,
                         r->flags};
}

static bool is_matrix_cell(const struct view *v)
{
    bool matrix = v->experiment == NPRB_EXPERIMENT_LATENCY_MATRIX ||
                  v->experiment == NPRB_EXPERIMENT_BANDWIDTH_MATRIX;
    return matrix && v->policy == NPRB_MEM_BIND && is_ok(v->status);
}

/* Every ok row's own rule, then the rules of each matrix row (rank, CPU node, series). */
static void flag_table(struct nprb_rows *rows, struct view (*view_of)(unsigned char *),
                       bool lower_is_better)
{
    static struct cell cells[MAX_ROW_CELLS];
    for (size_t i = 0; i < rows->count; i++) {
        struct view v = view_of(nprb_row_mut(rows, i));
        if (is_ok(v.status) && v.unstable)
            add_flag(v.flags, NPRB_FLAGS_LEN, "unstable");
    }
    for (size_t i = 0; i < rows->count; i++) {
        struct view local = view_of(nprb_row_mut(rows, i));
        if (!is_matrix_cell(&local) || local.pair_class != NPRB_PAIR_LOCAL)
            continue;
        int n = 0;
        for (size_t j = 0; j < rows->count && n < MAX_ROW_CELLS; j++) {
            struct view v = view_of(nprb_row_mut(rows, j));
            if (is_matrix_cell(&v) && v.rank == local.rank && v.cpu_node == local.cpu_node &&
                v.experiment == local.experiment && strcmp(v.series, local.series) == 0)
                cells[n++] =
                    (struct cell){v.value, j == i, v.pair_class == NPRB_PAIR_MEMORY_ONLY, v.flags};
        }
        judge_row(cells, n, lower_is_better);
    }
}

#define MEASUREMENT_HEAD(type)                                                                     \
    _Static_assert(offsetof(type, rank) == 0 && offsetof(type, measurement) == sizeof(int32_t),    \
                   #type " must start with rank and measurement")
MEASUREMENT_HEAD(struct nprb_latency_row);
MEASUREMENT_HEAD(struct nprb_bandwidth_row);
MEASUREMENT_HEAD(struct nprb_loaded_row);

/* The flags column of the row of @p rank's measurement @p measurement, or NULL. */
static char *flags_of(struct nprb_results *results, int32_t rank, int32_t measurement)
{
    static const struct {
        enum nprb_table_id table;
        struct view (*view_of)(unsigned char *);
    } measured[] = {{NPRB_TABLE_LATENCY, latency_view},
                    {NPRB_TABLE_BANDWIDTH, bandwidth_view},
                    {NPRB_TABLE_LOADED_LATENCY, loaded_view}};
    for (size_t t = 0; t < sizeof measured / sizeof measured[0]; t++) {
        struct nprb_rows *rows = &results->tables[measured[t].table];
        for (size_t i = 0; i < rows->count; i++) {
            /* Every measurement row starts with rank and measurement (results.h). */
            const int32_t *head = nprb_row_at(rows, i);
            if (head[0] == rank && head[1] == measurement)
                return measured[t].view_of(nprb_row_mut(rows, i)).flags;
        }
    }
    return NULL;
}

/* What the measured threads' software counters say of their samples: a pinned thread that
 * moved, or a lone thread that was switched out (a chase never sleeps; a team's barrier may,
 * so a team's switches are not flagged). */
static void flag_counters(struct nprb_results *results)
{
    const struct nprb_rows *rows = &results->tables[NPRB_TABLE_COUNTERS];
    for (size_t i = 0; i < rows->count; i++) {
        const struct nprb_counter_row *c = nprb_row_at(rows, i);
        if (!is_ok(c->status) || c->value == 0 || c->measurement < 0)
            continue;
        const char *flag = strcmp(c->event, "cpu_migrations") == 0 ? "migrated"
                           : strcmp(c->event, "context_switches") == 0 && c->threads == 1
                               ? "preempted"
                               : NULL;
        char *flags = flag != NULL ? flags_of(results, c->rank, c->measurement) : NULL;
        if (flags != NULL)
            add_flag(flags, NPRB_FLAGS_LEN, flag);
    }
}

void nprb_flag_implausible(struct nprb_results *results)
{
    flag_counters(results);
    flag_table(&results->tables[NPRB_TABLE_LATENCY], latency_view, true);
    flag_table(&results->tables[NPRB_TABLE_BANDWIDTH], bandwidth_view, false);
    flag_table(&results->tables[NPRB_TABLE_LOADED_LATENCY], loaded_view, true);
}
