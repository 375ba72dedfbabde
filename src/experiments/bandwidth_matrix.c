/* SPDX-License-Identifier: BSD-3-Clause */
/* bandwidth_matrix: the cores of node i (one thread each, or a configured count) streaming
 * memory bound to node j, every i and j, for each configured kernel; plus the policies. */
#include "experiments/registry.h"
#include "measure/experiment.h"
#include "plan/items.h"
#include "report/report_matrix.h"

#include <string.h>

extern const struct nprb_experiment nprb_exp_bandwidth_matrix;

struct bandwidth_matrix_config {
    bool enabled;
    enum nprb_pairs pairs;
    struct nprb_kernel_list kernels;
    struct nprb_policy_list policies;
    uint64_t size_bytes;     /**< bytes of the array streamed, per memory node */
    uint64_t max_size_bytes; /**< the most STREAM's rule gives with size 0; 0: no cap */
    int threads;             /**< threads per CPU node; 0 means one per usable core */
    int repetitions;         /**< timed repetitions kept (one more is taken and discarded) */
    int passes; /**< bound cells measured this often, the later passes spread over the run */
};

#define OFF(field) offsetof(struct bandwidth_matrix_config, field)
static const struct config_key keys[] = {
    {"enabled", KEY_BOOL, OFF(enabled), "true", 0, 0, "measure multi-threaded read bandwidth"},
    {"pairs", KEY_NAME(nprb_pairs_names), OFF(pairs), "all", 0, 0,
     "all: cores of node i streaming memory of node j, every i and j; local: i = j only"},
    {"kernels", KEY_NAMES(nprb_kernel_names), OFF(kernels), "read,triad", 1, 0,
     "kernels measured for every pair"},
    {"policies", KEY_NAMES(nprb_extra_policy_names), OFF(policies), "interleave", 0, 0,
     "per CPU node, besides bind: interleave, preferred, first_touch"},
    {"size", KEY_SIZE, OFF(size_bytes), "0", 0, NPRB_TIB(64),
     "streamed array per memory node; 0: four times the last-level caches of a node's cores "
     "(STREAM's rule), at most max_size"},
    {"max_size", KEY_SIZE, OFF(max_size_bytes), "256MiB", 0, NPRB_TIB(64),
     "with size 0, the most STREAM's rule may give (0: no cap): a guest that reports a host's "
     "whole L3 would otherwise stream arrays of a GiB"},
    {"threads", KEY_THREADS, OFF(threads), "all", 1, 4096,
     "threads per CPU node: all (one per usable core) or a number"},
    {"repetitions", KEY_INT, OFF(repetitions), "3", 2, 100000,
     "timed repetitions kept per measurement"},
    {"passes", KEY_INT, OFF(passes), "3", 1, 5,
     "times each bound cell of the read and triad kernels is measured, the later passes spread "
     "over the rest of the run: its uncertainty then covers what changes over the run, not only "
     "within one burst"},
};
NPRB_EXPERIMENT_SECTION(section, bandwidth_matrix, keys, struct bandwidth_matrix_config);

static int plan(struct nprb_planner *p)
{
    const struct bandwidth_matrix_config *c = nprb_config_section(p->cfg, &section);
    if (c == NULL || !c->enabled)
        return 0;
    uint64_t size = c->size_bytes;
    if (size == 0) {
        size = nprb_stream_auto_bytes(p->topo);
        if (c->max_size_bytes > 0 && size > c->max_size_bytes)
            size = c->max_size_bytes;
    }
    struct nprb_plan_item points[NPRB_MAX_LIST];
    for (int k = 0; k < c->kernels.count; k++)
        points[k] = (struct nprb_plan_item){
            .experiment = &nprb_exp_bandwidth_matrix,
            .policy = NPRB_MEM_BIND,
            /* the headline kernels: what verdicts compare */
            .passes = c->kernels.id[k] == NPRB_KERNEL_READ || c->kernels.id[k] == NPRB_KERNEL_TRIAD
                          ? c->passes
                          : 1,
            .size_bytes = size,
            .threads = c->threads,
            .kernel = c->kernels.id[k],
            .repetitions = c->repetitions,
        };
    /* Every kernel on a memory node before the next node: the kernels' arrays are faulted in
     * once per node and each kernel finds them kept. */
    return nprb_plan_matrix_series(p, points, c->kernels.count, "bandwidth_matrix.size", c->pairs,
                                   &c->policies);
}

/* Its part of every host's block: one matrix per kernel, in the order the kernels ran. */
static bool host_report(FILE *out, const struct nprb_results *rows)
{
    const struct nprb_rows *bw = &rows->tables[NPRB_TABLE_BANDWIDTH];
    enum nprb_kernel_id kernels[NPRB_N_KERNELS];
    bool known[NPRB_N_KERNELS + 1] = {false};
    int n_kernels = 0;
    for (size_t i = 0; i < bw->count; i++) {
        const struct nprb_bandwidth_row *b = nprb_row_at(bw, i);
        if (b->experiment_id == NPRB_EXPERIMENT_BANDWIDTH_MATRIX && b->kernel_id < NPRB_N_KERNELS &&
            !known[b->kernel_id]) {
            known[b->kernel_id] = true;
            kernels[n_kernels++] = b->kernel_id;
        }
    }
    struct nprb_matrix *m = nprb_matrix_create();
    if (m == NULL)
        return false;
    for (int k = 0; k < n_kernels; k++) {
        nprb_matrix_clear(m);
        int threads = 0;
        for (size_t i = 0; i < bw->count; i++) {
            const struct nprb_bandwidth_row *b = nprb_row_at(bw, i);
            if (b->experiment_id != NPRB_EXPERIMENT_BANDWIDTH_MATRIX ||
                b->kernel_id != kernels[k] || strcmp(b->status, NPRB_ROW_NOT_APPLICABLE) == 0)
                continue;
            nprb_matrix_put(m, b->cpu_node, b->mem_node, b->mem_policy_id, b->gbs_best,
                            nprb_bandwidth_uncertainty_pct(b), b->pair_class_id, b->status,
                            b->flags);
            threads = b->threads;
        }
        char title[96];
        snprintf(title, sizeof title, "%s bandwidth, GB/s (best; %d threads per CPU node)",
                 nprb_kernel_get(kernels[k])->name, threads);
        nprb_matrix_print(out, title, m);
    }
    nprb_matrix_destroy(m);
    return n_kernels > 0;
}

static const char about[] =
    "the cores of node i (one thread each) streaming memory bound to node j, every i and j, per "
    "kernel (read and triad by default), plus interleave";

const struct nprb_experiment nprb_exp_bandwidth_matrix = {.id = NPRB_EXPERIMENT_BANDWIDTH_MATRIX,
                                                          .table = NPRB_TABLE_BANDWIDTH,
                                                          .about = about,
                                                          .plan = plan,
                                                          .measure = nprb_measure_bandwidth,
                                                          .config = &section,
                                                          .host_report = host_report,
                                                          .keeps_buffers = true,
                                                          .priority = NPRB_PRIORITY_HEADLINE};
