/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file registry.h
 * Every experiment, in the order a run makes them (as ior's available_aiori[] lists its
 * back-ends), from the one list of results/experiment_list.h: the plan is built by asking each
 * in turn for its items. An experiment's file names itself here too, with
 * NPRB_EXPERIMENT_SECTION.
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
 * Declares an experiment's config section, `static const struct nprb_config_section VAR` of
 * @p keys (offsets into @p type; NPRB_CONFIG_SECTION), named @p name, written bare as the list
 * writes it (mlp, page_size): a name the list lacks does not compile. Its descriptor's .id
 * (NPRB_EXPERIMENT_<ID>) comes from the same list; that the two are one line of it is checked
 * on every start (nprb_experiments_check()).
 */
#define NPRB_EXPERIMENT_SECTION(var, name, keys, type)                                             \
    _Static_assert(NPRB_EXPERIMENT_OF(name) > NPRB_EXPERIMENT_NONE, #name " is on the list");      \
    NPRB_CONFIG_SECTION(var, #name, keys, type)

/**
 * Whether descriptor e of @p list (@p count of them) is line e of the experiment list: its .id
 * that line's, its config section named as that line, with an `enabled` key (which --only sets),
 * and says what it measures (.about, which --experiments prints).
 * Checked on every start, by nprb_experiments_config_defaults().
 * @return 0, or -1 with the first that is not, named in @p err.
 */
int nprb_experiments_check(const struct nprb_experiment *const *list, size_t count, char *err,
                           size_t errlen);

/**
 * --experiments: every experiment, in the run order, with what it measures (its .about), as the
 * Markdown table that docs/EXPERIMENTS.md holds (tests/jobs/config-doc.sh keeps it so).
 */
void nprb_experiments_print_about(FILE *out);

/**
 * The built-in defaults of every key: the global ones (nprb_config_defaults()), then every
 * experiment's section and memory.*, in the order of the echo and the reference. The job starts
 * from these before YAML and --set.
 * @return 0, or -1 with a message in @p err (a section the config cannot hold, a descriptor
 * that is not its line of the list: nprb_experiments_check()).
 */
int nprb_experiments_config_defaults(struct nprb_config *cfg, char *err, size_t errlen);

/**
 * --only: enables the experiments of @p only (NPRB_EXPERIMENT_BIT()s) and disables every other,
 * as `--set NAME.enabled=...` would, after the config and --set. 0 leaves @p cfg alone.
 * @return 0, or -1 with a message in @p err.
 */
int nprb_experiments_only(struct nprb_config *cfg, uint64_t only, char *err, size_t errlen);

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
