/* SPDX-License-Identifier: BSD-3-Clause */
/* The experiment list. Adding an experiment: its file (exporting nprb_exp_<name>), one line
 * here and one in CMakeLists.txt. The order is the order a run makes them: idle figures first,
 * sweeps after. */
#include "experiments/registry.h"

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

#define POINT(name) &nprb_exp_##name,
const struct nprb_experiment *const nprb_experiments[] = {NPRB_EXPERIMENTS(POINT)};
const size_t nprb_experiment_count = sizeof nprb_experiments / sizeof nprb_experiments[0];

int nprb_experiments_config_defaults(struct nprb_config *cfg, char *err, size_t errlen)
{
    nprb_config_defaults(cfg);
    for (size_t i = 0; i < nprb_experiment_count; i++)
        if (nprb_experiments[i]->config != NULL &&
            nprb_config_add_section(cfg, nprb_experiments[i]->config, err, errlen) != 0)
            return -1;
    return 0;
}
