/* SPDX-License-Identifier: BSD-3-Clause */
/* Sweep plans on a two-socket shape (tests/topologies/intel-2s.xml): latency_sweep.pairs adds
 * the remote curves, latency_sweep.from: every the other node's cores, bandwidth_sweep.strides one
 * read_strided curve per stride, and the dry-run summary names both memory nodes. */
#include "check.h"
#include "config/config.h"
#include "plan/descriptor.h"
#include "plan/plan.h"
#include "experiments/registry.h"
#include "util/sweep.h"
#include "host/topo.h"

#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Builds the plan of @p sets over the defaults with every other experiment off. */
static int plan_of(struct nprb_plan *plan, const struct nprb_topo *topo, const char *const *sets)
{
    static struct nprb_config cfg;
    char err[512];
    CHECK(nprb_experiments_config_defaults(&cfg, err, sizeof err) == 0);
    for (size_t e = 0; e < nprb_experiment_count; e++) {
        char off[96];
        snprintf(off, sizeof off, "%s.enabled=false", nprb_experiment_name(nprb_experiments[e]));
        CHECK(nprb_config_set(&cfg, off, err, sizeof err) == 0);
    }
    for (; *sets != NULL; sets++)
        if (nprb_config_set(&cfg, *sets, err, sizeof err) != 0) {
            fprintf(stderr, "%s: %s\n", *sets, err);
            return -1;
        }
    int rc = nprb_plan_build(plan, &cfg, topo, &(struct nprb_share){0, NULL}, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "plan: %s\n", err);
    return rc;
}

/* A matrix series (mlp's chain counts, bandwidth_matrix's kernels) runs every point on memory
 * node j before node j + 1, so one mapping per node serves them all: over a pass, each memory
 * node's bytes are new memory once, a triad's three arrays counted whole. */
static void matrix_series(const struct nprb_topo *topo)
{
    struct nprb_plan plan;
    const char *const mlp[] = {"mlp.enabled=true", "mlp.pairs=all",  "mlp.chains=1,2,4",
                               "mlp.passes=1",     "mlp.size=64MiB", NULL};
    CHECK(plan_of(&plan, topo, mlp) == 0);
    int last_node = -1, nodes = 0;
    double faulted = 0;
    bool ordered = true;
    for (size_t i = 0; i < plan.count; i++) {
        const struct nprb_plan_item *item = &plan.items[i];
        if (item->skip_reason[0] != '\0')
            continue;
        ordered &= item->mem_node >= last_node;
        nodes += item->mem_node != last_node;
        last_node = item->mem_node;
        faulted += nprb_plan_cost_at(&plan, i).fault_bytes;
    }
    CHECK(ordered && nodes == 2 && plan.count == 3 * 2 * 2);
    CHECK(faulted == 2.0 * (64.0 * 1048576));
    /* One build of the chains serves every count: each memory node's links are written once. */
    double linked = 0;
    for (size_t i = 0; i < plan.count; i++)
        linked += plan.items[i].skip_reason[0] ? 0 : nprb_plan_cost_at(&plan, i).setup_bytes;
    CHECK(linked == 2.0 * (64.0 * 1048576));
    /* A chain is faulted in by its node's cores, faster than by its one thread: loaded_latency's
     * (lone_chain) costs more. */
    struct nprb_plan_item shared = plan.items[plan.count - 1], alone = shared;
    alone.model_fault_threads = 1;
    CHECK(shared.model_fault_threads == nprb_topo_node(topo, shared.cpu_node)->usable_cores &&
          shared.model_fault_threads >= 2);
    CHECK(nprb_plan_item_cost(&alone).scaled_s > nprb_plan_item_cost(&shared).scaled_s &&
          nprb_plan_item_cost(&alone).fault_bytes == nprb_plan_item_cost(&shared).fault_bytes);
    nprb_plan_free(&plan);

    /* loaded_latency's load buffers: a slice of whole huge pages per load thread (every core of
     * the node but the chasing one), new memory and written once per memory node, kept for the
     * node's other points like its chain. */
    const char *const loaded[] = {"loaded_latency.enabled=true", "loaded_latency.size=64MiB",
                                  "loaded_latency.load_size=3MiB", "loaded_latency.delays=0,20,200",
                                  NULL};
    CHECK(plan_of(&plan, topo, loaded) == 0);
    double load_faulted = 0, expect = 0, extra_set_up = 0;
    int points = 0;
    for (size_t i = 0; i < plan.count; i++) {
        const struct nprb_plan_item *item = &plan.items[i];
        if (item->skip_reason[0] != '\0')
            continue;
        struct nprb_item_cost c = nprb_plan_cost_at(&plan, i);
        load_faulted += c.fault_bytes;
        extra_set_up += c.setup_bytes - (points % 3 == 0 ? 64.0 * 1048576 : 0);
        if (points++ % 3 == 0)
            expect += 64.0 * 1048576 +
                      4.0 * 1048576 * (nprb_topo_node(topo, item->cpu_node)->usable_cores - 1);
    }
    CHECK(points == 6 && load_faulted == expect && extra_set_up == expect - 2 * 64.0 * 1048576);
    CHECK(plan.items[plan.count - 1].model_fault_threads == 1);
    nprb_plan_free(&plan);

    const char *const bw[] = {"bandwidth_matrix.enabled=true",
                              "bandwidth_matrix.kernels=read,triad", "bandwidth_matrix.passes=1",
                              "bandwidth_matrix.size=64MiB", NULL};
    CHECK(plan_of(&plan, topo, bw) == 0);
    faulted = 0;
    const struct nprb_plan_item *triad = NULL;
    for (size_t i = 0; i < plan.count; i++) {
        if (plan.items[i].policy != NPRB_MEM_BIND) /* interleave: a placement of its own */
            continue;
        faulted += nprb_plan_cost_at(&plan, i).fault_bytes;
        if (plan.items[i].kernel == NPRB_KERNEL_TRIAD)
            triad = &plan.items[i];
    }
    CHECK(triad != NULL && faulted == 2 * 3.0 * (64.0 * 1048576));
    /* A kernel's arrays are set up by its whole team: a team of one takes longer. */
    if (triad != NULL) {
        struct nprb_plan_item one = *triad;
        one.model_threads = 1;
        CHECK(nprb_plan_item_cost(triad).setup_bytes == 3.0 * (64.0 * 1048576));
        CHECK(nprb_plan_item_cost(&one).scaled_s > nprb_plan_item_cost(triad).scaled_s);
    }
    nprb_plan_free(&plan);
}

/* The quick plan (the built-in defaults) of both sweeps on intel-2s.xml with its L3 reported as
 * 1 GiB (a guest's misreport, or a whole socket's cache): bounded in sizes, points and bytes. */
static void huge_l3_bounded(const char *dir)
{
    char path[1024], tmp[] = "/tmp/test_plan_sweeps_XXXXXX", err[256];
    snprintf(path, sizeof path, "%s/intel-2s.xml", dir);
    FILE *in = fopen(path, "r");
    int fd = mkstemp(tmp);
    FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
    CHECK(in != NULL && out != NULL);
    if (in == NULL || out == NULL)
        return;
    char line[4096];
    while (fgets(line, sizeof line, in) != NULL) {
        char *at = strstr(line, "cache_size=\"47185920\"");
        if (at != NULL) { /* the L3 */
            *at = '\0';
            fprintf(out, "%scache_size=\"1073741824\"%s", line,
                    at + strlen("cache_size=\"47185920\""));
        } else {
            fputs(line, out);
        }
    }
    fclose(in);
    fclose(out);
    struct nprb_topo *topo = NULL;
    int rc = nprb_topo_create(&topo, tmp, err, sizeof err);
    unlink(tmp);
    CHECK(rc == 0);
    if (rc != 0)
        return;
    CHECK(nprb_topo_summary(topo)->l3_bytes == (UINT64_C(1) << 30));
    const char *const sweeps[] = {"latency_sweep.enabled=true", "bandwidth_sweep.enabled=true",
                                  NULL};
    struct nprb_plan plan;
    CHECK(plan_of(&plan, topo, sweeps) == 0);
    uint64_t bytes[2] = {0, 0}, largest = 0;
    int points[2] = {0, 0};
    for (size_t i = 0; i < plan.count; i++) {
        const struct nprb_plan_item *it = &plan.items[i];
        int k = strcmp(nprb_experiment_name(it->experiment), "bandwidth_sweep") == 0;
        bytes[k] += it->size_bytes;
        points[k]++;
        largest = it->size_bytes > largest ? it->size_bytes : largest;
    }
    /* At most 1 GiB a point; three patterns and three kernels of about 35 points, summing to
     * under 3 GiB a curve (4x the L3 made it 4 GiB a point and 11 GiB a curve). */
    CHECK(largest <= NPRB_SWEEP_AUTO_CAP);
    CHECK(points[0] <= 3 * 40 && points[1] <= 3 * 40);
    CHECK(bytes[0] <= 3 * (UINT64_C(3) << 30) && bytes[1] <= 3 * (UINT64_C(3) << 30));
    fprintf(stderr,
            "huge L3: latency_sweep %d points %llu MiB, bandwidth_sweep %d points %llu MiB\n",
            points[0], (unsigned long long)(bytes[0] >> 20), points[1],
            (unsigned long long)(bytes[1] >> 20));
    nprb_plan_free(&plan);
    nprb_topo_destroy(topo);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_plan_sweeps TOPOLOGY_DIR\n");
        return 1;
    }
    char path[1024], err[256];
    snprintf(path, sizeof path, "%s/intel-2s.xml", argv[1]);
    struct nprb_topo *topo = NULL;
    if (nprb_topo_create(&topo, path, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", path, err);
        return 1;
    }
    struct nprb_plan plan;

    const char *const local[] = {"latency_sweep.enabled=true", "latency_sweep.sizes=4KiB,1MiB",
                                 "latency_sweep.patterns=random,stride:64", NULL};
    CHECK(plan_of(&plan, topo, local) == 0);
    CHECK(plan.count == 4);
    for (size_t i = 0; i < plan.count; i++)
        CHECK(plan.items[i].cpu_node == 0 && plan.items[i].mem_node == 0);
    nprb_plan_free(&plan);

    const char *const remote[] = {"latency_sweep.enabled=true", "latency_sweep.sizes=4KiB,1MiB",
                                  "latency_sweep.patterns=random,stride:64",
                                  "latency_sweep.pairs=all", NULL};
    CHECK(plan_of(&plan, topo, remote) == 0);
    CHECK(plan.count == 8);
    int on_node1 = 0;
    for (size_t i = 0; i < plan.count; i++) {
        CHECK(plan.items[i].cpu_node == 0);
        on_node1 += plan.items[i].mem_node == 1;
    }
    CHECK(on_node1 == 4);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    nprb_plan_print(out, &plan, topo);
    fclose(out);
    CHECK_STR_CONTAINS(text, "plan: 8 measurement(s)");
    CHECK_STR_CONTAINS(text,
                       "latency_sweep        8  size 4KiB to 1MiB  CPU nodes 0  memory nodes 0,1");
    free(text);
    nprb_plan_free(&plan);

    /* from: every: a core of each CPU node sweeps, through every node's memory with pairs: all
     * (the whole grid), through its own without; the first node's curves come first. */
    const char *const grid[] = {"latency_sweep.enabled=true",
                                "latency_sweep.sizes=4KiB,1MiB",
                                "latency_sweep.patterns=random,stride:64",
                                "latency_sweep.pairs=all",
                                "latency_sweep.from=every",
                                NULL};
    CHECK(plan_of(&plan, topo, grid) == 0);
    CHECK(plan.count == 16);
    int pair_items[2][2] = {{0, 0}, {0, 0}};
    for (size_t i = 0; i < plan.count; i++)
        if (plan.items[i].cpu_node >= 0 && plan.items[i].cpu_node < 2 &&
            plan.items[i].mem_node >= 0 && plan.items[i].mem_node < 2)
            pair_items[plan.items[i].cpu_node][plan.items[i].mem_node]++;
    CHECK(pair_items[0][0] == 4 && pair_items[0][1] == 4 && pair_items[1][0] == 4 &&
          pair_items[1][1] == 4);
    CHECK(plan.count > 0 && plan.items[0].cpu_node == 0 &&
          plan.items[plan.count - 1].cpu_node == 1);
    text = NULL;
    out = open_memstream(&text, &len);
    nprb_plan_print(out, &plan, topo);
    fclose(out);
    CHECK_STR_CONTAINS(text, "latency_sweep       16  size 4KiB to 1MiB  CPU nodes 0,1  memory "
                             "nodes 0,1");
    free(text);
    nprb_plan_free(&plan);
    const char *const each_local[] = {"latency_sweep.enabled=true", "latency_sweep.sizes=4KiB",
                                      "latency_sweep.patterns=random", "latency_sweep.from=every",
                                      NULL};
    CHECK(plan_of(&plan, topo, each_local) == 0);
    CHECK(plan.count == 2);
    for (size_t i = 0; i < plan.count; i++)
        CHECK(plan.items[i].cpu_node == (int)i && plan.items[i].mem_node == (int)i);
    nprb_plan_free(&plan);

    const char *const strides[] = {"bandwidth_sweep.enabled=true", "bandwidth_sweep.sizes=16KiB",
                                   "bandwidth_sweep.kernels=read,read_strided",
                                   "bandwidth_sweep.strides=64B,256B", NULL};
    CHECK(plan_of(&plan, topo, strides) == 0);
    CHECK(plan.count == 3);
    if (plan.count == 3) {
        CHECK(plan.items[1].stride_bytes == 64 && plan.items[2].stride_bytes == 256);
        CHECK(plan.items[1].kernel == plan.items[2].kernel &&
              plan.items[0].kernel != plan.items[1].kernel);
    }
    nprb_plan_free(&plan);

    /* Auto sizes: the random chase touches one 64 B line per 256 B slot, so it fills each cache
     * at 4x its size and the sweep has a point there; a stride:64 chase touches every line. */
    uint64_t l1 = nprb_topo_summary(topo)->l1d_bytes;
    const char *const chase[] = {"latency_sweep.enabled=true", "latency_sweep.patterns=random",
                                 NULL};
    const char *const lines[] = {"latency_sweep.enabled=true", "latency_sweep.patterns=stride:64",
                                 NULL};
    bool at_4x_l1 = false, near_l1 = false;
    CHECK(l1 > 0 && plan_of(&plan, topo, chase) == 0);
    for (size_t i = 0; i < plan.count; i++)
        at_4x_l1 |= plan.items[i].size_bytes == 4 * l1 / 4 * 3;
    nprb_plan_free(&plan);
    CHECK(at_4x_l1);
    at_4x_l1 = false;
    CHECK(plan_of(&plan, topo, lines) == 0);
    for (size_t i = 0; i < plan.count; i++) {
        at_4x_l1 |= plan.items[i].size_bytes == 4 * l1 / 4 * 3;
        near_l1 |= plan.items[i].size_bytes == l1 / 4 * 3;
    }
    CHECK(near_l1 && !at_4x_l1);
    /* The progress estimate's costs: a bigger working set costs more, a skipped item little. */
    if (plan.count >= 2) {
        struct nprb_plan_item small = plan.items[0], big = plan.items[plan.count - 1];
        CHECK(nprb_plan_item_cost(&big).scaled_s > nprb_plan_item_cost(&small).scaled_s);
        CHECK(nprb_plan_item_cost(&big).fixed_s > 0); /* samples x sample time */
        struct nprb_plan_item series = small;
        series.extra_s = 20;
        CHECK(nprb_plan_item_cost(&series).fixed_s >= 20 + nprb_plan_item_cost(&small).fixed_s);
        snprintf(big.skip_reason, sizeof big.skip_reason, "not applicable");
        CHECK(nprb_plan_item_cost(&big).scaled_s < nprb_plan_item_cost(&small).scaled_s + 0.001 &&
              nprb_plan_item_cost(&big).fixed_s == 0);
    }
    /* A sweep keeps its buffers between points: over the whole sweep, only its largest point's
     * bytes are new memory, however many points and patterns; each point still sets its
     * buffer up. */
    struct nprb_plan two;
    const char *const patterns[] = {"latency_sweep.enabled=true",
                                    "latency_sweep.patterns=random,stride:64", NULL};
    CHECK(plan_of(&two, topo, patterns) == 0);
    double faulted = 0, set_up = 0, alone = 0;
    uint64_t largest = 0;
    for (size_t i = 0; i < two.count; i++) {
        if (strcmp(nprb_experiment_name(two.items[i].experiment), "latency_sweep") != 0 ||
            two.items[i].skip_reason[0])
            continue;
        struct nprb_item_cost c = nprb_plan_cost_at(&two, i);
        faulted += c.fault_bytes;
        set_up += c.setup_bytes;
        alone += nprb_plan_item_cost(&two.items[i]).fault_bytes;
        largest = two.items[i].size_bytes > largest ? two.items[i].size_bytes : largest;
    }
    CHECK(largest > 0 && faulted == (double)largest);
    CHECK(set_up == alone && alone > 2 * (double)largest);
    nprb_plan_free(&two);
    /* --dry-run's estimate at a host's first-touch rate: the slower its page faults, the longer;
     * at 3 GB/s the model's own figure; 0 (not measured) the model's. */
    double model = nprb_plan_estimate(&plan, 0).idle_s;
    CHECK(model > 0);
    CHECK(nprb_plan_estimate(&plan, 0.3e9).idle_s > nprb_plan_estimate(&plan, 3e9).idle_s);
    CHECK(fabs(nprb_plan_estimate(&plan, 3e9).idle_s - model) < 1e-9 * model);
    CHECK(nprb_plan_estimate(&plan, 30e9).idle_s < model);
    nprb_plan_free(&plan);

    /* A remote node too small for a size refuses the plan, naming the key. */
    const char *const too_big[] = {"latency_sweep.enabled=true", "latency_sweep.sizes=200GiB",
                                   "latency_sweep.pairs=all", NULL};
    CHECK(plan_of(&plan, topo, too_big) == -1);

    matrix_series(topo);
    nprb_topo_destroy(topo);
    huge_l3_bounded(argv[1]);
    return CHECK_DONE();
}
