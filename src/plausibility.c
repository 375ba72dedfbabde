#include "plausibility.h"

#include <math.h>
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

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

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
    qsort(values, (size_t)n, sizeof values[0], by_value);
    double median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    for (int i = 0; i < n && median > 0; i++)
        if (cells[i].value > median * NPRB_ROW_OUTLIER_FACTOR ||
            cells[i].value < median / NPRB_ROW_OUTLIER_FACTOR)
            add_flag(cells[i].flags, NPRB_FLAGS_LEN, "row_outlier");
}

static bool is_matrix_cell(const char *experiment, const char *policy, const char *status)
{
    return strstr(experiment, "_matrix") != NULL && strcmp(policy, "bind") == 0 && is_ok(status);
}

static void flag_latency(struct nprb_rows *rows)
{
    static struct cell cells[MAX_ROW_CELLS];
    for (size_t i = 0; i < rows->count; i++) {
        struct nprb_latency_row *r = (void *)(rows->data + i * rows->row_bytes);
        if (is_ok(r->status) && r->latency_ns_p99 > NPRB_UNSTABLE_P99_RATIO * r->latency_ns_median)
            add_flag(r->flags, sizeof r->flags, "unstable");
    }
    /* Rows of the matrix: one per (rank, CPU node, pattern). */
    for (size_t i = 0; i < rows->count; i++) {
        struct nprb_latency_row *first = (void *)(rows->data + i * rows->row_bytes);
        if (!is_matrix_cell(first->experiment, first->mem_policy, first->status) ||
            strcmp(first->pair_class, "local") != 0)
            continue;
        int n = 0;
        for (size_t j = 0; j < rows->count && n < MAX_ROW_CELLS; j++) {
            struct nprb_latency_row *r = (void *)(rows->data + j * rows->row_bytes);
            if (is_matrix_cell(r->experiment, r->mem_policy, r->status) && r->rank == first->rank &&
                r->cpu_node == first->cpu_node && strcmp(r->experiment, first->experiment) == 0 &&
                strcmp(r->pattern, first->pattern) == 0)
                cells[n++] = (struct cell){r->latency_ns_median, r == first,
                                           strcmp(r->pair_class, "memory_only") == 0, r->flags};
        }
        judge_row(cells, n, true);
    }
}

static void flag_bandwidth(struct nprb_rows *rows)
{
    static struct cell cells[MAX_ROW_CELLS];
    for (size_t i = 0; i < rows->count; i++) {
        struct nprb_bandwidth_row *r = (void *)(rows->data + i * rows->row_bytes);
        if (is_ok(r->status) && r->gbs_best > NPRB_UNSTABLE_BEST_RATIO * r->gbs_median)
            add_flag(r->flags, sizeof r->flags, "unstable");
    }
    for (size_t i = 0; i < rows->count; i++) {
        struct nprb_bandwidth_row *first = (void *)(rows->data + i * rows->row_bytes);
        if (!is_matrix_cell(first->experiment, first->mem_policy, first->status) ||
            strcmp(first->pair_class, "local") != 0)
            continue;
        int n = 0;
        for (size_t j = 0; j < rows->count && n < MAX_ROW_CELLS; j++) {
            struct nprb_bandwidth_row *r = (void *)(rows->data + j * rows->row_bytes);
            if (is_matrix_cell(r->experiment, r->mem_policy, r->status) && r->rank == first->rank &&
                r->cpu_node == first->cpu_node && strcmp(r->experiment, first->experiment) == 0 &&
                strcmp(r->kernel, first->kernel) == 0)
                cells[n++] = (struct cell){r->gbs_best, r == first,
                                           strcmp(r->pair_class, "memory_only") == 0, r->flags};
        }
        judge_row(cells, n, false);
    }
}

static void flag_loaded(struct nprb_rows *rows)
{
    for (size_t i = 0; i < rows->count; i++) {
        struct nprb_loaded_row *r = (void *)(rows->data + i * rows->row_bytes);
        if (is_ok(r->status) && r->latency_ns_p99 > NPRB_UNSTABLE_P99_RATIO * r->latency_ns_median)
            add_flag(r->flags, sizeof r->flags, "unstable");
    }
}

void nprb_flag_implausible(struct nprb_results *results)
{
    flag_latency(&results->tables[NPRB_TABLE_LATENCY]);
    flag_bandwidth(&results->tables[NPRB_TABLE_BANDWIDTH]);
    flag_loaded(&results->tables[NPRB_TABLE_LOADED_LATENCY]);
}
