/* SPDX-License-Identifier: BSD-3-Clause */
/* The topology block and the class table of the stdout report, on the rows of a synthetic host:
 * 2 packages of 2 nodes (2 CPUs each), SLIT 10 local, 12 within a package, 32 across. */
#include "check.h"
#include "report/report_topology.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NODES = 4 };

static int slit_of(int i, int j)
{
    return i == j ? 10 : i / 2 == j / 2 ? 12 : 32;
}

static enum nprb_pair_class class_of(int i, int j)
{
    return i == j           ? NPRB_PAIR_LOCAL
           : i / 2 == j / 2 ? NPRB_PAIR_SAME_PACKAGE
                            : NPRB_PAIR_CROSS_PACKAGE;
}

/* Latency 100 local, 120 same package, 200 cross; read 40/30/20 GB/s, triad half of read. */
static double latency_of(int i, int j)
{
    return i == j ? 100 : i / 2 == j / 2 ? 120 : 200;
}

static void host_rows(struct nprb_results *r)
{
    nprb_results_init(r);
    for (int i = 0; i < NODES; i++) {
        struct nprb_numa_node_row n = {.node = i,
                                       .memory_bytes = (uint64_t)(256 + i) << 20,
                                       .free_bytes = (uint64_t)(200 + i) << 20,
                                       .cpus = 2,
                                       .package = i / 2};
        snprintf(n.cpu_list, sizeof n.cpu_list, "%d-%d", 2 * i, 2 * i + 1);
        nprb_results_add(r, NPRB_TABLE_NUMA_NODES, &n);
        for (int j = 0; j < NODES; j++) {
            struct nprb_distance_row d = {.from_node = i, .to_node = j, .slit = slit_of(i, j)};
            nprb_results_add(r, NPRB_TABLE_DISTANCES, &d);
            struct nprb_latency_row l = {.cpu_node = i,
                                         .mem_node = j,
                                         .slit = slit_of(i, j),
                                         .latency_ns_median = latency_of(i, j)};
            NPRB_SET_EXPERIMENT(&l, NPRB_EXPERIMENT_LATENCY_MATRIX);
            NPRB_SET_MEM_POLICY(&l, NPRB_MEM_BIND);
            NPRB_SET_PAIR_CLASS(&l, class_of(i, j));
            NPRB_SET_TEXT(l.status, "ok");
            /* Invalid cells count as pairs but their figures must not move the median. */
            if ((i == 0 && j == 1) || (i == 1 && j == 0)) {
                l.latency_ns_median = 5000;
                NPRB_SET_TEXT(l.status, "invalid");
            }
            nprb_results_add(r, NPRB_TABLE_LATENCY, &l);
            for (int k = 0; k < 2; k++) {
                struct nprb_bandwidth_row b = {.cpu_node = i, .mem_node = j, .slit = slit_of(i, j)};
                NPRB_SET_EXPERIMENT(&b, NPRB_EXPERIMENT_BANDWIDTH_MATRIX);
                NPRB_SET_MEM_POLICY(&b, NPRB_MEM_BIND);
                NPRB_SET_PAIR_CLASS(&b, class_of(i, j));
                nprb_row_set_kernel(&b, k ? NPRB_KERNEL_TRIAD : NPRB_KERNEL_READ);
                NPRB_SET_TEXT(b.status, "ok");
                b.gbs_best = (i == j ? 40 : i / 2 == j / 2 ? 30 : 20) / (k ? 2.0 : 1.0);
                nprb_results_add(r, NPRB_TABLE_BANDWIDTH, &b);
            }
        }
        /* Interleave and sweeps are not pairs: they must stay out of the table. */
        struct nprb_latency_row spread = {.cpu_node = i, .mem_node = -1, .latency_ns_median = 1};
        NPRB_SET_EXPERIMENT(&spread, NPRB_EXPERIMENT_LATENCY_MATRIX);
        NPRB_SET_MEM_POLICY(&spread, NPRB_MEM_INTERLEAVE);
        NPRB_SET_PAIR_CLASS(&spread, NPRB_PAIR_NONE);
        NPRB_SET_TEXT(spread.status, "ok");
        nprb_results_add(r, NPRB_TABLE_LATENCY, &spread);
        struct nprb_latency_row sweep = {.cpu_node = i, .mem_node = i, .latency_ns_median = 1};
        NPRB_SET_EXPERIMENT(&sweep, NPRB_EXPERIMENT_LATENCY_SWEEP);
        NPRB_SET_MEM_POLICY(&sweep, NPRB_MEM_BIND);
        NPRB_SET_PAIR_CLASS(&sweep, NPRB_PAIR_LOCAL);
        NPRB_SET_TEXT(sweep.status, "ok");
        nprb_results_add(r, NPRB_TABLE_LATENCY, &sweep);
    }
}

typedef void (*report_fn)(FILE *, const struct nprb_results *);

static char *printed(report_fn fn, const struct nprb_results *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (out == NULL)
        exit(1);
    fn(out, r);
    fclose(out);
    return text;
}

/* The line of the table that starts with @p name (after the indent), whitespace collapsed. */
static void class_line(const char *text, const char *name, char *line, size_t len)
{
    line[0] = '\0';
    char want[64];
    snprintf(want, sizeof want, "\n  %s ", name);
    const char *at = strstr(text, want);
    if (at == NULL)
        return;
    at += 3;
    size_t n = 0;
    bool space = false;
    for (; *at != '\0' && *at != '\n' && n + 1 < len; at++) {
        if (*at == ' ') {
            space = true;
            continue;
        }
        if (space && n > 0)
            line[n++] = ' ';
        space = false;
        line[n++] = *at;
    }
    line[n] = '\0';
}

static void topology_block(const struct nprb_results *r)
{
    char *text = printed(nprb_report_topology, r);
    CHECK_STR_CONTAINS(text, "  available: 4 nodes (0-3)\n");
    CHECK_STR_CONTAINS(text, "  node 0 cpus: 0 1\n  node 0 size: 256 MB\n  node 0 free: 200 MB\n"
                             "  node 0 package: 0\n");
    CHECK_STR_CONTAINS(text, "  node 3 cpus: 6 7\n  node 3 size: 259 MB\n  node 3 free: 203 MB\n"
                             "  node 3 package: 1\n");
    CHECK_STR_CONTAINS(text, "  node distances:\n  node    0   1   2   3\n"
                             "    0:  10  12  32  32\n    1:  12  10  32  32\n");
    CHECK_STR_CONTAINS(text, "    3:  32  32  12  10\n");
    free(text);
}

static void class_table(const struct nprb_results *r)
{
    char *text = printed(nprb_report_classes, r);
    char line[256];
    class_line(text, "local", line, sizeof line);
    CHECK_STR_CONTAINS(line, "local 4 10 100.0 1.00 40.0 1.00 20.0 1.00");
    class_line(text, "same_package", line, sizeof line);
    /* 4 pairs, two of them invalid: the median is over the 2 valid ones (both 120). */
    CHECK_STR_CONTAINS(line, "same_package 4 12 120.0 1.20 30.0 0.75 15.0 0.75");
    class_line(text, "cross_package", line, sizeof line);
    CHECK_STR_CONTAINS(line, "cross_package 8 32 200.0 2.00 20.0 0.50 10.0 0.50");
    CHECK(strstr(text, "memory_only") == NULL);
    free(text);
}

/* A class whose pairs have different SLITs shows the range. */
static void slit_range(struct nprb_results *r)
{
    struct nprb_latency_row *l = (struct nprb_latency_row *)r->tables[NPRB_TABLE_LATENCY].data;
    for (size_t i = 0; i < r->tables[NPRB_TABLE_LATENCY].count; i++)
        if (l[i].pair_class_id == NPRB_PAIR_CROSS_PACKAGE && l[i].cpu_node == 1)
            l[i].slit = 40;
    char *text = printed(nprb_report_classes, r);
    char line[256];
    class_line(text, "cross_package", line, sizeof line);
    CHECK_STR_CONTAINS(line, "cross_package 8 32-40 ");
    free(text);
}

int main(void)
{
    struct nprb_results r;
    host_rows(&r);
    topology_block(&r);
    class_table(&r);
    slit_range(&r);
    nprb_results_free(&r);
    struct nprb_results empty;
    nprb_results_init(&empty);
    char *none = printed(nprb_report_classes, &empty);
    CHECK(none[0] == '\0');
    free(none);
    none = printed(nprb_report_topology, &empty);
    CHECK(none[0] == '\0');
    free(none);
    nprb_results_free(&empty);
    return CHECK_DONE();
}
