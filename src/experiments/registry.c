/* SPDX-License-Identifier: BSD-3-Clause */
/* The experiment list. Adding an experiment: its file (exporting nprb_exp_<name>), one line
 * here and one in CMakeLists.txt. The order is the order a run makes them: idle figures first,
 * sweeps after. The same one order gives the config's sections and the stdout report's. */
#include "experiments/registry.h"

#include "report/report.h"

#include <stdbool.h>
#include <string.h>

#define NPRB_EXPERIMENTS(X)                                                                        \
    X(latency_matrix)                                                                              \
    X(bandwidth_matrix)                                                                            \
    X(latency_sweep)                                                                               \
    X(stride_sweep)                                                                                \
    X(page_size)                                                                                   \
    X(bandwidth_sweep)                                                                             \
    X(thread_scaling)                                                                              \
    X(first_touch)                                                                                 \
    X(loaded_latency)                                                                              \
    X(mlp)                                                                                         \
    X(c2c_latency)                                                                                 \
    X(injection)                                                                                   \
    X(max_bandwidth)                                                                               \
    X(numa_balancing)

#define DECLARE(name) extern const struct nprb_experiment nprb_exp_##name;
NPRB_EXPERIMENTS(DECLARE)

#define POINT(name) &nprb_exp_##name,
const struct nprb_experiment *const nprb_experiments[] = {NPRB_EXPERIMENTS(POINT)};
const size_t nprb_experiment_count = sizeof nprb_experiments / sizeof nprb_experiments[0];

int nprb_experiments_config_defaults(struct nprb_config *cfg, char *err, size_t errlen)
{
    nprb_config_defaults(cfg);
    for (size_t e = 0; e < nprb_experiment_count; e++)
        if (nprb_experiments[e]->config != NULL &&
            nprb_config_add_section(cfg, nprb_experiments[e]->config, err, errlen) != 0)
            return -1;
    /* The host's own sections after the experiments'. */
    if (nprb_config_add_section(cfg, &nprb_config_memory, err, errlen) != 0 ||
        nprb_config_add_section(cfg, &nprb_config_counters, err, errlen) != 0)
        return -1;
    return 0;
}

void nprb_experiments_report(FILE *out, const struct nprb_results *rows, uint64_t *shown)
{
    for (size_t e = 0; e < nprb_experiment_count && e < 64; e++) {
        const struct nprb_experiment *x = nprb_experiments[e];
        if (x->report != NULL && !(*shown & (UINT64_C(1) << e)) && x->report(out, rows))
            *shown |= UINT64_C(1) << e;
    }
}

void nprb_experiments_host_report(FILE *out, const struct nprb_results *rows)
{
    nprb_report_rank_head(out, rows);
    if (rows->tables[NPRB_TABLE_HOSTS].count == 0)
        return;
    for (size_t e = 0; e < nprb_experiment_count; e++)
        if (nprb_experiments[e]->host_report != NULL)
            nprb_experiments[e]->host_report(out, rows);
    nprb_report_rank_tail(out, rows);
}

int nprb_plan_build(struct nprb_plan *plan, const struct nprb_config *cfg,
                    const struct nprb_topo *topo, const struct nprb_share *share, char *err,
                    size_t errlen)
{
    memset(plan, 0, sizeof *plan);
    struct nprb_planner p = {plan, cfg, topo, share->host_rank == 0, *share, err, errlen};
    for (size_t e = 0; e < nprb_experiment_count; e++) {
        if (nprb_experiments[e]->plan(&p) != 0) {
            nprb_plan_free(plan);
            return -1;
        }
    }
    /* The headline cells again, pass after pass, after everything else: apart in time from
     * their first pass, so that their spread covers what changes over the run (a neighbour's
     * traffic), not only what changes within one burst of repetitions. */
    size_t firsts = plan->count;
    for (int pass = 1;; pass++) {
        bool more = false;
        for (size_t i = 0; i < firsts; i++) {
            struct nprb_plan_item again = plan->items[i];
            if (again.passes <= pass || again.skip_reason[0] != '\0')
                continue;
            again.pass = pass;
            again.origin = i;
            more = true;
            if (nprb_plan_add(&p, &again) != 0) {
                nprb_plan_free(plan);
                return -1;
            }
        }
        if (!more)
            return 0;
    }
}
