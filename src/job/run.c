/* SPDX-License-Identifier: BSD-3-Clause */
/* The job sequence, on every rank: config (read by rank 0, parsed everywhere), topology and the
 * binding step, the plan, the output, then each rank's turn to measure (job/measure.c), the
 * gather to rank 0 (job/collector.c) and one status for every rank. Every MPI call goes through
 * fleet/. */
#include "job/run.h"

#include "plan/plan.h"
#include "plan/passes.h"
#include "experiments/registry.h"
#include "host/balancing.h"
#include "host/binding.h"
#include "host/omp_env.h"
#include "host/place.h"
#include "host/topo.h"
#include "host/topo_record.h"
#include "job/job.h"
#include "results/h5out.h"
#include "util/fault.h"
#include "util/timer.h"
#include "util/units.h"
#include "version.h"

#include <errno.h>
#include <limits.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Rank 0 reads the file and broadcasts its text: the config need only exist where the job was
 * submitted. Every rank then parses the same text, so a config error is reported identically. */
static enum nprb_status load_config(struct nprb_job *job)
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
    if (nprb_experiments_config_defaults(&job->cfg, err, sizeof err) != 0) {
        NPRB_ERROR(job->log, "%s", err);
        free(text);
        return NPRB_ERR_SYSTEM;
    }
    if (job->cli->config_path != NULL) {
        text = nprb_fleet_bcast_new_text(job->fleet, text);
        if (text == NULL)
            return NPRB_ERR_NOMEM;
        ok = nprb_config_load_text(&job->cfg, text, job->cli->config_path, err, sizeof err) == 0;
        free(text);
    }
    for (int i = 0; ok && i < job->cli->set_count; i++)
        ok = nprb_config_set(&job->cfg, job->cli->sets[i], err, sizeof err) == 0;
    if (ok && job->cli->time_budget != NULL)
        ok = nprb_config_set_option(&job->cfg, "--time-budget", "time_budget",
                                    job->cli->time_budget, err, sizeof err) == 0;
    if (ok)
        ok = nprb_experiments_only(&job->cfg, job->cli->only, err, sizeof err) == 0;
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
static void settle_binding(struct nprb_job *job)
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

/* The time budget, shared out among a host's ranks, which take turns: each keeps its floor and
 * gets the rest in proportion to what it could give up, so that a rank with little of its own
 * (no node, or only matrix rows) is not pushed below its floor while another keeps its sweeps.
 * Refused when the host's floors add up to more (collective: every rank calls it). */
static enum nprb_status fit_budget(struct nprb_job *job)
{
    double budget = job->cfg.time_budget_s;
    if (budget <= 0)
        return NPRB_OK;
    struct nprb_estimate full = nprb_plan_estimate(&job->plan, job->first_touch_bps);
    struct nprb_estimate floor = nprb_budget_floor(&job->plan, job->first_touch_bps);
    /* Refused or not is decided at the model's fixed rates: the measured fault rate swings with
     * whatever else the host is doing, and a config accepted once must be accepted every time.
     * The fitting below still uses the measured rate, which is what the run will see. */
    struct nprb_estimate fixed = nprb_budget_floor(&job->plan, 0);
    double mine[6] = {full.idle_s,  full.busy_s,  floor.idle_s,
                      floor.busy_s, fixed.idle_s, fixed.busy_s};
    double host[6], worst[6];
    nprb_fleet_estimate(job->fleet, mine, host, worst, 6);
    job->host_before = (struct nprb_estimate){host[0], host[1]};
    if (host[5] > budget) {
        char err[512];
        nprb_budget_refusal(budget, (struct nprb_estimate){host[4], host[5]}, err, sizeof err);
        if (job->fleet->host_rank == 0)
            NPRB_ERROR(job->log, "%s (host %s)", err, job->fleet->hostname);
        return NPRB_ERR_USAGE;
    }
    if (host[3] > budget && job->fleet->rank == 0) {
        char words[32], need[80];
        nprb_budget_words(budget, words, sizeof words);
        nprb_format_duration_range(host[2], host[3], need, sizeof need);
        NPRB_WARN(job->log,
                  "time_budget %s: the floor fits at the model's rates, but at the first-touch "
                  "rate measured now it needs %s; the plan is cut to its floor and may run over",
                  words, need);
    }
    double spare = host[1] - host[3];
    double room = budget > host[3] ? budget - host[3] : 0;
    double share =
        spare > 0 ? floor.busy_s + room * (full.busy_s - floor.busy_s) / spare : full.busy_s;
    nprb_budget_fit(&job->plan, share, budget, job->first_touch_bps, &job->budget);
    if (job->fleet->rank == 0 && !job->cli->dry_run && job->budget.dropped + job->budget.trimmed)
        NPRB_INFO(job->log,
                  "time_budget: %zu measurement(s) dropped and %zu trimmed to fewer samples to "
                  "fit; their rows say so, and --dry-run lists them",
                  job->budget.dropped, job->budget.trimmed);
    return NPRB_OK;
}

/* How fast this host hands out new memory, for the estimate: measured once per host, by its
 * first rank (ranks measuring at once would slow each other), and shared. A topology from
 * HWLOC_XMLFILE is another machine's, whose rate is not known here: 0, the model's. */
static double host_first_touch_bps(const struct nprb_job *job)
{
    char why[512];
    double rate = 0;
    if (job->fleet->host_rank == 0 && nprb_topo_check_here(job->topo, why, sizeof why) == 0)
        rate = nprb_first_touch_bps(64UL << 20, job->cfg.huge_pages);
    double *all = calloc((size_t)job->fleet->host_size, sizeof *all);
    if (all == NULL)
        nprb_fleet_abort(job->fleet, 1);
    nprb_fleet_host_allgather(job->fleet, &rate, all, (int)sizeof rate);
    rate = all[0];
    free(all);
    return rate;
}

/* Rank 0's dry run: the config, the plan, what the time budget dropped, and the estimate as a
 * range with what it assumes (hosts of one type plan alike). */
static void print_dry_run(const struct nprb_job *job, const double *host_s, const double *job_s)
{
    char range[80], whole[80], budget[32];
    fputs(job->config_yaml, stdout);
    nprb_plan_print(stdout, &job->plan, job->topo);
    const struct nprb_budget_fit *fit = &job->budget;
    if (job->cfg.time_budget_s > 0) {
        nprb_budget_words(job->cfg.time_budget_s, budget, sizeof budget);
        nprb_format_duration_range(job->host_before.idle_s, job->host_before.busy_s, range,
                                   sizeof range);
        printf("time budget %s: the whole plan was %s on this host; %s\n", budget, range,
               fit->step_count > 0 ? "dropped, in this order:" : "nothing dropped");
        for (int s = 0; s < fit->step_count; s++)
            printf("  %s\n", fit->step[s]);
    }
    nprb_format_duration_range(host_s[0], host_s[1], range, sizeof range);
    nprb_format_duration_range(job_s[0], job_s[1], whole, sizeof whole);
    printf("estimated time: %s on this host, %s for the job (its slowest host; ranks of one "
           "host take turns), by experiment:\n",
           range, whole);
    nprb_plan_print_times(stdout, &job->plan, job->first_touch_bps);
    printf("assumes: streaming at %.0f GB/s a thread, at most %.0f GB/s a node's cores; setup "
           "work at %.0f GB/s, a chain's links at %.0f GB/s; a buffer or chain set up once per "
           "memory node and kept\n",
           NPRB_PLAN_THREAD_BPS / 1e9, NPRB_PLAN_NODE_BPS / 1e9, NPRB_PLAN_SETUP_BPS / 1e9,
           NPRB_PLAN_LINK_BPS / 1e9);
    if (job->first_touch_bps > 0)
        printf("assumes: an idle host at the low end, machine-bound work at half speed (a busy "
               "neighbour) at the high end; new memory at %.2f GB/s, first touch measured here "
               "(a team's %.2f times that)\n",
               job->first_touch_bps / 1e9, NPRB_PLAN_TEAM_FAULT);
    else
        printf("assumes: an idle host at the low end, machine-bound work at half speed (a busy "
               "neighbour) at the high end; new memory at the model's %.1f GB/s (the topology "
               "is another machine's; a team's %.2f times that)\n",
               NPRB_PLAN_FAULT_BPS / 1e9, NPRB_PLAN_TEAM_FAULT);
}

/* Topology, then the binding step (it may widen the CPUs this rank uses, and shares the host's
 * nodes out among its ranks), then the plan that follows from both. */
static enum nprb_status discover(struct nprb_job *job)
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
    /* Before provenance reads the setting: a killed run's change put back first, so that this
     * run measures, and records, the host as it should be. */
    struct nprb_balancing_recovery rec;
    nprb_balancing_recover(&rec);
    if (rec.outcome == NPRB_RECOVERY_CLEARED)
        NPRB_INFO(job->log, "%s: %s", job->fleet->hostname, rec.text);
    else if (rec.outcome != NPRB_RECOVERY_NONE)
        NPRB_WARN(job->log, "%s: %s", job->fleet->hostname, rec.text);
    nprb_provenance_collect(&job->prov);
    job->prov.restore_outcome = rec.outcome;
    if (rec.outcome == NPRB_RECOVERY_RESTORED || rec.outcome == NPRB_RECOVERY_FAILED)
        NPRB_SET_TEXT(job->prov.restored, rec.text);
    snprintf(job->prov.omp_undone, sizeof job->prov.omp_undone, "%s", omp.note);
    snprintf(job->prov.omp_binder, sizeof job->prov.omp_binder, "%s", omp.binder);
    settle_binding(job);
    struct nprb_share share = {job->fleet->host_rank, job->binding.node_owner};
    if (nprb_plan_build(&job->plan, &job->cfg, job->topo, &share, err, sizeof err) != 0) {
        NPRB_ERROR(job->log, "%s (host %s)", err, job->fleet->hostname);
        status = NPRB_ERR_USAGE;
    }
    if ((status = nprb_fleet_worst(job->fleet, status)) != NPRB_OK)
        return status;
    if (job->cfg.time_budget_s > 0 || job->cli->dry_run)
        job->first_touch_bps = host_first_touch_bps(job);
    status = nprb_fleet_worst(job->fleet, fit_budget(job));
    if (status == NPRB_OK && nprb_passes_spread(&job->plan) != 0)
        NPRB_WARN(job->log, "out of memory spreading the headline passes over the run: they "
                            "come at its end");
    return status;
}

/* A dry run refuses what the real run would refuse of its paths (-o and --summary-json, as
 * given), so that a job script checked with --dry-run does not fail at the start of the job; it
 * creates and locks nothing. Rank 0 checks; every rank returns the verdict. */
static enum nprb_status dry_run_paths(struct nprb_job *job)
{
    enum nprb_status st = NPRB_OK;
    char err[2 * PATH_MAX + 256] = "", stamp[32], fresh[64];
    nprb_utc_now(stamp, sizeof stamp, true);
    snprintf(fresh, sizeof fresh, "numaprobe-%s.h5", stamp);
    const char *path = job->cli->output_path != NULL ? job->cli->output_path : fresh;
    if (job->fleet->rank == 0 &&
        (nprb_output_check(path, job->cli->force, err, sizeof err) != 0 ||
         (job->cli->summary_json != NULL &&
          nprb_summary_check_path(job->cli->summary_json, path, job->cli->force, err, sizeof err) !=
              0))) {
        NPRB_ERROR(job->log, "%s", err);
        st = NPRB_ERR_USAGE;
    }
    return nprb_fleet_worst(job->fleet, st);
}

/* Rank 0 checks the output path and locks it for the whole job, before anything is measured. */
static enum nprb_status open_output(struct nprb_job *job)
{
    int ok = 1;
    char err[2 * PATH_MAX + 256], aside[PATH_MAX], warning[PATH_MAX + 128] = "";
    char summary_warning[3 * PATH_MAX + 256] = "";
    if (job->fleet->rank == 0) {
        char stamp[32];
        nprb_utc_now(stamp, sizeof stamp, true);
        snprintf(job->output, sizeof job->output, "numaprobe-%s.h5", stamp);
        /* The path as given: one past PATH_MAX is refused, not cut short. */
        const char *path = job->cli->output_path != NULL ? job->cli->output_path : job->output;
        /* The summary's path is checked and locked first: a refused one leaves no lock of the
         * results file behind, and no earlier job's checkpoints moved aside. */
        if (job->cli->summary_json != NULL &&
            (nprb_summary_check_path(job->cli->summary_json, path, job->cli->force, err,
                                     sizeof err) != 0 ||
             nprb_summary_lock(&job->summary_lock, job->cli->summary_json, job->cli->force,
                               summary_warning, sizeof summary_warning, err, sizeof err) != 0))
            ok = 0;
        else
            ok = nprb_output_begin(path, job->cli->force, job->cfg.checkpoints, &job->lock,
                                   &job->collector.h5, aside, sizeof aside, warning, sizeof warning,
                                   err, sizeof err) == 0;
        if (ok && (job->cli->summary_json != NULL || job->cli->summary_stdout) &&
            (job->collector.summary = nprb_summary_create(job->cli->summary_json)) == NULL) {
            snprintf(err, sizeof err,
                     "cannot write the summary to %s: %s (its hosts' temporary "
                     "file)",
                     job->cli->summary_json != NULL ? job->cli->summary_json : "stdout",
                     strerror(errno));
            ok = 0;
        }
        if (!ok)
            NPRB_ERROR(job->log, "%s", err);
        else
            snprintf(job->output, sizeof job->output, "%s", path);
        if (ok && warning[0])
            NPRB_WARN(job->log, "%s", warning);
        if (ok && summary_warning[0])
            NPRB_WARN(job->log, "%s", summary_warning);
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

/* Rank 0, at the start of the job: the keys that differ from their defaults, not the whole
 * config (the file's `config` attribute and --show-config have every key). */
static void echo_config(const struct nprb_job *job)
{
    if (job->fleet->rank != 0 || job->cli->quiet)
        return;
    char *changed = malloc(NPRB_CONFIG_TEXT_MAX);
    long n =
        changed == NULL ? -1 : nprb_config_changed_yaml(&job->cfg, changed, NPRB_CONFIG_TEXT_MAX);
    if (n < 0)
        fprintf(stderr, "effective config:\n%s", job->config_yaml);
    else if (n == 0)
        fprintf(stderr, "config: the defaults (--show-config prints every key)\n");
    else
        fprintf(stderr,
                "config: %ld key(s) differ from the defaults (--show-config prints every "
                "key):\n%s",
                n, changed);
    free(changed);
}

/* Rank 0, while it waits for the ranks of its host in their turns and for the gather: the
 * fleet's state at least every --progress seconds (fleet.h calls it). */
static void waiting_progress(void *arg)
{
    struct nprb_job *job = arg;
    char state[96];
    nprb_job_fleet_state(job, state, sizeof state);
    nprb_log_progress(job->log, "waiting for the other ranks; %s", state);
}

static enum nprb_status prepare(struct nprb_job *job)
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
    if (st == NPRB_OK)
        st = nprb_job_textfile_check(job);
    if (st == NPRB_OK && job->cli->dry_run)
        st = dry_run_paths(job);
    if (st != NPRB_OK || job->cli->dry_run) {
        /* Every host's plan was checked; rank 0's is shown. */
        if (st == NPRB_OK) {
            struct nprb_estimate e = nprb_plan_estimate(&job->plan, job->first_touch_bps);
            double mine[2] = {e.idle_s, e.busy_s}, host[2], whole[2];
            nprb_fleet_estimate(job->fleet, mine, host, whole, 2);
            if (job->fleet->rank == 0) {
                print_dry_run(job, host, whole);
                printf("config and plan ok on %d host(s); nothing measured\n",
                       job->fleet->host_count);
            }
        }
        return st;
    }
    return open_output(job);
}

enum nprb_status nprb_run(const struct nprb_cli *cli, const char *command_line,
                          struct nprb_fleet *fleet, const struct nprb_log *log)
{
    struct nprb_job *job = calloc(1, sizeof *job);
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
        .summary_lock = &job->summary_lock,
        .output = job->output,
        .start_utc = job->start_utc,
        .command_line = command_line,
        .config_yaml = job->config_yaml,
        .config_source = cli->config_path != NULL ? cli->config_path : "built-in defaults",
        .job_identity = job->job_identity,
        .summary_path = cli->summary_json,
        /* With the verdict on stdout, the report moves to stderr: stdout stays one JSON
         * document a script can parse, and the report still reaches the batch log. */
        .report = cli->summary_stdout ? stderr : stdout,
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
    echo_config(job);

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
    nprb_job_start_checkpoints(job);
    if (fleet->rank == 0) {
        pthread_mutex_init(&job->results_lock, NULL);
        job->results.lock = &job->results_lock;
    }
    if (fleet->rank == 0 && log->level >= NPRB_LOG_INFO) {
        fleet->progress = waiting_progress;
        fleet->progress_arg = job;
        fleet->progress_every_s = cli->progress_s;
    }
    nprb_fleet_take_turns(fleet, nprb_job_measure, job, 2 * job->cfg.watchdog_s);
    nprb_topo_restore_binding(job->topo);
    if (fleet->stuck_rank > 0)
        NPRB_ERROR(log, "rank %d on this host (%s) hung in its turn: silent for %.1f s",
                   fleet->stuck_rank, fleet->hostname, fleet->stuck_silent_s);

    nprb_job_finish_rank(job); /* done in its turn; here only when the turn never came */

    nprb_log_progress(log, "measurements done, gathering results to rank 0");
    enum nprb_status written = nprb_collector_gather(&job->collector, &job->results);
    if (job->collector.lost_ranks > 0) {
        /* The hung ranks will never reach the collectives below: end the whole job here, with
         * the file written and the exit code of a partial result. */
        nprb_collector_write_summary(&job->collector, NPRB_ERR_PARTIAL, written == NPRB_OK);
        NPRB_ERROR(log, "%d rank(s) hung; results of the others are in %s; ending the job",
                   job->collector.lost_ranks, job->output);
        nprb_output_unlock(&job->lock);
        nprb_output_unlock(&job->summary_lock);
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
    nprb_job_textfile_write(job);
    /* The JSON verdict, with the status every rank now shares (rank 0; a summary it could not
     * write fails a job that was otherwise fine). */
    if (nprb_collector_write_summary(&job->collector, st, written == NPRB_OK) != NPRB_OK &&
        st == NPRB_OK)
        st = NPRB_ERR_SYSTEM;
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
    nprb_output_unlock(&job->summary_lock);
    nprb_summary_destroy(job->collector.summary);
    nprb_plan_free(&job->plan);
    nprb_topo_destroy(job->topo);
    if (job->results.lock != NULL)
        pthread_mutex_destroy(job->results.lock);
    nprb_results_free(&job->results);
    free(job);
    return st;
}
