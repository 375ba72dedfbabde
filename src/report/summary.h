/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file summary.h
 * The job's verdict as JSON (`--summary-json FILE`, docs/summary.schema.json): the run id, the
 * config fingerprint and the statuses, and for each host (all its ranks together) its node
 * type, its ranks, its headline figures (local latency, local read and triad bandwidth, the worst
 * remote latency ratio), each figure's uncertainty and noisy mark (results/contract.h) and its
 * problems. Rank 0 adds each rank's rows as they arrive in the
 * gather and writes a host out, to a temporary file, once its last rank is in: it holds the hosts
 * whose ranks are still coming, never the rows, and never the whole fleet. Built with jansson,
 * private to this module.
 */
#ifndef NPRB_SUMMARY_H
#define NPRB_SUMMARY_H

#include "results/results.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/** Bumped when a field changes meaning or goes; a new optional field keeps it. */
#define NPRB_SUMMARY_VERSION "1.1.0"

struct nprb_summary;

/**
 * Whether @p path may take the summary, before anything is measured: the rules of the results
 * file (nprb_output_check()), not the results file itself (@p output), and a directory this
 * process may write in. @return 0, or -1 with "cannot write the summary to PATH: why" in @p err.
 */
int nprb_summary_check_path(const char *path, const char *output, bool force, char *err,
                            size_t errlen);

struct nprb_output_lock;

/**
 * Takes the summary's lock, PATH.lock, as the results file's is taken (nprb_output_lock()), for
 * the whole job: two jobs given one --summary-json would otherwise both run and one summary
 * silently replace the other. A lock held by another job refuses the path, unless @p force:
 * then nothing is held, @p warning says that the later summary replaces the other, and 0 is
 * returned. @p warning also names a dead job's lock taken over, and is "" otherwise.
 * @return 0, or -1 with "cannot write the summary to PATH: ..." in @p err.
 */
int nprb_summary_lock(struct nprb_output_lock *lock, const char *path, bool force, char *warning,
                      size_t warnlen, char *err, size_t errlen);

/** The jansson line of --version: the version loaded and the one built against. */
void nprb_summary_print_version(FILE *out);

/**
 * A new, empty summary, for @p path (NULL: stdout). Its finished hosts wait in an unlinked
 * temporary file in @p path's directory (for stdout, TMPDIR's or /tmp).
 * @return the summary, or NULL with errno when out of memory or the file cannot be made.
 */
struct nprb_summary *nprb_summary_create(const char *path);

/** Frees @p s (NULL is fine). */
void nprb_summary_destroy(struct nprb_summary *s);

/**
 * Adds one rank to its host's entry from its gathered rows (its /hosts row and its matrices); a
 * host's figures are over all its ranks. A rank without a /hosts row adds nothing.
 * @return 0, or -1 when out of memory.
 */
int nprb_summary_add_rank(struct nprb_summary *s, const struct nprb_results *rows);

/** Adds a rank known only by its /hosts row (one given up as hung). @return 0 or -1. */
int nprb_summary_add_host(struct nprb_summary *s, const struct nprb_host_row *host);

/** What the job as a whole says about itself, written at the top of the summary. */
struct nprb_summary_job {
    const char *run_id, *config_fingerprint, *software_version, *start_utc, *end_utc;
    const char *results_file; /**< the HDF5 file's path */
    const char *status;       /**< the job's status name (util/status.h) */
    int exit_code;
    bool results_written; /**< the HDF5 file was committed */
    int ranks, hosts, hosts_failed;
};

/**
 * Writes the summary to @p path: to a temporary name beside it, then renamed into place; with
 * @p path NULL, to stdout. Sorts the values it holds (the medians).
 * @return 0, or -1 with "cannot write the summary to PATH: why" in @p err.
 */
int nprb_summary_write(struct nprb_summary *s, const struct nprb_summary_job *job, const char *path,
                       char *err, size_t errlen);

#endif
