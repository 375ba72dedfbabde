/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file collector.h
 * Rank 0's side of the results file: it receives every rank's rows through the fleet's gather,
 * appends them through results/, reports each rank (on stdout; on stderr when the summary takes
 * stdout), writes the /hosts row of a rank given up as hung, writes the root attributes and commits
 * the file. The root attributes are also every checkpoint's (on every rank, where the gather's
 * counts are still zero).
 */
#ifndef NPRB_COLLECTOR_H
#define NPRB_COLLECTOR_H

#include "config/config.h"
#include "fleet/fleet.h"
#include "host/provenance.h"
#include "results/h5out.h"
#include "results/output.h"
#include "results/results.h"
#include "report/summary.h"
#include "util/log.h"
#include "util/status.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/** Node types whose first host rank 0's report shows in full (beyond them, report_hosts alone). */
#define NPRB_REPORT_TYPES 64

struct nprb_collector {
    /* Set by the job when it starts: pointers to what the job fills in as it goes. */
    struct nprb_fleet *fleet;
    const struct nprb_log *log;
    const struct nprb_config *cfg;         /**< report_hosts, watchdog_s */
    const struct nprb_provenance *prov;    /**< scheduler, job_id */
    struct nprb_output_lock *lock;         /**< rank 0: released before the job is ended early */
    struct nprb_output_lock *summary_lock; /**< rank 0: the summary's, released with it */
    const char *output;                    /**< the results file's path */
    const char *start_utc;
    const char *command_line;
    const char *config_yaml;   /**< the config echo */
    const char *config_source; /**< the config's path, or "built-in defaults" */
    const char *job_identity;  /**< rank 0's host, PID and start */
    uint64_t start_ns;
    struct nprb_h5 *h5;           /**< rank 0: the open output; NULL once committed */
    const char *summary_path;     /**< --summary-json FILE; NULL: stdout (or none) */
    struct nprb_summary *summary; /**< rank 0 with --summary-json: the hosts as they come */
    FILE *report;                 /**< rank 0: where the report goes (stdout, or stderr when
                                       the summary goes to stdout) */

    /* Rank 0: what the gather saw. */
    int failed_hosts;
    int lost_ranks;                   /**< ranks given up as hung (rank 0 itself included) */
    uint64_t write_ns;                /**< time spent writing and reporting gathered rows */
    int narrow_ranks;                 /**< ranks whose binding check failed ... */
    char narrow_hosts[NPRB_TEXT_LEN]; /**< ... and the first of their hosts, by name */

    /* Rank 0: the report on stdout. */
    uint64_t reported; /**< experiments' sections shown (nprb_experiments_report()) ... */
    FILE *sweep_out;   /**< ... gathered here and printed after the host table */
    char *sweep_text;  /**< (sweep_out's buffer) */
    size_t sweep_len;
    uint64_t gather_start_ns;
    int shown_types;                        /**< node types shown in full */
    int line_reports;                       /**< ranks given one line */
    char shown_type[NPRB_REPORT_TYPES][17]; /**< (fingerprints) */
};

/**
 * Gathers every rank's rows to rank 0 (collective: @p mine is this rank's), which writes and
 * reports them, writes the root attributes and commits the file. Ranks silent for twice the
 * watchdog get a "hung" /hosts row and are counted in lost_ranks.
 * @return on rank 0: NPRB_OK, or NPRB_ERR_SYSTEM when the file could not be written; elsewhere
 * NPRB_OK.
 */
enum nprb_status nprb_collector_gather(struct nprb_collector *c, const struct nprb_results *mine);

/**
 * Rank 0, the gather's steps one by one (nprb_collector_gather() is begin, every rank's rows
 * through take_rank, finish; a benchmark drives them without MPI). Begin prints the report's
 * header.
 */
void nprb_collector_begin(struct nprb_collector *c);

/**
 * One rank's gathered rows: appended to the results file, counted (failed hosts, narrow
 * bindings), added to the summary, reported on stdout (in full or one line).
 * @return 0, or -1 when a table could not be appended or the summary is out of memory.
 */
int nprb_collector_take_rank(struct nprb_collector *c, const struct nprb_results *rows);

/**
 * Prints the experiments' sections, writes the root attributes and commits the file, then the
 * report's footer. @p rc: 0, or -1 when a rank's rows could not be taken (the file is still
 * committed; the status says the failure).
 * @return NPRB_OK, or NPRB_ERR_SYSTEM when @p rc is not 0 or the file could not be written.
 */
enum nprb_status nprb_collector_finish(struct nprb_collector *c, int rc);

/**
 * Rank 0's watchdog thread, when rank 0's own measurement has run for @p ran_s seconds: tells the
 * fleet that rank 0's host is stuck, gathers what the job has (@p mine: rank 0's rows so far with
 * its "hung" /hosts row) and every other rank's, writes the file and ends the job with the exit
 * code of a partial result.
 */
_Noreturn void nprb_collector_gather_without_rank0(struct nprb_collector *c,
                                                   const struct nprb_results *mine, double ran_s);

/**
 * Rank 0 with --summary-json: writes the job's verdict (summary.h), the job's @p status and
 * whether the results file was @p written. A summary that cannot be written is an error
 * message. @return NPRB_OK, or NPRB_ERR_SYSTEM.
 */
enum nprb_status nprb_collector_write_summary(const struct nprb_collector *c,
                                              enum nprb_status status, bool written);

/** The job's run_id (the root attribute) as rank 0 writes it, into @p out (37 bytes or more). */
void nprb_collector_run_id(const struct nprb_collector *c, char *out, size_t len);

/** The root attributes; @p complete: every rank's rows are in the file. */
void nprb_collector_write_attributes(const struct nprb_collector *c, struct nprb_h5 *h5,
                                     int complete);

#endif
