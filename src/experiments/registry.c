/* SPDX-License-Identifier: BSD-3-Clause */
/* The experiment list. Adding an experiment: its file (exporting nprb_exp_<name>), one line
 * here and one in CMakeLists.txt. The order is the order a run makes them: idle figures first,
 * sweeps after. The same list gives the order of the config's sections and of the stdout
 * report's sections, after the experiments of 0.2, which keep the order they had there. */
#include "experiments/registry.h"

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
    X(numa_balancing)

#define DECLARE(name) extern const struct nprb_experiment nprb_exp_##name;
NPRB_EXPERIMENTS(DECLARE)
extern const struct nprb_experiment nprb_exp_cache_levels; /* a report only (cache_levels.c) */

#define POINT(name) &nprb_exp_##name,
const struct nprb_experiment *const nprb_experiments[] = {NPRB_EXPERIMENTS(POINT)};
const size_t nprb_experiment_count = sizeof nprb_experiments / sizeof nprb_experiments[0];

/* The experiments of 0.2 in the order of its one key table (then came memory.*), and in the
 * order of its stdout report (cache levels after the two latency sweeps), which differ from the
 * run order. Kept, so that the config echo, --show-config, --config-reference, the config text
 * every results file stores and the report read as they did (plan.dry_run_golden holds the
 * echo). Every other experiment comes after these, in the run order. */
static const struct nprb_experiment *const config_order[] = {
    &nprb_exp_latency_matrix, &nprb_exp_bandwidth_matrix, &nprb_exp_latency_sweep,
    &nprb_exp_stride_sweep,   &nprb_exp_bandwidth_sweep,  &nprb_exp_thread_scaling,
    &nprb_exp_loaded_latency, &nprb_exp_numa_balancing,   &nprb_exp_first_touch,
};
static const struct nprb_experiment *const report_order[] = {
    &nprb_exp_latency_sweep,   &nprb_exp_stride_sweep,   &nprb_exp_cache_levels,
    &nprb_exp_bandwidth_sweep, &nprb_exp_thread_scaling, &nprb_exp_first_touch,
    &nprb_exp_loaded_latency,  &nprb_exp_numa_balancing,
};
#define COUNT(list) (sizeof(list) / sizeof((list)[0]))

/* The @p k-th experiment of the order that starts with @p first (@p n of them) and goes on with
 * the registry's others in run order; NULL past the last. */
static const struct nprb_experiment *nth(const struct nprb_experiment *const *first, size_t n,
                                         size_t k)
{
    if (k < n)
        return first[k];
    k -= n;
    for (size_t e = 0; e < nprb_experiment_count; e++) {
        bool listed = false;
        for (size_t f = 0; f < n; f++)
            listed |= first[f] == nprb_experiments[e];
        if (!listed && k-- == 0)
            return nprb_experiments[e];
    }
    return NULL;
}

int nprb_experiments_config_defaults(struct nprb_config *cfg, char *err, size_t errlen)
{
    nprb_config_defaults(cfg);
    for (size_t k = 0;; k++) {
        /* memory.* where 0.2's key table had it: after its experiments' keys. */
        if (k == COUNT(config_order) &&
            (nprb_config_add_section(cfg, &nprb_config_memory, err, errlen) != 0 ||
             nprb_config_add_section(cfg, &nprb_config_counters, err, errlen) != 0))
            return -1;
        const struct nprb_experiment *e = nth(config_order, COUNT(config_order), k);
        if (e == NULL)
            return 0;
        if (e->config != NULL && nprb_config_add_section(cfg, e->config, err, errlen) != 0)
            return -1;
    }
}

void nprb_experiments_report(FILE *out, const struct nprb_results *rows, uint64_t *shown)
{
    const struct nprb_experiment *e;
    for (size_t k = 0; k < 64 && (e = nth(report_order, COUNT(report_order), k)) != NULL; k++)
        if (e->report != NULL && !(*shown & (UINT64_C(1) << k)) && e->report(out, rows))
            *shown |= UINT64_C(1) << k;
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
