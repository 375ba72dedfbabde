/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file cli.h
 * Command-line arguments, driven by one option table that also writes --help.
 */
#ifndef NPRB_CLI_H
#define NPRB_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define NPRB_MAX_SETS 64

struct nprb_cli {
    const char *config_path; /**< NULL: built-in defaults */
    const char *output_path; /**< NULL: numaprobe-<UTC time>.h5 */
    const char *sets[NPRB_MAX_SETS];
    int set_count;
    bool strict, quiet, verbose;
    bool force;           /**< an existing regular file at output_path may be replaced */
    bool respect_binding; /**< never widen the launcher's CPU binding (binding.h) */
    bool help, version, show_config, config_reference, kernels;
    bool experiments; /**< print every experiment and what it measures (registry.h) */
    bool schema;      /**< print the results-file contract as JSON (results/contract.h) */
    bool dry_run; /**< validate config and plan on every host, print the plan, measure nothing */
    double progress_s;        /**< a progress line at least this often (seconds; default 30) */
    const char *summary_json; /**< NULL, or the file the job's verdict goes to as JSON */
    const char *time_budget;  /**< NULL, or --time-budget's value: the time_budget key, last */
    uint64_t only; /**< --only: the NPRB_EXPERIMENT_BIT()s of the experiments to run; 0: all */
    const char *textfile_dir; /**< NULL, or where each host writes its OpenMetrics file */
    bool summary_stdout;      /**< --summary-json -: the verdict alone on stdout, the report on
                                   stderr */
};

/**
 * Parses argv. @return 0, or -1 with a message for the user in @p err (a usage error: exit 2).
 * Pointers in @p cli point into argv.
 */
int nprb_cli_parse(struct nprb_cli *cli, int argc, char **argv, char *err, size_t errlen);

/** Writes the bandwidth kernel table (formula, bytes per access) to @p out. */
void nprb_cli_print_kernels(FILE *out);

/** Writes the usage text (options, exit codes) to @p out. */
void nprb_cli_print_help(FILE *out);

#endif
