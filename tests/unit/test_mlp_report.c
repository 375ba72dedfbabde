/* SPDX-License-Identifier: BSD-3-Clause */
/* The mlp section of the stdout report under a rank per NUMA node: each rank chases only from
 * its own node, so the host's section must show every rank's pairs, not only rank 0's. Rank 0's
 * collector hands the registry one rank's rows at a time (nprb_experiments_report), as here:
 * two ranks of one host, each with its node's pairs, then a rank of a second host, whose pairs
 * stay in the file only. */
#include "check.h"
#include "experiments/registry.h"
#include "results/results.h"
#include "results/row_ids.h"

#include <stdint.h>
#include <stdlib.h>

/* One rank's rows: its /hosts row and its node's mlp pairs to @p nodes memory nodes. */
static void rank_rows(struct nprb_results *r, int rank, int host_index, const char *host, int node,
                      int nodes)
{
    nprb_results_init(r);
    struct nprb_host_row h = {.rank = rank, .host_index = host_index, .ranks_on_host = 2};
    NPRB_SET_TEXT(h.hostname, host);
    NPRB_SET_TEXT(h.status, "ok");
    CHECK(nprb_results_add(r, NPRB_TABLE_HOSTS, &h) == 0);
    for (int mem = 0; mem < nodes; mem++)
        for (int chains = 1; chains <= 2; chains++) {
            struct nprb_latency_row l = {.rank = rank,
                                         .cpu_node = node,
                                         .mem_node = mem,
                                         .chains = chains,
                                         .latency_ns_min = 90.0 / chains,
                                         .latency_ns_median = 100.0 / chains,
                                         .latency_ns_p90 = 101.0 / chains,
                                         .uncertainty_pct = 1};
            NPRB_SET_TEXT(l.hostname, host);
            NPRB_SET_EXPERIMENT(&l, NPRB_EXPERIMENT_MLP);
            NPRB_SET_MEM_POLICY(&l, NPRB_MEM_BIND);
            NPRB_SET_TEXT(l.status, NPRB_ROW_OK);
            CHECK(nprb_results_add(r, NPRB_TABLE_LATENCY, &l) == 0);
        }
}

int main(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (out == NULL)
        return 1;
    uint64_t shown = 0;
    struct nprb_results ranks[3];
    rank_rows(&ranks[0], 0, 0, "node-a", 0, 2);
    rank_rows(&ranks[1], 1, 0, "node-a", 1, 2);
    rank_rows(&ranks[2], 2, 1, "node-b", 0, 2);
    for (int i = 0; i < 3; i++)
        nprb_experiments_report(out, &ranks[i], &shown);
    fclose(out);
    fputs(text, stdout);
    /* Both ranks' pairs of the first host, each named once in the chains grid. */
    CHECK_STR_CONTAINS(text, "mlp on node-a");
    CHECK_STR_CONTAINS(text, "n0>m0 ns/load");
    CHECK_STR_CONTAINS(text, "n0>m1 ns/load");
    CHECK_STR_CONTAINS(text, "n1>m0 ns/load");
    CHECK_STR_CONTAINS(text, "n1>m1 ns/load");
    CHECK_STR_CONTAINS(text, "n1>m1: the gain stops at");
    /* The second host is not shown: the section is one host's, as before. */
    CHECK(strstr(text, "node-b") == NULL);
    for (int i = 0; i < 3; i++)
        nprb_results_free(&ranks[i]);
    free(text);
    return CHECK_DONE();
}
