/* SPDX-License-Identifier: BSD-3-Clause */
/* The rank-0 collector: every rank's rows arrive one rank at a time through the fleet's gather and
 * go straight to the results file and the stdout report, so rank 0's memory holds one rank's rows
 * whatever the size of the fleet. It also owns the root attributes (the file's and each
 * checkpoint's) and what becomes of ranks given up as hung, rank 0 included. */
#include "job/collector.h"

#include "experiments/registry.h"
#include "job/host_row.h"
#include "report/report.h"
#include "util/fault.h"
#include "util/hash.h"
#include "util/timer.h"
#include "version.h"

#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* Rank 0's report: the first report_hosts hosts in full, then the first host of each node type
 * in full and the others one line each, so a batch log of thousands of hosts stays readable. */
static bool report_in_full(struct nprb_collector *c, const struct nprb_host_row *host)
{
    bool new_type = host != NULL && c->shown_types < NPRB_REPORT_TYPES;
    for (int t = 0; new_type && t < c->shown_types; t++)
        new_type = strcmp(c->shown_type[t], host->fingerprint) != 0;
    if (new_type) {
        NPRB_SET_TEXT(c->shown_type[c->shown_types], host->fingerprint);
        c->shown_types++;
    }
    return c->cfg->report_hosts == 0 || host == NULL || host->host_index < c->cfg->report_hosts ||
           new_type;
}

int nprb_collector_take_rank(struct nprb_collector *c, const struct nprb_results *rows)
{
    int rc = 0;
    uint64_t t0 = nprb_now_ns();
    for (int t = 0; t < NPRB_N_TABLES; t++)
        if (nprb_h5_append(c->h5, (enum nprb_table_id)t, rows->tables[t].data,
                           rows->tables[t].count) != 0)
            rc = -1;
    const struct nprb_rows *hosts = &rows->tables[NPRB_TABLE_HOSTS];
    const struct nprb_host_row *host =
        hosts->count > 0 ? (const struct nprb_host_row *)(const void *)hosts->data : NULL;
    if (host != NULL && strcmp(host->status, NPRB_ROW_OK) != 0)
        c->failed_hosts++;
    if (host != NULL && host->binding_verdict == NPRB_BINDING_NARROW && c->narrow_ranks++ < 8) {
        size_t used = strlen(c->narrow_hosts);
        snprintf(c->narrow_hosts + used, sizeof c->narrow_hosts - used, "%s%s",
                 used > 0 ? ", " : "", host->hostname);
    }
    if (c->summary != NULL && nprb_summary_add_rank(c->summary, rows) != 0)
        rc = -1;
    if (report_in_full(c, host)) {
        nprb_experiments_host_report(c->report, rows);
    } else {
        nprb_report_rank_line(c->report, rows);
        c->line_reports++;
    }
    /* The experiments' sections (sweep tables and the like), each from the first rank whose
     * rows it has something to show for: enough to read a node type on a terminal; every host's
     * are in the file. */
    if (c->sweep_out != NULL)
        nprb_experiments_report(c->sweep_out, rows, &c->reported);
    c->write_ns += nprb_now_ns() - t0;
    return rc;
}

/* The gather's sink: the rank is in its rows. */
static int take_gathered(void *arg, int rank, const struct nprb_results *rows)
{
    (void)rank;
    return nprb_collector_take_rank(arg, rows);
}

/* Rank 0: a rank given up as hung still has a /hosts row saying so (its checkpoint keeps what
 * it measured). */
static void write_hung_rank(void *arg, int rank, const char *why)
{
    struct nprb_collector *c = arg;
    struct nprb_host_row h;
    nprb_host_row_hung(&h, c->fleet, rank, why);
    NPRB_ERROR(c->log, "rank %d on %s: %s", rank, h.hostname, h.error);
    nprb_h5_append(c->h5, NPRB_TABLE_HOSTS, &h, 1);
    if (c->summary != NULL)
        nprb_summary_add_host(c->summary, &h);
    c->failed_hosts++;
    c->lost_ranks++;
}

/* The binding self-check over the fleet, as rank 0 saw it in the gathered /hosts rows. */
static void binding_summary(const struct nprb_collector *c, char *buf, size_t len)
{
    snprintf(buf, len, "%d of %d rank(s) ok%s%s%s", c->fleet->size - c->narrow_ranks,
             c->fleet->size, c->narrow_ranks > 0 ? "; narrow on " : "", c->narrow_hosts,
             c->narrow_ranks > 8 ? ", ..." : "");
}

/* run_id: an RFC 9562 UUID of version 8 (the custom layout: only the version and variant bits
 * are the RFC's), its other 122 bits hashed from rank 0's host, PID and start (the job identity)
 * and its start clock, so every rank of a job derives the same one. */
void nprb_collector_run_id(const struct nprb_collector *c, char *out, size_t len)
{
    uint64_t a = nprb_fnv1a(NPRB_FNV1A_BASIS, c->job_identity, strlen(c->job_identity));
    uint64_t b = nprb_fnv1a(a ^ c->start_ns, (const char *)&c->start_ns, sizeof c->start_ns);
    snprintf(out, len, "%08" PRIx64 "-%04" PRIx64 "-%04" PRIx64 "-%04" PRIx64 "-%012" PRIx64,
             a >> 32, (a >> 16) & 0xffff, UINT64_C(0x8000) | (a & 0x0fff),
             UINT64_C(0x8000) | ((b >> 48) & 0x3fff), (uint64_t)(b & 0xffffffffffffULL));
}

void nprb_collector_write_attributes(const struct nprb_collector *c, struct nprb_h5 *h5,
                                     int complete)
{
    char end_utc[32];
    nprb_utc_now(end_utc, sizeof end_utc, false);
    nprb_h5_attr_text(h5, "schema", NPRB_SCHEMA_NAME);
    nprb_h5_attr_text(h5, "schema_version", NPRB_SCHEMA_VERSION);
    nprb_h5_attr_text(h5, "software_version", NPRB_VERSION);
    nprb_h5_attr_text(h5, "git_revision", NPRB_GIT_REVISION);
    nprb_h5_attr_text(h5, "start_utc", c->start_utc);
    nprb_h5_attr_text(h5, "end_utc", end_utc);
    nprb_h5_attr_text(h5, "command_line", c->command_line);
    nprb_h5_attr_text(h5, "config", c->config_yaml);
    char fingerprint[17], id[40];
    nprb_config_fingerprint(c->cfg, fingerprint, sizeof fingerprint);
    nprb_h5_attr_text(h5, "config_fingerprint", fingerprint);
    nprb_collector_run_id(c, id, sizeof id);
    nprb_h5_attr_text(h5, "run_id", id);
    nprb_h5_attr_text(h5, "config_source", c->config_source);
    nprb_h5_attr_text(h5, "mpi_library", c->fleet->mpi_library);
    nprb_h5_attr_int(h5, "world_size", c->fleet->size);
    nprb_h5_attr_int(h5, "host_count", c->fleet->host_count);
    nprb_h5_attr_text(h5, "scheduler", c->prov->scheduler);
    nprb_h5_attr_text(h5, "job_id", c->prov->job_id);
    nprb_h5_attr_int(h5, "complete", complete);
    nprb_h5_attr_int(h5, "hosts_ok", c->fleet->size - c->failed_hosts);
    nprb_h5_attr_int(h5, "hosts_failed", c->failed_hosts);
    char summary[NPRB_TEXT_LEN + 64];
    binding_summary(c, summary, sizeof summary);
    nprb_h5_attr_text(h5, "binding_summary", summary);
}

enum nprb_status nprb_collector_write_summary(const struct nprb_collector *c,
                                              enum nprb_status status, bool written)
{
    if (c->fleet->rank != 0 || c->summary == NULL)
        return NPRB_OK;
    char fingerprint[17], id[40], end_utc[32], err[PATH_MAX + 128];
    nprb_config_fingerprint(c->cfg, fingerprint, sizeof fingerprint);
    nprb_collector_run_id(c, id, sizeof id);
    nprb_utc_now(end_utc, sizeof end_utc, false);
    struct nprb_summary_job job = {.run_id = id,
                                   .config_fingerprint = fingerprint,
                                   .software_version = NPRB_VERSION,
                                   .start_utc = c->start_utc,
                                   .end_utc = end_utc,
                                   .results_file = c->output,
                                   .status = nprb_status_name(status),
                                   .exit_code = nprb_status_exit_code(status),
                                   .results_written = written,
                                   .ranks = c->fleet->size,
                                   .hosts = c->fleet->host_count,
                                   .hosts_failed = c->failed_hosts};
    if (nprb_summary_write(c->summary, &job, c->summary_path, err, sizeof err) != 0) {
        NPRB_ERROR(c->log, "%s", err);
        return NPRB_ERR_SYSTEM;
    }
    return NPRB_OK;
}

void nprb_collector_begin(struct nprb_collector *c)
{
    nprb_report_header(c->report);
    c->sweep_out = open_memstream(&c->sweep_text, &c->sweep_len);
    c->gather_start_ns = nprb_now_ns();
}

enum nprb_status nprb_collector_finish(struct nprb_collector *c, int rc)
{
    if (c->sweep_out != NULL) {
        fclose(c->sweep_out);
        c->sweep_out = NULL;
        if (c->sweep_text != NULL)
            fputs(c->sweep_text, c->report);
    }
    free(c->sweep_text);
    c->sweep_text = NULL;
    nprb_collector_write_attributes(c, c->h5, rc == 0 && c->lost_ranks == 0);
    char summary[NPRB_TEXT_LEN + 64];
    binding_summary(c, summary, sizeof summary);
    if (c->narrow_ranks > 0)
        NPRB_WARN(c->log, "binding check: %s (see binding_check in /hosts)", summary);
    if (nprb_fault(NPRB_FAULT_KILL_WRITER))
        raise(SIGKILL); /* the test of a writer killed before its rename */
    if (nprb_fault(NPRB_FAULT_TERM_WRITER))
        raise(SIGTERM); /* ... and of one stopped as a scheduler does at the time limit */
    char err[PATH_MAX + 128];
    if (nprb_h5_commit(c->h5, err, sizeof err) != 0) {
        c->h5 = NULL;
        NPRB_ERROR(c->log, "%s", err);
        return NPRB_ERR_SYSTEM;
    }
    c->h5 = NULL;
    double took = (double)(nprb_now_ns() - c->gather_start_ns) * 1e-9;
    nprb_log_progress(
        c->log, "results of %d rank(s) gathered and written in %.3f s; writing %.2f ms a rank",
        c->fleet->size, took, 1e-6 * (double)c->write_ns / c->fleet->size);
    if (c->line_reports > 0)
        fprintf(c->report,
                "%d rank(s) on one line each (report_hosts: %d); every host's matrices are in "
                "the file: numaprobe-report %s\n",
                c->line_reports, c->cfg->report_hosts, c->output);
    nprb_report_footer(c->report, c->output, c->fleet->host_count, c->fleet->size, c->failed_hosts);
    fflush(c->report);
    return rc == 0 ? NPRB_OK : NPRB_ERR_SYSTEM;
}

enum nprb_status nprb_collector_gather(struct nprb_collector *c, const struct nprb_results *mine)
{
    if (c->fleet->rank == 0)
        nprb_collector_begin(c);
    int rc = nprb_fleet_gather(c->fleet, mine, take_gathered, write_hung_rank, c,
                               2 * c->cfg->watchdog_s);
    if (c->fleet->rank != 0)
        return NPRB_OK;
    /* A positive count of hung ranks is in c->lost_ranks. */
    return nprb_collector_finish(c, rc < 0 ? rc : 0);
}

_Noreturn void nprb_collector_gather_without_rank0(struct nprb_collector *c,
                                                   const struct nprb_results *mine, double ran_s)
{
    nprb_fleet_rank0_stuck(c->fleet, ran_s);
    c->lost_ranks++;
    nprb_log_progress(c->log, "gathering results to rank 0 while rank 0 hangs");
    enum nprb_status written = nprb_collector_gather(c, mine);
    nprb_collector_write_summary(c, NPRB_ERR_PARTIAL, written == NPRB_OK);
    NPRB_ERROR(c->log, "%d rank(s) hung; what the job has is in %s; ending the job", c->lost_ranks,
               c->output);
    nprb_output_unlock(c->lock);
    nprb_output_unlock(c->summary_lock);
    fflush(stdout);
    nprb_fleet_abort(c->fleet, NPRB_EXIT_PARTIAL);
}
