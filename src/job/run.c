/* SPDX-License-Identifier: BSD-3-Clause */
/* The job sequence, on every rank: config (read by rank 0, parsed everywhere), topology and the
 * binding step, the plan, the output, the measurements in turns with heartbeats, the watchdog and
 * the checkpoints, then the gather to rank 0 (job/collector.c) and one status for every rank. The
 * /hosts row comes from job/host_row.c; every MPI call goes through fleet/. */
#include "job/run.h"

#include "job/collector.h"
#include "job/host_row.h"
#include "host/binding.h"
#include "results/checkpoint.h"
#include "results/plausibility.h"
#include "config/config.h"
#include "experiments/experiment.h"
#include "util/fault.h"
#include "results/h5out.h"
#include "host/omp_env.h"
#include "results/output.h"
#include "host/place.h"
#include "experiments/plan.h"
#include "host/provenance.h"
#include "results/results.h"
#include "util/timer.h"
#include "host/topo.h"
#include "host/topo_record.h"
#include "util/watchdog.h"
#include "version.h"

#include <errno.h>
#include <limits.h>
#include <omp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
    struct nprb_collector collector; /* rank 0's side of the file; the root attributes on all */
    struct nprb_output_lock lock;    /* rank 0: the output's lock, held for the whole job */
    char output[PATH_MAX];
    char start_utc[32];
    char job_identity[128]; /* rank 0's host, PID and start: each checkpoint names its job */
    uint64_t start_ns;
    enum nprb_status measured; /* worst status of this rank's measurements */
    char first_failure[NPRB_NOTE_LEN];
    struct nprb_binding binding; /* the binding step's outcome; its check for the /hosts row */
    struct nprb_checkpoint checkpoint;
    bool checkpointing;            /* off by config, or after a checkpoint could not be written */
    struct nprb_watchdog watchdog; /* rank 0: times each of its own measurements */
    pthread_mutex_t results_lock;  /* rank 0: results.lock, for the watchdog's copy */
};

/* Rank 0 reads the file and broadcasts its text: the config need only exist where the job was
 * submitted. Every rank then parses the same text, so a config error is reported identically. */
static enum nprb_status load_config(struct job *job)
{
    char err[512] = "";
    int ok = 1;
    char *text = NULL;
    if (job->fleet->rank == 0 && job->cli->config_path != NULL)
        ok = nprb_config_read_file(job->cli->config_path, &text, err, sizeof err) == 0;
    nprb_fleet_bcast_ints(job->fleet, &ok, 1);
    if (!ok) {
        NPRB_ERROR(job->log, "%s", err);
        return NPRB_ERR_USAGE;
    }
    nprb_config_defaults(&job->cfg);
    if (job->cli->config_path != NULL) {
        text = nprb_fleet_bcast_new_text(job->fleet, text);
        if (text == NULL)
            return NPRB_ERR_NOMEM;
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
        char stamp[32];
        nprb_utc_now(stamp, sizeof stamp, true);
        snprintf(job->output, sizeof job->output, "numaprobe-%s.h5", stamp);
        /* The path as given: one past PATH_MAX is refused, not cut short. */
        const char *path = job->cli->output_path != NULL ? job->cli->output_path : job->output;
        ok = nprb_output_begin(path, job->cli->force, job->cfg.checkpoints, &job->lock,
                               &job->collector.h5, aside, sizeof aside, warning, sizeof warning,
                               err, sizeof err) == 0;
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
    nprb_fleet_bcast_ints(job->fleet, &ok, 1);
    nprb_fleet_bcast_text(job->fleet, job->output, (int)sizeof job->output);
    nprb_fleet_bcast_text(job->fleet, job->start_utc, (int)sizeof job->start_utc);
    nprb_fleet_bcast_text(job->fleet, job->job_identity, (int)sizeof job->job_identity);
    return ok ? NPRB_OK : NPRB_ERR_USAGE;
}

/* This rank's /hosts row as it stands (job/host_row.h). */
static void fill_host_row(const struct job *job, struct nprb_host_row *h, const char *status)
{
    struct nprb_host_facts facts = {.fleet = job->fleet,
                                    .topo = job->topo,
                                    .prov = &job->prov,
                                    .binding = &job->binding,
                                    .dimm_speed_mts = job->cfg.dimm_speed_mts,
                                    .memory_channels = job->cfg.memory_channels,
                                    .start_ns = job->start_ns};
    nprb_host_row_fill(h, &facts, status);
}

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
    enum nprb_experiment_id exp = job->plan.items[first].experiment;
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

static void checkpoint_attributes(struct nprb_h5 *h5, void *arg)
{
    const struct job *job = arg;
    nprb_collector_write_attributes(&job->collector, h5, 0);
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
    struct nprb_results mine;
    struct nprb_host_row host;
    nprb_results_init(&mine);
    fill_host_row(job, &host, "hung");
    NPRB_SET_TEXT(host.error, why);
    if (nprb_results_copy(&mine, &job->results) != 0 ||
        nprb_results_add(&mine, NPRB_TABLE_HOSTS, &host) != 0)
        nprb_fleet_abort(job->fleet, 1);
    nprb_collector_gather_without_rank0(&job->collector, &mine, ran_s);
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
    job->collector = (struct nprb_collector){
        .fleet = fleet,
        .log = log,
        .cfg = &job->cfg,
        .prov = &job->prov,
        .lock = &job->lock,
        .output = job->output,
        .start_utc = job->start_utc,
        .command_line = command_line,
        .config_yaml = job->config_yaml,
        .config_source = cli->config_path != NULL ? cli->config_path : "built-in defaults",
        .job_identity = job->job_identity,
    };
    omp_set_dynamic(0); /* every parallel region gets the threads it asks for, or says why not */
    if (omp_get_max_active_levels() < 1)
        omp_set_max_active_levels(1); /* OMP_MAX_ACTIVE_LEVELS=0 would run every region alone */
    job->start_ns = nprb_now_ns();
    job->collector.start_ns = job->start_ns;
    nprb_results_init(&job->results);
    nprb_utc_now(job->start_utc, sizeof job->start_utc, false);

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
    enum nprb_status written = nprb_collector_gather(&job->collector, &job->results);
    if (job->collector.lost_ranks > 0) {
        /* The hung ranks will never reach the collectives below: end the whole job here, with
         * the file written and the exit code of a partial result. */
        NPRB_ERROR(log, "%d rank(s) hung; results of the others are in %s; ending the job",
                   job->collector.lost_ranks, job->output);
        nprb_output_unlock(&job->lock);
        fflush(stdout);
        nprb_fleet_abort(fleet, NPRB_EXIT_PARTIAL);
    }
    /* Rank 0 alone knows whether the file was written and how many ranks reported a failed host;
     * every rank needs both to return the same status. */
    int outcome[2] = {(int)written, job->collector.failed_hosts};
    nprb_fleet_bcast_ints(fleet, outcome, 2);
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
    if (job->collector.h5 != NULL)
        nprb_h5_discard(job->collector.h5);
    nprb_output_unlock(&job->lock); /* last: the checkpoints were removed or kept by now */
    nprb_plan_free(&job->plan);
    nprb_topo_destroy(job->topo);
    if (job->results.lock != NULL)
        pthread_mutex_destroy(job->results.lock);
    nprb_results_free(&job->results);
    free(job);
    return st;
}
