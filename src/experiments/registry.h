/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file registry.h
 * Every experiment, in the order a run makes them (as ior's available_aiori[] lists its
 * back-ends): the plan is built by asking each in turn for its items.
 */
#ifndef NPRB_REGISTRY_H
#define NPRB_REGISTRY_H

#include "config/config.h"
#include "plan/descriptor.h"
#include "plan/plan.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

extern const struct nprb_experiment *const nprb_experiments[];
extern const size_t nprb_experiment_count;

/**
 * The built-in defaults of every key: the global ones (nprb_config_defaults()), then every
 * experiment's section and memory.*, in the order of the echo and the reference. The job starts
 * from these before YAML and --set.
 * @return 0, or -1 with a message in @p err (a section the config cannot hold).
 */
int nprb_experiments_config_defaults(struct nprb_config *cfg, char *err, size_t errlen);

/**
 * The experiments' stdout sections (descriptor.h: report) from one rank's rows, in the report's
 * order, each until it has printed once: @p shown keeps which have (0 before the first rank).
 */
void nprb_experiments_report(FILE *out, const struct nprb_results *rows, uint64_t *shown);

/**
 * One rank's block of the stdout report: the host's head (report/report.h), the experiments'
 * parts of it (descriptor.h: host_report) in the registry's order, then the host's tail.
 */
void nprb_experiments_host_report(FILE *out, const struct nprb_results *rows);

/**
 * Builds the plan from every enabled experiment, in the order of the registry.
 * @return 0, or -1 with a message (config error: exit 2) in @p err.
 */
int nprb_plan_build(struct nprb_plan *plan, const struct nprb_config *cfg,
                    const struct nprb_topo *topo, const struct nprb_share *share, char *err,
                    size_t errlen);

#endif
