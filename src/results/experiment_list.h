/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file experiment_list.h
 * The one list of experiments: the only place an experiment is named. Each line is
 * X(ID, name): NPRB_EXPERIMENT_<ID> of the rows' enum (row_ids.h), and `name`, at once the
 * rows' `experiment` column, the config section (NAME.KEY), the descriptor the file exports
 * (nprb_exp_<name>, which experiments/registry.c points at) and what --only takes.
 *
 * The order is the run order, one order for everything: the plan, the config's sections and the
 * report's (idle figures first, sweeps after). It lives here, in results/, rather than beside the
 * registry, because the rows' enum needs it and results/ is below experiments/.
 *
 * Adding an experiment: one line here, and its file in src/experiments/ (the build takes every
 * .c there).
 */
#ifndef NPRB_EXPERIMENT_LIST_H
#define NPRB_EXPERIMENT_LIST_H

#define NPRB_EXPERIMENTS(X)                                                                        \
    X(LATENCY_MATRIX, latency_matrix)                                                              \
    X(BANDWIDTH_MATRIX, bandwidth_matrix)                                                          \
    X(LATENCY_SWEEP, latency_sweep)                                                                \
    X(STRIDE_SWEEP, stride_sweep)                                                                  \
    X(PAGE_SIZE, page_size)                                                                        \
    X(BANDWIDTH_SWEEP, bandwidth_sweep)                                                            \
    X(THREAD_SCALING, thread_scaling)                                                              \
    X(FIRST_TOUCH, first_touch)                                                                    \
    X(LOADED_LATENCY, loaded_latency)                                                              \
    X(MLP, mlp)                                                                                    \
    X(C2C_LATENCY, c2c_latency)                                                                    \
    X(INJECTION, injection)                                                                        \
    X(MAX_BANDWIDTH, max_bandwidth)                                                                \
    X(NUMA_BALANCING, numa_balancing)

#endif
