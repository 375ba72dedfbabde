/* SPDX-License-Identifier: BSD-3-Clause */
/* Plausibility flags: the issue's own examples (a remote cell at 0.25x local, a cell at 18x its
 * row's median, p99 at 2.7x the median) are flagged, plausible figures are not, memory-only
 * nodes are never "faster than local", and no flag changes a figure or a status. */
#include "check.h"
#include "results/plausibility.h"

#include <string.h>

static struct nprb_latency_row lat(int cpu, int mem, enum nprb_pair_class cls, double median,
                                   double p99)
{
    struct nprb_latency_row r = {.rank = 0, .cpu_node = cpu, .mem_node = mem, .slit = 10};
    NPRB_SET_EXPERIMENT(&r, NPRB_EXPERIMENT_LATENCY_MATRIX);
    NPRB_SET_MEM_POLICY(&r, NPRB_MEM_BIND);
    NPRB_SET_PAIR_CLASS(&r, cls);
    strcpy(r.pattern, "random");
    strcpy(r.status, NPRB_ROW_OK);
    r.latency_ns_median = median;
    r.latency_ns_p99 = p99;
    return r;
}

static struct nprb_bandwidth_row bw(int cpu, int mem, enum nprb_pair_class cls, double best,
                                    double median)
{
    struct nprb_bandwidth_row r = {.rank = 0, .cpu_node = cpu, .mem_node = mem};
    NPRB_SET_EXPERIMENT(&r, NPRB_EXPERIMENT_BANDWIDTH_MATRIX);
    NPRB_SET_MEM_POLICY(&r, NPRB_MEM_BIND);
    NPRB_SET_PAIR_CLASS(&r, cls);
    nprb_row_set_kernel(&r, NPRB_KERNEL_READ);
    strcpy(r.status, NPRB_ROW_OK);
    r.gbs_best = best;
    r.gbs_median = median;
    return r;
}

static const char *flags_of(struct nprb_results *r, enum nprb_table_id t, size_t i)
{
    struct nprb_rows *rows = &r->tables[t];
    const unsigned char *row = rows->data + i * rows->row_bytes;
    if (t == NPRB_TABLE_LATENCY)
        return ((const struct nprb_latency_row *)row)->flags;
    return ((const struct nprb_bandwidth_row *)row)->flags;
}

int main(void)
{
    struct nprb_results r;
    nprb_results_init(&r);
    /* Row of node 0: local 100 ns, same package 120, cross package 25 (0.25x local), memory-only
     * 60 (faster, but such memory may be), one at 1800 (18x the row's median). */
    struct nprb_latency_row l[] = {
        lat(0, 0, NPRB_PAIR_LOCAL, 100, 120), lat(0, 1, NPRB_PAIR_SAME_PACKAGE, 120, 130),
        lat(0, 2, NPRB_PAIR_CROSS_PACKAGE, 25, 30), lat(0, 3, NPRB_PAIR_MEMORY_ONLY, 60, 70),
        lat(0, 4, NPRB_PAIR_CROSS_PACKAGE, 1800, 1900),
        /* Row of node 1: plausible, except a p99 at 2.7x its median. */
        lat(1, 1, NPRB_PAIR_LOCAL, 100, 270), lat(1, 0, NPRB_PAIR_SAME_PACKAGE, 130, 140)};
    for (size_t i = 0; i < sizeof l / sizeof l[0]; i++)
        CHECK(nprb_results_add(&r, NPRB_TABLE_LATENCY, &l[i]) == 0);
    struct nprb_bandwidth_row b[] = {bw(0, 0, NPRB_PAIR_LOCAL, 50, 48),
                                     bw(0, 1, NPRB_PAIR_SAME_PACKAGE, 70, 69),
                                     bw(0, 2, NPRB_PAIR_CROSS_PACKAGE, 30, 10)};
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++)
        CHECK(nprb_results_add(&r, NPRB_TABLE_BANDWIDTH, &b[i]) == 0);

    nprb_flag_implausible(&r);

    CHECK(strcmp(flags_of(&r, NPRB_TABLE_LATENCY, 0), "") == 0);
    CHECK(strcmp(flags_of(&r, NPRB_TABLE_LATENCY, 1), "") == 0);
    CHECK(strcmp(flags_of(&r, NPRB_TABLE_LATENCY, 2), "remote_faster_than_local") == 0);
    CHECK(strcmp(flags_of(&r, NPRB_TABLE_LATENCY, 3), "") == 0);
    CHECK(strcmp(flags_of(&r, NPRB_TABLE_LATENCY, 4), "row_outlier") == 0);
    CHECK(strcmp(flags_of(&r, NPRB_TABLE_LATENCY, 5), "unstable") == 0);
    CHECK(strcmp(flags_of(&r, NPRB_TABLE_LATENCY, 6), "") == 0);
    CHECK(strcmp(flags_of(&r, NPRB_TABLE_BANDWIDTH, 0), "") == 0);
    CHECK(strcmp(flags_of(&r, NPRB_TABLE_BANDWIDTH, 1), "remote_faster_than_local") == 0);
    CHECK(strcmp(flags_of(&r, NPRB_TABLE_BANDWIDTH, 2), "unstable") == 0);

    /* Flags never change a figure or a status. */
    const struct nprb_latency_row *after = (const void *)r.tables[NPRB_TABLE_LATENCY].data;
    CHECK(after[2].latency_ns_median == 25 && strcmp(after[2].status, NPRB_ROW_OK) == 0);
    CHECK(after[4].latency_ns_median == 1800 && strcmp(after[4].status, NPRB_ROW_OK) == 0);

    /* Run twice: a flag is never written twice. */
    nprb_flag_implausible(&r);
    CHECK(strcmp(flags_of(&r, NPRB_TABLE_LATENCY, 2), "remote_faster_than_local") == 0);
    nprb_results_free(&r);
    return CHECK_DONE();
}
