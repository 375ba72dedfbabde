/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file registry.h
 * Every experiment, in the order a run makes them (as ior's available_aiori[] lists its
 * back-ends): the plan is built by asking each in turn for its items.
 */
#ifndef NPRB_REGISTRY_H
#define NPRB_REGISTRY_H

#include "config/config.h"
#include "experiments/descriptor.h"

#include <stddef.h>

extern const struct nprb_experiment *const nprb_experiments[];
extern const size_t nprb_experiment_count;

/**
 * The built-in defaults of every key (nprb_config_defaults()), the sections of the experiments
 * that declare their own keys included. The job starts from these before YAML and --set.
 * @return 0, or -1 with a message in @p err (a section the config cannot hold).
 */
int nprb_experiments_config_defaults(struct nprb_config *cfg, char *err, size_t errlen);

#endif
