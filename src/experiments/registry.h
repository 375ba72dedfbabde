/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file registry.h
 * Every experiment, in the order a run makes them (as ior's available_aiori[] lists its
 * back-ends): the plan is built by asking each in turn for its items.
 */
#ifndef NPRB_REGISTRY_H
#define NPRB_REGISTRY_H

#include "experiments/descriptor.h"

#include <stddef.h>

extern const struct nprb_experiment *const nprb_experiments[];
extern const size_t nprb_experiment_count;

#endif
