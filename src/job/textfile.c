/* SPDX-License-Identifier: BSD-3-Clause */
/* --textfile-dir: each host's OpenMetrics file (report/openmetrics.h), written on the host by
 * its first rank for node_exporter there. The directory is checked on every host before anything
 * is measured; at the end the ranks of a host send that rank their headline cells and their
 * /hosts facts, so that a host with a rank per NUMA node has one file with every rank's cells. */
#include "job/job.h"

#include "host/balancing.h"
#include "report/openmetrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum nprb_status nprb_job_textfile_check(struct nprb_job *job)
{
    enum nprb_status st = NPRB_OK;
    char err[2 * PATH_MAX];
    if (job->cli->textfile_dir == NULL)
        return NPRB_OK;
    /* The directory is node-local: each host answers for its own. */
    if (job->fleet->host_rank == 0 &&
        nprb_om_check_dir(job->cli->textfile_dir, err, sizeof err) != 0) {
        NPRB_ERROR(job->log, "%s (host %s; --textfile-dir)", err, job->fleet->hostname);
        st = NPRB_ERR_USAGE;
    }
    return nprb_fleet_worst(job->fleet, st);
}

/* What one rank tells its host's first rank beside its cells. */
struct rank_facts {
    struct nprb_host_row host;
    int32_t not_restored;
    int32_t cells;
};

/* The job's start (rank 0's, ISO 8601 UTC) in seconds since the epoch; NaN if it does not
 * parse. */
static double start_seconds(const char *utc)
{
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    const char *end = strptime(utc, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return end != NULL && *end == '\0' ? (double)timegm(&tm) : NAN;
}

/* The host's first rank: the file from every rank's facts and @p n cells (slots of the host's
 * ranks, the unused ones without a figure). */
static void write_host(struct nprb_job *job, const struct rank_facts *facts,
                       struct nprb_om_cell *cells, size_t n, const char *run_id)
{
    const struct nprb_host_row *first = &facts[0].host;
    char fingerprint[17], err[2 * PATH_MAX];
    nprb_config_fingerprint(&job->cfg, fingerprint, sizeof fingerprint);
    struct nprb_om_host host = {.host = first->hostname,
                                .node_type = first->node_type,
                                .fingerprint = first->fingerprint,
                                .os_kernel = first->kernel,
                                .run_id = run_id,
                                .config_fingerprint = fingerprint,
                                .ok = true,
                                .start_s = start_seconds(job->start_utc)};
    for (int r = 0; r < job->fleet->host_size; r++) {
        host.ok = host.ok && strcmp(facts[r].host.status, NPRB_ROW_OK) == 0;
        host.not_restored = host.not_restored || facts[r].not_restored;
    }
    if (nprb_om_write(job->cli->textfile_dir, &host, cells, n, err, sizeof err) != 0)
        NPRB_WARN(job->log,
                  "%s (host %s; --textfile-dir): Prometheus keeps the host's previous figures; "
                  "the results file is not affected",
                  err, job->fleet->hostname);
    else
        NPRB_DEBUG(job->log, "%s: %zu figure(s) to %s/" NPRB_OM_FILE, job->fleet->hostname, n,
                   job->cli->textfile_dir);
}

void nprb_job_textfile_write(struct nprb_job *job)
{
    const struct nprb_fleet *fleet = job->fleet;
    if (job->cli->textfile_dir == NULL)
        return;
    /* The run id every host's file names is the results file's: rank 0's. */
    char run_id[48] = "";
    if (fleet->rank == 0)
        nprb_collector_run_id(&job->collector, run_id, sizeof run_id);
    nprb_fleet_bcast_text(fleet, run_id, (int)sizeof run_id);

    struct rank_facts mine;
    memset(&mine, 0, sizeof mine);
    const struct nprb_rows *hosts = &job->results.tables[NPRB_TABLE_HOSTS];
    if (hosts->count > 0)
        memcpy(&mine.host, nprb_row_at(hosts, 0), sizeof mine.host);
    mine.not_restored = job->prov.restore_outcome == NPRB_RECOVERY_FAILED;
    size_t count = nprb_om_cells(&job->results, NULL, 0);
    mine.cells = count < INT32_MAX / sizeof(struct nprb_om_cell) ? (int32_t)count : 0;
    struct rank_facts *facts = calloc((size_t)fleet->host_size, sizeof *facts);
    if (facts == NULL)
        nprb_fleet_abort(fleet, 1);
    nprb_fleet_host_allgather(fleet, &mine, facts, (int)sizeof mine);

    /* Every rank's cells in slots of the largest count on the host, gathered in one call; the
     * writer skips the slots a rank left empty. */
    int most = 0;
    for (int r = 0; r < fleet->host_size; r++)
        most = facts[r].cells > most ? facts[r].cells : most;
    size_t slots = (size_t)most > 0 ? (size_t)most : 1;
    struct nprb_om_cell *own = calloc(slots, sizeof *own);
    struct nprb_om_cell *all = calloc(slots * (size_t)fleet->host_size, sizeof *all);
    if (own == NULL || all == NULL)
        nprb_fleet_abort(fleet, 1);
    nprb_om_cells(&job->results, own, (size_t)mine.cells);
    for (int i = mine.cells; i < most; i++)
        own[i].value = NAN; /* a slot without a cell */
    if (most > 0)
        nprb_fleet_host_allgather(fleet, own, all, most * (int)sizeof *own);
    if (fleet->host_rank == 0)
        write_host(job, facts, all, (size_t)most * (size_t)fleet->host_size, run_id);
    free(all);
    free(own);
    free(facts);
}
