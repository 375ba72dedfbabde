/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file openmetrics.h
 * A host's own OpenMetrics file (`--textfile-dir DIR`): DIR/numaprobe.prom, for the textfile
 * collector of the node_exporter on that host. It holds what one host knows alone, with the
 * analysis's family names, help, units and labels (results/contract.h lists the families): each
 * headline cell's figure (the median over the host's ranks) beside its uncertainty (the largest
 * of theirs), whether the run ended ok, when it started, the host's identity, the judged metrics
 * too noisy to judge, and a setting a killed run left changed that could not be put back. The
 * fleet's verdicts (outlier, degraded, config drift) are the report's: they need every host.
 * Written whole under a temporary name node_exporter ignores (it reads `*.prom` only), then
 * renamed into place.
 */
#ifndef NPRB_OPENMETRICS_H
#define NPRB_OPENMETRICS_H

#include "results/results.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** The file's name in the directory: one file a host, whatever its ranks. */
#define NPRB_OM_FILE "numaprobe.prom"

/** One headline figure of one rank, as it travels to its host's first rank: plain bytes. */
struct nprb_om_cell {
    int32_t bandwidth; /**< 0: a latency cell (what: its pattern); 1: bandwidth (its kernel) */
    int32_t cpu_node, mem_node;
    char what[16];
    double value;           /**< ns (latency_ns_median), or GB/s (gbs_best) */
    double uncertainty_pct; /**< percent; NaN: unknown */
};

/**
 * The headline cells of @p rows (report/figure.h's rule) that have a figure: the first @p max
 * into @p out. @return how many there are (@p max 0 counts them).
 */
size_t nprb_om_cells(const struct nprb_results *rows, struct nprb_om_cell *out, size_t max);

/** What the file says of the host beside its figures (text as the rows hold it). */
struct nprb_om_host {
    const char *host, *node_type, *fingerprint, *os_kernel;
    const char *run_id, *config_fingerprint;
    bool ok;           /**< every rank of the host ended ok */
    bool not_restored; /**< a rank found a setting left changed, and could not put it back */
    double start_s;    /**< the run's start, seconds since the epoch; NaN: unknown */
};

/**
 * The file's text, to @p out: the families that have samples, each with its HELP, TYPE and UNIT
 * and its samples sorted, then `# EOF`. @p cells are the host's ranks' (@p n of them, reordered
 * in place; one whose value is not finite is an empty slot, skipped); a cell several ranks
 * measured is one sample, their median. @return 0, or -1 (errno).
 */
int nprb_om_print(FILE *out, const struct nprb_om_host *host, struct nprb_om_cell *cells, size_t n);

/**
 * Whether @p dir may take the file, before anything is measured: an existing directory where
 * this process can create the file's temporary name (tried, then removed), and nothing at
 * DIR/numaprobe.prom but a regular file, which the run replaces. @return 0, or -1 with "cannot
 * write metrics to PATH: why" in @p err.
 */
int nprb_om_check_dir(const char *dir, char *err, size_t errlen);

/**
 * Writes DIR/numaprobe.prom whole (util/sibling.h: fsync'd, renamed into place), mode 0644.
 * @return 0, or -1 with "cannot write metrics to PATH: why" in @p err; the file is then as it
 * was, and no temporary is left.
 */
int nprb_om_write(const char *dir, const struct nprb_om_host *host, struct nprb_om_cell *cells,
                  size_t n, char *err, size_t errlen);

#endif
