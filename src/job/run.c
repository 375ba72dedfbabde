/* SPDX-License-Identifier: BSD-3-Clause */
#include "job/run.h"

#include "host/binding.h"
#include "results/checkpoint.h"
#include "results/plausibility.h"
#include "config/config.h"
#include "experiments/experiment.h"
#include "util/fault.h"
#include "results/h5out.h"
#include "kernels/stream.h"
#include "host/omp_env.h"
#include "results/output.h"
#include "host/place.h"
#include "experiments/plan.h"
#include "host/provenance.h"
#include "results/report.h"
#include "results/report_sweeps.h"
#include "results/results.h"
#include "util/timer.h"
#include "host/topo.h"
#include "host/topo_record.h"
#include "version.h"
#include "util/watchdog.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <omp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Node types whose first host rank 0's report shows in full (beyond them, report_hosts alone). */
#define NPRB_REPORT_TYPES 64

/* Everything one rank works with during the job. */
struct job {
    const struct nprb_cli *cli;
    struct nprb_fleet *fleet;
    const struct nprb_log *log;
    struct nprb_config cfg;
    char config_yaml[NPRB_CONFIG_TEXT_MAX];
    struct nprb_topo *topo;
    struct nprb_plan plan;
    struct nprb_provenance prov;
    struct nprb_results results;
    struct nprb_h5 *h5;           /* rank 0 only */
    struct nprb_output_lock lock; /* rank 0: the output's lock, held for the whole job */
    char output[PATH_MAX];
    char start_utc[32];
    char job_identity[128]; /* rank 0's host, PID and start: each checkpoint names its job */
    uint64_t start_ns;
    enum nprb_status measured; /* worst status of this rank's measurements */
    bool sweeps_printed;       /* rank 0's report shows one rank's sweep tables */
    FILE *sweep_out;           /* ... gathered here and printed after the host table */
    char first_failure[NPRB_NOTE_LEN];
    int failed_hosts;
    int lost_ranks;                   /* rank 0: ranks given up as hung by the gather's watchdog */
    uint64_t write_ns;                /* rank 0: time spent writing and reporting gathered rows */
    int narrow_ranks;                 /* rank 0: ranks whose binding check failed ... */
    char narrow_hosts[NPRB_TEXT_LEN]; /* ... and the first of their hosts, by name */
    const char *command_line;
    struct nprb_binding binding; /* the binding step's outcome; its check for the /hosts row */
    struct nprb_checkpoint checkpoint;
    bool checkpointing; /* off by config, or after a checkpoint could not be written */
    int shown_types;    /* rank 0: node types the report has shown */
    int line_reports;   /* rank 0: ranks the report gave one line */
    char shown_type[NPRB_REPORT_TYPES][17]; /* (fingerprints) */
    struct nprb_watchdog watchdog;          /* rank 0: times each of its own measurements */
    pthread_mutex_t results_lock;           /* rank 0: results.lock, for the watchdog's copy */
};

/* ISO 8601 for the file's attributes; compact for a default file name. */
static void utc_now(char *buf, size_t len, bool for_file_name)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    if (for_file_name)
        strftime(buf, len, "numaprobe-%Y%m%dT%H%M%SZ.h5", &tm);
    else
        strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Rank 0 reads the file and broadcasts its text: the config need only exist where the job was
 * submitted. Every rank then parses the same text, so a config error is reported identically. */
static enum nprb_status load_config(struct job *job)
{
    char err[512] = "";
    int ok = 1;
    char *text = NULL;
    long len = 0;
    if (job->fleet->rank == 0 && job->cli->config_path != NULL) {
        ok = nprb_config_read_file(job->cli->config_path, &text, err, sizeof err) == 0;
        len = ok ? (long)strlen(text) + 1 : 0;
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, job->fleet->world);
    if (!ok) {
        NPRB_ERROR(job->log, "%s", err);
        return NPRB_ERR_USAGE;
    }
    nprb_config_defaults(&job->cfg);
    if (job->cli->config_path != NULL) {
        MPI_Bcast(&len, 1, MPI_LONG, 0, job->fleet->world);
        if (job->fleet->rank != 0)
            text = malloc((size_t)len);
        if (text == NULL)
            return NPRB_ERR_NOMEM;
        MPI_Bcast(text, (int)len, MPI_CHAR, 0, job->fleet->world);
        ok = nprb_config_load_text(&job->cfg, text, job->cli->config_path, err, sizeof err) == 0;
        free(text);
    }
    for (int i = 0; ok && i < job->cli->set_count; i++)
        ok = nprb_config_set(&job->cfg, job->cli->sets[i], err, sizeof err) == 0;
    if (!ok) {
        if (job->fleet->rank == 0)
            NPRB_ERROR(job->log, "%s", err);
        return NPRB_ERR_USAGE;
    }
    nprb_config_to_yaml(&job->cfg, job->config_yaml, sizeof job->config_yaml);
    return NPRB_OK;
}

/* The binding step: every rank of the host shares which nodes its launcher binding reaches, then
 * each settles its own binding and its share of the nodes (host/binding.h). */
static void settle_binding(struct job *job)
{
    const struct nprb_fleet *fleet = job->fleet;
    uint64_t mine[NPRB_BINDING_MASK_WORDS];
    uint64_t *all = calloc((size_t)fleet->host_size * NPRB_BINDING_MASK_WORDS, sizeof *all);
    if (all == NULL)
        nprb_fleet_abort(fleet, 1);
    nprb_binding_reach(job->topo, mine);
    nprb_fleet_host_allgather(fleet, mine, all, (int)sizeof mine);
    nprb_binding_settle(job->topo, &job->prov, all, fleet->host_size, fleet->host_rank,
                        job->cli->respect_binding, &job->binding);
    free(all);
}

/* Topology, then the binding step (it may widen the CPUs this rank uses, and shares the host's
 * nodes out among its ranks), then the plan that follows from both. */
static enum nprb_status discover(struct job *job)
{
    char err[512];
    enum nprb_status status = NPRB_OK;
    /* Before hwloc reads the binding: what OMP_PROC_BIND did to the main thread is not the
     * launcher's doing, and numaprobe's own pinning must start from the launcher's CPUs. */
    struct nprb_omp_env omp;
    if (nprb_omp_env_undo_binding(&omp, err, sizeof err) != 0)
        NPRB_WARN(job->log, "%s", err);
    if (nprb_topo_create(&job->topo, NULL, err, sizeof err) != 0) {
        NPRB_ERROR(job->log, "topology of %s: %s", job->fleet->hostname, err);
        status = NPRB_ERR_SYSTEM;
    }
    /* HWLOC_XMLFILE and its kind describe another machine: fine for planning (--dry-run, the
     * tests), never for measuring, where every pinned thread and bound page would be fiction. */
    if (status == NPRB_OK && !job->cli->dry_run &&
        nprb_topo_check_here(job->topo, err, sizeof err) != 0) {
        NPRB_ERROR(job->log, "topology of %s: %s", job->fleet->hostname, err);
        status = NPRB_ERR_USAGE;
    }
    const char *xml = getenv("HWLOC_XMLFILE");
    if (status == NPRB_OK && xml != NULL && getenv("HWLOC_THISSYSTEM") == NULL &&
        nprb_topo_is_this_system(job->topo) && job->fleet->rank == 0)
        NPRB_WARN(job->log,
                  "HWLOC_XMLFILE=%.200s: hwloc did not load it (missing, or not hwloc XML) and "
                  "described this machine instead",
                  xml);
    if ((status = nprb_fleet_worst(job->fleet, status)) != NPRB_OK)
        return status;
    nprb_provenance_collect(&job->prov);
    snprintf(job->prov.omp_undone, sizeof job->prov.omp_undone, "%s", omp.note);
    snprintf(job->prov.omp_binder, sizeof job->prov.omp_binder, "%s", omp.binder);
    settle_binding(job);
    struct nprb_share share = {job->fleet->host_rank, job->binding.node_owner};
    if (nprb_plan_build(&job->plan, &job->cfg, job->topo, &share, err, sizeof err) != 0) {
        NPRB_ERROR(job->log, "%s (host %s)", err, job->fleet->hostname);
        status = NPRB_ERR_USAGE;
    }
    return nprb_fleet_worst(job->fleet, status);
}

/* Rank 0 checks the output path and locks it for the whole job, before anything is measured. */
static enum nprb_status open_output(struct job *job)
{
    int ok = 1;
    char err[2 * PATH_MAX + 256], aside[PATH_MAX], warning[PATH_MAX + 128];
    if (job->fleet->rank == 0) {
        utc_now(job->output, sizeof job->output, true);
        /* The path as given: one past PATH_MAX is refused, not cut short. */
        const char *path = job->cli->output_path != NULL ? job->cli->output_path : job->output;
        ok = nprb_output_begin(path, job->cli->force, job->cfg.checkpoints, &job->lock, &job->h5,
                               aside, sizeof aside, warning, sizeof warning, err, sizeof err) == 0;
        if (!ok)
            NPRB_ERROR(job->log, "%s", err);
        else
            snprintf(job->output, sizeof job->output, "%s", path);
        if (ok && warning[0])
            NPRB_WARN(job->log, "%s", warning);
        if (ok && aside[0])
            NPRB_WARN(job->log,
                      "an earlier job's checkpoints were in the way; moved to %s (numaprobe "
                      "merge %s -o FILE recovers that job's results)",
                      aside, aside);
    }
    /* Rank 0's start time is the job's (checkpoints of one job must agree for merge). */
    snprintf(job->job_identity, sizeof job->job_identity, "%s pid %ld %s", job->fleet->hostname,
             (long)getpid(), job->start_utc);
    MPI_Bcast(&ok, 1, MPI_INT, 0, job->fleet->world);
    nprb_fleet_bcast_text(job->fleet, job->output, (int)sizeof job->output);
    nprb_fleet_bcast_text(job->fleet, job->start_utc, (int)sizeof job->start_utc);
    nprb_fleet_bcast_text(job->fleet, job->job_identity, (int)sizeof job->job_identity);
    return ok ? NPRB_OK : NPRB_ERR_USAGE;
}

/* The textbook's yardstick: channels x transfer rate x 8 bytes per transfer. The config can
 * give what the firmware does not say (a speed SMBIOS leaves 0, channels with 2 DIMMs each). */
static void theoretical_peak(const struct job *job, struct nprb_host_row *h)
{
    const struct nprb_dimms *d = &nprb_topo_summary(job->topo)->dimms;
    int speed = job->cfg.dimm_speed_mts > 0 ? job->cfg.dimm_speed_mts : d->speed_mts;
    int channels = job->cfg.memory_channels > 0 ? job->cfg.memory_channels : d->count;
    if (speed <= 0 || channels <= 0)
        return;
    h->peak_gbs = (double)channels * speed * 8 / 1e3;
    snprintf(h->peak_basis, sizeof h->peak_basis, "%d channels (%s) x %d MT/s (%s) x 8 B", channels,
             job->cfg.memory_channels > 0 ? "config" : "one per module", speed,
             job->cfg.dimm_speed_mts > 0 ? "config" : d->source);
}

/* This rank's /hosts row as it stands: @p status is "running" in checkpoints, then ok/failed. */
static void fill_host_row(struct job *job, struct nprb_host_row *h, const char *status)
{
    const struct nprb_topo_summary *s = nprb_topo_summary(job->topo);
    memset(h, 0, sizeof *h);
    h->rank = job->fleet->rank;
    h->host_index = job->fleet->host_index;
    h->ranks_on_host = job->fleet->host_size;
    NPRB_SET_TEXT(h->hostname, job->fleet->hostname);
    NPRB_SET_TEXT(h->fingerprint, s->fingerprint);
    NPRB_SET_TEXT(h->node_type, s->label);
    NPRB_SET_TEXT(h->cpu_model, s->cpu_model);
    h->packages = s->packages;
    h->numa_nodes = s->numa_nodes;
    h->cores = s->cores;
    h->pus = s->pus;
    h->memory_bytes = s->memory_bytes;
    h->l1d_bytes = s->l1d_bytes;
    h->l2_bytes = s->l2_bytes;
    h->l3_bytes = s->l3_bytes;
    NPRB_SET_TEXT(h->kernel, job->prov.kernel);
    NPRB_SET_TEXT(h->thp_mode, job->prov.thp_mode);
    h->numa_balancing = job->prov.numa_balancing;
    NPRB_SET_TEXT(h->governor, job->prov.governor);
    NPRB_SET_TEXT(h->boost, job->prov.boost);
    NPRB_SET_TEXT(h->launcher, job->prov.launcher);
    NPRB_SET_TEXT(h->omp_env, job->prov.omp_env);
    NPRB_SET_TEXT(h->cpuset_cpus, job->prov.cpuset_cpus);
    NPRB_SET_TEXT(h->cpuset_mems, job->prov.cpuset_mems);
    NPRB_SET_TEXT(h->cgroup, job->prov.cgroup);
    NPRB_SET_TEXT(h->scheduler, job->prov.scheduler);
    if (s->dimms.count > 0)
        snprintf(h->dimms, sizeof h->dimms, "%s (%s)", s->dimms.layout, s->dimms.source);
    h->dimm_speed_mts = s->dimms.speed_mts;
    theoretical_peak(job, h);
    NPRB_SET_TEXT(h->simd_path, nprb_simd_path());
    NPRB_SET_TEXT(h->usable_cpus, s->bound_cpus);
    NPRB_SET_TEXT(h->binding_check, job->binding.text);
    NPRB_SET_TEXT(h->job_id, job->prov.job_id);
    NPRB_SET_TEXT(h->status, status);
    h->elapsed_s = (double)(nprb_now_ns() - job->start_ns) * 1e-9;
}

/* Keeps the first failure note of this rank for its /hosts row. */
/* Keeps the first failure of this rank for its /hosts row: the note of the row the failing
 * measurement just appended, found through the table's field descriptors. */
static void note_failure(struct job *job, enum nprb_status status, enum nprb_table_id table)
{
    if ((status != NPRB_ERR_NOMEM && status != NPRB_ERR_SYSTEM) || job->first_failure[0])
        return;
    const struct nprb_rows *rows = &job->results.tables[table];
    const struct nprb_table_desc *desc = nprb_table_desc(table);
    if (rows->count == 0)
        return;
    for (size_t f = 0; f < desc->field_count; f++) {
        if (strcmp(desc->fields[f].name, "note") == 0) {
            const char *note = (const char *)rows->data + (rows->count - 1) * rows->row_bytes +
                               desc->fields[f].offset;
            NPRB_SET_TEXT(job->first_failure, note);
            return;
        }
    }
}

/* One line per phase, not per measurement: batch logs are files people read. The time left: the
 * wall-clock parts still to come (sample times, durations), plus the machine-bound parts scaled
 * by what the finished ones really took. */
static void progress_phase(const struct job *job, size_t first, uint64_t t0)
{
    size_t count = 0;
    struct nprb_item_cost done = {0, 0}, left = {0, 0};
    const struct nprb_experiment *exp = job->plan.items[first].experiment;
    for (size_t k = first; k < job->plan.count && job->plan.items[k].experiment == exp; k++)
        count++;
    for (size_t k = 0; k < job->plan.count; k++) {
        struct nprb_item_cost c = nprb_plan_item_cost(&job->plan.items[k]);
        struct nprb_item_cost *sum = k < first ? &done : &left;
        sum->scaled_s += c.scaled_s;
        sum->fixed_s += c.fixed_s;
    }
    char eta[64] = "";
    if (first > 0 && done.scaled_s > 0) {
        double elapsed = (double)(nprb_now_ns() - t0) * 1e-9;
        double scaled =
            elapsed - done.fixed_s > elapsed / 10 ? elapsed - done.fixed_s : elapsed / 10;
        snprintf(eta, sizeof eta, ", about %.0f s left",
                 left.fixed_s + left.scaled_s * scaled / done.scaled_s);
    }
    nprb_log_progress(job->log, "%s: %zu measurement(s) (%zu of %zu done%s)",
                      nprb_experiment_name(exp), count, first, job->plan.count, eta);
}

static void write_attributes(struct job *job, struct nprb_h5 *h5, int complete);

static void checkpoint_attributes(struct nprb_h5 *h5, void *arg)
{
    write_attributes(arg, h5, 0);
}

/* This rank's rows so far into its checkpoint; with @p complete its final /hosts row. A
 * checkpoint that cannot be written is a warning: the measurement itself goes on. */
static void save_checkpoint(struct job *job, bool complete)
{
    if (!job->checkpointing)
        return;
    struct nprb_host_row host;
    const struct nprb_rows *hosts = &job->results.tables[NPRB_TABLE_HOSTS];
    if (complete && hosts->count > 0) {
        host = *(const struct nprb_host_row *)hosts->data;
    } else {
        fill_host_row(job, &host, "running");
    }
    char err[PATH_MAX + 128];
    if (nprb_checkpoint_write(&job->checkpoint, &job->results, &host, checkpoint_attributes, job,
                              complete, err, sizeof err) != 0) {
        NPRB_WARN(job->log, "%s; going on without checkpoints", err);
        job->checkpointing = false;
    }
}

/* Faults the fleet tests inject (NUMAPROBE_FAULT, see fault.h), at the start of a phase. */
static void inject_rank_faults(const struct job *job, size_t item)
{
    int rank = job->fleet->rank, last = job->fleet->size - 1;
    bool hang = (item == 0 && last > 0 && rank == last && nprb_fault("hang_last_rank")) ||
                (item == 0 && last > 0 && rank == 1 && nprb_fault("hang_rank1")) ||
                (item > 0 && rank == 0 && nprb_fault("hang_rank0"));
    if (hang)
        for (;;)
            pause();
    if (item > 0 && last > 0 && rank == last && nprb_fault("kill_last_rank"))
        raise(SIGKILL);
}

static enum nprb_status gather_and_write(struct job *job, const struct nprb_results *mine);

/* Rank 0's watchdog thread, when one of rank 0's own measurements has run for twice `watchdog`:
 * nobody else can gather, so this thread writes what the job has (rank 0's rows so far and every
 * other host's) with a "hung" /hosts row for rank 0, and ends the job with exit 5. */
static void rank0_hung(void *arg, int item, double ran_s)
{
    struct job *job = arg;
    const struct nprb_plan_item *it = &job->plan.items[item];
    char why[NPRB_NOTE_LEN];
    snprintf(why, sizeof why, "watchdog: %s (node %d -> %d) ran for %.1f s (limit %.1f s)",
             nprb_experiment_name(it->experiment), it->cpu_node, it->mem_node, ran_s,
             2 * job->cfg.watchdog_s);
    NPRB_ERROR(job->log, "rank 0 on %s: %s", job->fleet->hostname, why);
    if (!job->fleet->thread_multiple) {
        NPRB_ERROR(job->log,
                   "this MPI library has no MPI_THREAD_MULTIPLE, so rank 0 cannot gather while it "
                   "hangs: ending the job; every rank's checkpoint is in %s (numaprobe merge)",
                   job->checkpoint.dir);
        nprb_output_unlock(&job->lock);
        nprb_fleet_abort(job->fleet, NPRB_EXIT_PARTIAL);
    }
    nprb_fleet_rank0_stuck(job->fleet, ran_s);
    struct nprb_results mine;
    struct nprb_host_row host;
    nprb_results_init(&mine);
    fill_host_row(job, &host, "hung");
    NPRB_SET_TEXT(host.error, why);
    if (nprb_results_copy(&mine, &job->results) != 0 ||
        nprb_results_add(&mine, NPRB_TABLE_HOSTS, &host) != 0)
        nprb_fleet_abort(job->fleet, 1);
    job->lost_ranks++;
    nprb_log_progress(job->log, "gathering results to rank 0 while rank 0 hangs");
    gather_and_write(job, &mine);
    NPRB_ERROR(job->log, "%d rank(s) hung; what the job has is in %s; ending the job",
               job->lost_ranks, job->output);
    nprb_output_unlock(&job->lock);
    fflush(stdout);
    nprb_fleet_abort(job->fleet, NPRB_EXIT_PARTIAL);
}

/* Rank 0 times its own measurements (2 x watchdog, as the gather times the other hosts). */
static void start_watchdog(struct job *job)
{
    if (job->fleet->rank != 0)
        return;
    if (nprb_watchdog_start(&job->watchdog, 2 * job->cfg.watchdog_s, rank0_hung, job) != 0)
        NPRB_WARN(job->log, "no watchdog thread (%s): a hang of rank 0 will not be caught",
                  strerror(errno));
}

/* This rank's final /hosts row and its complete checkpoint, as soon as its own measurements are
 * done: a rank that finished is "ok" in a merge even when the job dies while it waits for its
 * host's other turns or for the gather. Once only. */
static void finish_rank(struct job *job)
{
    if (job->results.tables[NPRB_TABLE_HOSTS].count > 0)
        return;
    struct nprb_host_row host;
    bool failed = job->measured == NPRB_ERR_NOMEM || job->measured == NPRB_ERR_SYSTEM;
    fill_host_row(job, &host, failed ? "failed" : "ok");
    NPRB_SET_TEXT(host.error, job->first_failure);
    nprb_results_add(&job->results, NPRB_TABLE_HOSTS, &host);
    save_checkpoint(job, true);
}

static void measure(void *arg)
{
    struct job *job = arg;
    struct nprb_context ctx = {.cfg = &job->cfg,
                               .topo = job->topo,
                               .log = job->log,
                               .results = &job->results,
                               .rank = job->fleet->rank,
                               .hostname = job->fleet->hostname};
    uint64_t t0 = nprb_now_ns();
    start_watchdog(job);
    for (size_t i = 0; i < job->plan.count; i++) {
        const struct nprb_plan_item *item = &job->plan.items[i];
        bool new_phase = i == 0 || item->experiment != job->plan.items[i - 1].experiment;
        if (new_phase && i > 0)
            save_checkpoint(job, false);
        if (new_phase)
            progress_phase(job, i, t0);
        nprb_fleet_heartbeat(job->fleet, (int)i, job->cfg.watchdog_s / 4);
        NPRB_DEBUG(job->log, "%s item %zu: node %d -> %d, %llu bytes",
                   nprb_experiment_name(item->experiment), i, item->cpu_node, item->mem_node,
                   (unsigned long long)item->size_bytes);
        nprb_watchdog_enter(&job->watchdog, (int)i);
        if (new_phase)
            inject_rank_faults(job, i);
        enum nprb_status st = nprb_experiment_measure(item->experiment)(&ctx, item);
        nprb_watchdog_leave(&job->watchdog);
        note_failure(job, st, nprb_experiment_table(item->experiment));
        job->measured = nprb_status_worst(job->measured, st);
        if (st == NPRB_ERR_VALIDATION)
            NPRB_ERROR(job->log, "%s on %s: a kernel produced a wrong answer (row marked invalid)",
                       nprb_experiment_name(item->experiment), job->fleet->hostname);
        else if (st != NPRB_OK)
            NPRB_WARN(job->log, "%s on %s could not be measured: %s",
                      nprb_experiment_name(item->experiment), job->fleet->hostname,
                      job->first_failure);
    }
    nprb_watchdog_stop(&job->watchdog);
    nprb_record_cache_levels(&ctx);
    nprb_flag_implausible(&job->results);
    finish_rank(job);
}

/* Rank 0's report: the first report_hosts hosts in full, then the first host of each node type
 * in full and the others one line each, so a batch log of thousands of hosts stays readable. */
static bool report_in_full(struct job *job, const struct nprb_host_row *host)
{
    bool new_type = host != NULL && job->shown_types < NPRB_REPORT_TYPES;
    for (int t = 0; new_type && t < job->shown_types; t++)
        new_type = strcmp(job->shown_type[t], host->fingerprint) != 0;
    if (new_type) {
        NPRB_SET_TEXT(job->shown_type[job->shown_types], host->fingerprint);
        job->shown_types++;
    }
    return job->cfg.report_hosts == 0 || host == NULL || host->host_index < job->cfg.report_hosts ||
           new_type;
}

static int write_rank(void *arg, int rank, const struct nprb_results *rows)
{
    struct job *job = arg;
    (void)rank;
    int rc = 0;
    uint64_t t0 = nprb_now_ns();
    for (int t = 0; t < NPRB_N_TABLES; t++)
        if (nprb_h5_append(job->h5, (enum nprb_table_id)t, rows->tables[t].data,
                           rows->tables[t].count) != 0)
            rc = -1;
    const struct nprb_rows *hosts = &rows->tables[NPRB_TABLE_HOSTS];
    const struct nprb_host_row *host =
        hosts->count > 0 ? (const struct nprb_host_row *)(const void *)hosts->data : NULL;
    if (host != NULL && strcmp(host->status, "ok") != 0)
        job->failed_hosts++;
    if (host != NULL && strncmp(host->binding_check, "narrow", 6) == 0 && job->narrow_ranks++ < 8) {
        size_t used = strlen(job->narrow_hosts);
        snprintf(job->narrow_hosts + used, sizeof job->narrow_hosts - used, "%s%s",
                 used > 0 ? ", " : "", host->hostname);
    }
    if (report_in_full(job, host)) {
        nprb_report_rank(stdout, rows);
    } else {
        nprb_report_rank_line(stdout, rows);
        job->line_reports++;
    }
    /* Sweep tables of the first rank that has them: enough to read a node type on a terminal;
     * every host's are in the file. */
    if (!job->sweeps_printed && job->sweep_out != NULL && nprb_report_has_sweeps(rows)) {
        nprb_report_sweeps(job->sweep_out, rows);
        job->sweeps_printed = true;
    }
    job->write_ns += nprb_now_ns() - t0;
    return rc;
}

/* The binding self-check over the fleet, as rank 0 saw it in the gathered /hosts rows. */
static void binding_summary(const struct job *job, char *buf, size_t len)
{
    snprintf(buf, len, "%d of %d rank(s) ok%s%s%s", job->fleet->size - job->narrow_ranks,
             job->fleet->size, job->narrow_ranks > 0 ? "; narrow on " : "", job->narrow_hosts,
             job->narrow_ranks > 8 ? ", ..." : "");
}

/* FNV-1a over @p len bytes, continuing from @p h. */
static uint64_t fnv1a_more(uint64_t h, const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)text[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* Config keys that do not change what is measured: left out of config_fingerprint. The report
 * applies the same rule to the `config` attribute (analysis/numaprobe_analysis/runs.py). */
static const char *const unmeasured_keys[] = {"report_hosts", "watchdog", "checkpoints", "memory"};

/* config_fingerprint: FNV-1a (16 hex digits) of the config echo's lines, each with its newline,
 * leaving out the lines of the keys above (a top-level `key: value`, or a section and its
 * indented lines). */
static void config_fingerprint(const char *yaml, char *out, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    bool skip = false;
    for (const char *line = yaml; *line != '\0';) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) + 1 : strlen(line);
        if (line[0] != ' ') {
            const char *colon = memchr(line, ':', n);
            size_t klen = colon ? (size_t)(colon - line) : n;
            skip = false;
            for (size_t i = 0; i < sizeof unmeasured_keys / sizeof unmeasured_keys[0]; i++)
                if (strlen(unmeasured_keys[i]) == klen &&
                    strncmp(line, unmeasured_keys[i], klen) == 0)
                    skip = true;
        }
        if (!skip)
            h = fnv1a_more(h, line, n);
        line += n;
    }
    snprintf(out, len, "%016" PRIx64, h);
}

/* run_id: UUID-like, from rank 0's host, PID and start (the job identity) and its start clock. */
static void run_id(const struct job *job, char *out, size_t len)
{
    uint64_t a = fnv1a_more(0xcbf29ce484222325ULL, job->job_identity, strlen(job->job_identity));
    uint64_t b = fnv1a_more(a ^ job->start_ns, (const char *)&job->start_ns, sizeof job->start_ns);
    snprintf(out, len, "%08" PRIx64 "-%04" PRIx64 "-%04" PRIx64 "-%04" PRIx64 "-%012" PRIx64,
             a >> 32, (a >> 16) & 0xffff, a & 0xffff, b >> 48, (uint64_t)(b & 0xffffffffffffULL));
}

static void write_attributes(struct job *job, struct nprb_h5 *h5, int complete)
{
    char end_utc[32];
    utc_now(end_utc, sizeof end_utc, false);
    const char *command_line = job->command_line;
    nprb_h5_attr_text(h5, "schema", NPRB_SCHEMA_NAME);
    nprb_h5_attr_text(h5, "schema_version", NPRB_SCHEMA_VERSION);
    nprb_h5_attr_text(h5, "software_version", NPRB_VERSION);
    nprb_h5_attr_text(h5, "git_revision", NPRB_GIT_REVISION);
    nprb_h5_attr_text(h5, "start_utc", job->start_utc);
    nprb_h5_attr_text(h5, "end_utc", end_utc);
    nprb_h5_attr_text(h5, "command_line", command_line);
    nprb_h5_attr_text(h5, "config", job->config_yaml);
    char fingerprint[17], id[40];
    config_fingerprint(job->config_yaml, fingerprint, sizeof fingerprint);
    nprb_h5_attr_text(h5, "config_fingerprint", fingerprint);
    run_id(job, id, sizeof id);
    nprb_h5_attr_text(h5, "run_id", id);
    nprb_h5_attr_text(h5, "config_source",
                      job->cli->config_path ? job->cli->config_path : "built-in defaults");
    nprb_h5_attr_text(h5, "mpi_library", job->fleet->mpi_library);
    nprb_h5_attr_int(h5, "world_size", job->fleet->size);
    nprb_h5_attr_int(h5, "host_count", job->fleet->host_count);
    nprb_h5_attr_text(h5, "scheduler", job->prov.scheduler);
    nprb_h5_attr_text(h5, "job_id", job->prov.job_id);
    nprb_h5_attr_int(h5, "complete", complete);
    nprb_h5_attr_int(h5, "hosts_ok", job->fleet->size - job->failed_hosts);
    nprb_h5_attr_int(h5, "hosts_failed", job->failed_hosts);
    char summary[NPRB_TEXT_LEN + 64];
    binding_summary(job, summary, sizeof summary);
    nprb_h5_attr_text(h5, "binding_summary", summary);
}

/* Rank 0: a rank given up as hung still has a /hosts row saying so (its checkpoint keeps what
 * it measured). */
static void write_hung_rank(void *arg, int rank, const char *why)
{
    struct job *job = arg;
    struct nprb_host_row h = {.rank = rank, .host_index = job->fleet->host_of_rank[rank]};
    for (int r = 0; r < job->fleet->size; r++)
        h.ranks_on_host += job->fleet->host_of_rank[r] == h.host_index;
    NPRB_SET_TEXT(h.hostname, job->fleet->name_of_rank[rank]);
    NPRB_SET_TEXT(h.status, "hung");
    NPRB_SET_TEXT(h.error, why);
    NPRB_ERROR(job->log, "rank %d on %s: %s", rank, h.hostname, h.error);
    nprb_h5_append(job->h5, NPRB_TABLE_HOSTS, &h, 1);
    job->failed_hosts++;
    job->lost_ranks++;
}

static enum nprb_status gather_and_write(struct job *job, const struct nprb_results *mine)
{
    char *sweep_text = NULL;
    size_t sweep_len = 0;
    if (job->fleet->rank == 0) {
        nprb_report_header(stdout);
        job->sweep_out = open_memstream(&sweep_text, &sweep_len);
    }
    uint64_t t0 = nprb_now_ns();
    int rc = nprb_fleet_gather(job->fleet, mine, write_rank, write_hung_rank, job,
                               2 * job->cfg.watchdog_s);
    if (job->fleet->rank != 0)
        return NPRB_OK;
    rc = rc < 0 ? rc : 0; /* a positive count of hung ranks is in job->lost_ranks */
    if (job->sweep_out != NULL) {
        fclose(job->sweep_out);
        job->sweep_out = NULL;
        if (sweep_text != NULL)
            fputs(sweep_text, stdout);
        free(sweep_text);
    }
    write_attributes(job, job->h5, rc == 0 && job->lost_ranks == 0);
    char summary[NPRB_TEXT_LEN + 64];
    binding_summary(job, summary, sizeof summary);
    if (job->narrow_ranks > 0)
        NPRB_WARN(job->log, "binding check: %s (see binding_check in /hosts)", summary);
    if (nprb_fault("kill_writer"))
        raise(SIGKILL); /* the test of a writer killed before its rename */
    if (nprb_fault("term_writer"))
        raise(SIGTERM); /* ... and of one stopped as a scheduler does at the time limit */
    char err[PATH_MAX + 128];
    if (nprb_h5_commit(job->h5, err, sizeof err) != 0) {
        job->h5 = NULL;
        NPRB_ERROR(job->log, "%s", err);
        return NPRB_ERR_SYSTEM;
    }
    job->h5 = NULL;
    double took = (double)(nprb_now_ns() - t0) * 1e-9;
    nprb_log_progress(
        job->log, "results of %d rank(s) gathered and written in %.3f s; writing %.2f ms a rank",
        job->fleet->size, took, 1e-6 * (double)job->write_ns / job->fleet->size);
    if (job->line_reports > 0)
        printf("%d rank(s) on one line each (report_hosts: %d); every host's matrices are in the "
               "file: numaprobe-report %s\n",
               job->line_reports, job->cfg.report_hosts, job->output);
    nprb_report_footer(stdout, job->output, job->fleet->host_count, job->fleet->size,
                       job->failed_hosts);
    fflush(stdout);
    return rc == 0 ? NPRB_OK : NPRB_ERR_SYSTEM;
}

static void start_checkpoints(struct job *job)
{
    char err[PATH_MAX + 128];
    if (!job->cfg.checkpoints)
        return;
    job->checkpointing = nprb_checkpoint_init(&job->checkpoint, job->output, job->job_identity,
                                              job->fleet->rank, err, sizeof err) == 0;
    if (!job->checkpointing)
        NPRB_WARN(job->log, "%s; going on without checkpoints", err);
    else if (job->checkpoint.aside[0])
        NPRB_WARN(job->log, "an earlier job's checkpoint of rank %d moved to %s (numaprobe merge)",
                  job->fleet->rank, job->checkpoint.aside);
}

static enum nprb_status prepare(struct job *job)
{
    char err[512];
    if (nprb_fault_check(err, sizeof err) != 0) {
        if (job->fleet->rank == 0)
            NPRB_ERROR(job->log, "%s", err);
        return NPRB_ERR_USAGE;
    }
    enum nprb_status st = load_config(job);
    if (st != NPRB_OK)
        return st;
    if (job->cli->show_config) {
        if (job->fleet->rank == 0)
            fputs(job->config_yaml, stdout);
        return NPRB_OK;
    }
    st = discover(job);
    if (st != NPRB_OK || job->cli->dry_run) {
        /* Every host's plan was checked; rank 0's is shown (hosts of one type plan alike). */
        if (st == NPRB_OK && job->fleet->rank == 0) {
            fputs(job->config_yaml, stdout);
            nprb_plan_print(stdout, &job->plan, job->topo);
            printf("config and plan ok on %d host(s); nothing measured\n", job->fleet->host_count);
        }
        return st;
    }
    return open_output(job);
}

enum nprb_status nprb_run(const struct nprb_cli *cli, const char *command_line,
                          struct nprb_fleet *fleet, const struct nprb_log *log)
{
    struct job *job = calloc(1, sizeof *job);
    if (job == NULL)
        return NPRB_ERR_NOMEM;
    job->cli = cli;
    job->fleet = fleet;
    job->log = log;
    job->command_line = command_line;
    omp_set_dynamic(0); /* every parallel region gets the threads it asks for, or says why not */
    if (omp_get_max_active_levels() < 1)
        omp_set_max_active_levels(1); /* OMP_MAX_ACTIVE_LEVELS=0 would run every region alone */
    job->start_ns = nprb_now_ns();
    nprb_results_init(&job->results);
    utc_now(job->start_utc, sizeof job->start_utc, false);

    enum nprb_status st = prepare(job);
    if (st != NPRB_OK || cli->show_config || cli->dry_run)
        goto out;

    nprb_log_progress(log, "numaprobe %s: %d rank(s) on %d host(s), results to %s", NPRB_VERSION,
                      fleet->size, fleet->host_count, job->output);
    if (fleet->rank == 0 && !cli->quiet)
        fprintf(stderr, "effective config:\n%s", job->config_yaml);

    const char *binding = job->binding.text;
    if (!job->binding.ok)
        NPRB_WARN(log, "binding on %s: %s%s", fleet->hostname, binding,
                  strncmp(binding, "narrow", 6) != 0 || strstr(binding, "OMP_THREAD_LIMIT")
                      ? ""
                      : " (launch with --bind-to none)");
    if (cli->strict && nprb_fleet_any(fleet, !job->binding.ok)) {
        if (fleet->rank == 0)
            NPRB_ERROR(log, "--strict: binding check failed on at least one host");
        st = NPRB_ERR_ENV;
        goto out;
    }
    nprb_topo_record(&job->results, job->topo, job->fleet->rank, job->fleet->host_rank == 0);
    start_checkpoints(job);
    if (fleet->rank == 0) {
        pthread_mutex_init(&job->results_lock, NULL);
        job->results.lock = &job->results_lock;
    }
    nprb_fleet_take_turns(fleet, measure, job, 2 * job->cfg.watchdog_s);
    nprb_topo_restore_binding(job->topo);
    if (fleet->stuck_rank > 0)
        NPRB_ERROR(log, "rank %d on this host (%s) hung in its turn: silent for %.1f s",
                   fleet->stuck_rank, fleet->hostname, fleet->stuck_silent_s);

    finish_rank(job); /* done in its turn; here only when the turn never came */

    nprb_log_progress(log, "measurements done, gathering results to rank 0");
    enum nprb_status written = gather_and_write(job, &job->results);
    if (job->lost_ranks > 0) {
        /* The hung ranks will never reach the collectives below: end the whole job here, with
         * the file written and the exit code of a partial result. */
        NPRB_ERROR(log, "%d rank(s) hung; results of the others are in %s; ending the job",
                   job->lost_ranks, job->output);
        nprb_output_unlock(&job->lock);
        fflush(stdout);
        nprb_fleet_abort(fleet, NPRB_EXIT_PARTIAL);
    }
    /* Rank 0 alone knows whether the file was written and how many ranks reported a failed host;
     * every rank needs both to return the same status. */
    int outcome[2] = {(int)written, job->failed_hosts};
    MPI_Bcast(outcome, 2, MPI_INT, 0, fleet->world);
    written = (enum nprb_status)outcome[0];
    st = nprb_fleet_worst(fleet, nprb_status_worst(written, job->measured));
    /* Failed hosts beside working ones make the job partial; all failing is a failure. */
    if ((st == NPRB_ERR_NOMEM || st == NPRB_ERR_SYSTEM) && written == NPRB_OK &&
        outcome[1] < fleet->size)
        st = NPRB_ERR_PARTIAL;
    /* Checkpoints have done their job once the file is written; a job that ended otherwise
     * keeps them for numaprobe merge. */
    if (job->checkpointing && written == NPRB_OK)
        nprb_checkpoint_remove(&job->checkpoint);
    else if (job->checkpoint.written)
        NPRB_WARN(log, "checkpoint kept: %s (numaprobe merge %s -o FILE)", job->checkpoint.path,
                  job->checkpoint.dir);
out:
    if (job->h5 != NULL)
        nprb_h5_discard(job->h5);
    nprb_output_unlock(&job->lock); /* last: the checkpoints were removed or kept by now */
    nprb_plan_free(&job->plan);
    nprb_topo_destroy(job->topo);
    if (job->results.lock != NULL)
        pthread_mutex_destroy(job->results.lock);
    nprb_results_free(&job->results);
    free(job);
    return st;
}
