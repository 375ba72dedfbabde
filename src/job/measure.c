/* SPDX-License-Identifier: BSD-3-Clause */
/* This rank's turn to measure: the plan's measurements in order, with a progress line per
 * experiment and at least every --progress seconds, heartbeats to rank 0, rank 0's watchdog (and
 * what it does when rank 0 itself hangs), the first failure kept for the /hosts row, and this
 * rank's checkpoints. */
#include "job/job.h"

#include "measure/experiment.h"
#include "plan/passes.h"
#include "host/place.h"
#include "job/host_row.h"
#include "results/plausibility.h"
#include "util/fault.h"
#include "util/timer.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* This rank's /hosts row as it stands (job/host_row.h). */
static void fill_host_row(const struct nprb_job *job, struct nprb_host_row *h, const char *status)
{
    const struct nprb_memory_config *memory = nprb_config_section(&job->cfg, &nprb_config_memory);
    struct nprb_host_facts facts = {.fleet = job->fleet,
                                    .topo = job->topo,
                                    .prov = &job->prov,
                                    .binding = &job->binding,
                                    .dimm_speed_mts = memory ? memory->dimm_speed_mts : 0,
                                    .memory_channels = memory ? memory->channels : 0,
                                    .start_ns = job->start_ns};
    nprb_host_row_fill(h, &facts, status);
}

/* Keeps the first failure of this rank for its /hosts row: the note of the row the failing
 * measurement just appended (in the experiment's table, or else in /latency or /bandwidth for an
 * experiment that writes to both), found through the table's field descriptors. */
static void note_failure(struct nprb_job *job, enum nprb_status status, enum nprb_table_id table,
                         const size_t *counts_before)
{
    if ((status != NPRB_ERR_NOMEM && status != NPRB_ERR_SYSTEM) || job->first_failure[0])
        return;
    static const enum nprb_table_id others[] = {NPRB_TABLE_LATENCY, NPRB_TABLE_BANDWIDTH};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        if (job->results.tables[table].count == counts_before[table] &&
            job->results.tables[others[i]].count > counts_before[others[i]])
            table = others[i];
    const struct nprb_rows *rows = &job->results.tables[table];
    const struct nprb_table_desc *desc = nprb_table_desc(table);
    if (rows->count == 0)
        return;
    for (size_t f = 0; f < desc->field_count; f++) {
        if (strcmp(desc->fields[f].name, "note") == 0) {
            const char *note =
                (const char *)nprb_row_at(rows, rows->count - 1) + desc->fields[f].offset;
            NPRB_SET_TEXT(job->first_failure, note);
            return;
        }
    }
}

/* The time left on this rank: the wall-clock parts still to come (sample times, durations),
 * plus the machine-bound parts scaled by what the finished ones really took. */
static void time_left(const struct nprb_job *job, size_t first, uint64_t t0, char *eta, size_t len)
{
    struct nprb_item_cost done = {0}, left = {0};
    for (size_t k = 0; k < job->plan.count; k++) {
        struct nprb_item_cost c = nprb_plan_cost_at(&job->plan, k);
        struct nprb_item_cost *sum = k < first ? &done : &left;
        sum->scaled_s += c.scaled_s;
        sum->fixed_s += c.fixed_s;
    }
    eta[0] = '\0';
    if (first > 0 && done.scaled_s > 0) {
        double elapsed = (double)(nprb_now_ns() - t0) * 1e-9;
        double scaled =
            elapsed - done.fixed_s > elapsed / 10 ? elapsed - done.fixed_s : elapsed / 10;
        snprintf(eta, len, ", about %.0f s left",
                 left.fixed_s + left.scaled_s * scaled / done.scaled_s);
    }
}

void nprb_job_fleet_state(struct nprb_job *job, char *text, size_t len)
{
    text[0] = '\0';
    if (job->fleet->rank != 0)
        return;
    /* Late: silent longer than one measurement may take (heartbeats come between measurements);
     * hung: as long as the gather waits before it gives a host up. */
    struct nprb_fleet_state st =
        nprb_fleet_state(job->fleet, job->cfg.watchdog_s, 2 * job->cfg.watchdog_s);
    snprintf(text, len, "hosts: %d done, %d measuring, %d late, %d hung", st.done, st.measuring,
             st.late, st.hung);
}

/* A node of the plan by its os index, or "all" (-1). */
static void node_text(const struct nprb_job *job, int index, char *buf, size_t len)
{
    if (index < 0)
        snprintf(buf, len, "all");
    else
        snprintf(buf, len, "%u", nprb_topo_node(job->topo, index)->os_index);
}

/* Rank 0's watchdog thread, while one measurement runs longer than --progress: the line goes on
 * without the fleet's state, which only the main thread may ask MPI for. */
static void long_item(void *arg, int k, double ran_s)
{
    const struct nprb_job *job = arg;
    const struct nprb_plan_item *item = &job->plan.items[k];
    char eta[64], cpu[16], mem[16];
    time_left(job, (size_t)k, job->measure_start_ns, eta, sizeof eta);
    node_text(job, item->cpu_node, cpu, sizeof cpu);
    node_text(job, item->mem_node, mem, sizeof mem);
    nprb_log_progress(job->log, "%s: item %d of %zu, node %s -> %s, measuring for %.0f s%s",
                      nprb_experiment_name(item->experiment), k + 1, job->plan.count, cpu, mem,
                      ran_s, eta);
}

/* A line at each new experiment and at least every --progress seconds within one (batch logs
 * are files people read, and a silent log looks hung): item k of n, the experiment, its node
 * pair, the time left, and on rank 0 the fleet's state from the heartbeats. */
static void progress(struct nprb_job *job, size_t k, uint64_t t0)
{
    const struct nprb_plan_item *item = &job->plan.items[k];
    bool new_phase = k == 0 || item->experiment != job->plan.items[k - 1].experiment;
    uint64_t now = nprb_now_ns();
    if (job->fleet->rank != 0 || job->log->level < NPRB_LOG_INFO ||
        (!new_phase && (double)(now - job->fleet->progress_last_ns) * 1e-9 < job->cli->progress_s))
        return;
    job->fleet->progress_last_ns = now;
    nprb_watchdog_ticked(&job->watchdog);
    char eta[64], fleet[96], cpu[16], mem[16];
    time_left(job, k, t0, eta, sizeof eta);
    nprb_job_fleet_state(job, fleet, sizeof fleet);
    node_text(job, item->cpu_node, cpu, sizeof cpu);
    node_text(job, item->mem_node, mem, sizeof mem);
    nprb_log_progress(job->log, "%s: item %zu of %zu, node %s -> %s%s; %s",
                      nprb_experiment_name(item->experiment), k + 1, job->plan.count, cpu, mem, eta,
                      fleet);
}

static void checkpoint_attributes(struct nprb_h5 *h5, void *arg)
{
    const struct nprb_job *job = arg;
    nprb_collector_write_attributes(&job->collector, h5, 0);
}

/* This rank's rows so far into its checkpoint; with @p complete its final /hosts row. A
 * checkpoint that cannot be written is a warning: the measurement itself goes on. */
static void save_checkpoint(struct nprb_job *job, bool complete)
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
static void inject_rank_faults(const struct nprb_job *job, size_t item)
{
    int rank = job->fleet->rank, last = job->fleet->size - 1;
    bool hang = (item == 0 && last > 0 && rank == last && nprb_fault(NPRB_FAULT_HANG_LAST_RANK)) ||
                (item == 0 && last > 0 && rank == 1 && nprb_fault(NPRB_FAULT_HANG_RANK1)) ||
                (item > 0 && rank == 0 && nprb_fault(NPRB_FAULT_HANG_RANK0));
    if (hang)
        for (;;)
            pause();
    if (item > 0 && last > 0 && rank == last && nprb_fault(NPRB_FAULT_KILL_LAST_RANK))
        raise(SIGKILL);
}

/* Rank 0's watchdog thread, when one of rank 0's own measurements has run for twice `watchdog`:
 * nobody else can gather, so this thread writes what the job has (rank 0's rows so far and every
 * other host's) with a "hung" /hosts row for rank 0, and ends the job with exit 5. */
static void rank0_hung(void *arg, int item, double ran_s)
{
    struct nprb_job *job = arg;
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
        nprb_output_unlock(&job->summary_lock);
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
static void start_watchdog(struct nprb_job *job)
{
    if (job->fleet->rank != 0)
        return;
    if (nprb_watchdog_start(&job->watchdog, 2 * job->cfg.watchdog_s, rank0_hung, job) != 0)
        NPRB_WARN(job->log, "no watchdog thread (%s): a hang of rank 0 will not be caught",
                  strerror(errno));
}

void nprb_job_finish_rank(struct nprb_job *job)
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

/* A sweep maps its buffers once, sized for its largest point (host/place.h). */
static void keep_buffers_for(const struct nprb_plan *plan, size_t first)
{
    nprb_buffer_keep_end();
    const struct nprb_experiment *e = plan->items[first].experiment;
    if (!e->keeps_buffers)
        return;
    uint64_t largest = 0;
    for (size_t i = first; i < plan->count && plan->items[i].experiment == e; i++)
        if (plan->items[i].skip_reason[0] == '\0' && plan->items[i].size_bytes > largest)
            largest = plan->items[i].size_bytes;
    nprb_buffer_keep_begin((size_t)largest);
}

/* Whether item @p i is the plan's last of its experiment: a headline cell's later passes come
 * after its experiment's other items, spread over the run. */
static bool last_of_experiment(const struct nprb_plan *plan, size_t i)
{
    const struct nprb_experiment *e = plan->items[i].experiment;
    for (size_t j = i + 1; j < plan->count; j++)
        if (plan->items[j].experiment == e)
            return false;
    return true;
}

void nprb_job_measure(void *arg)
{
    struct nprb_job *job = arg;
    struct nprb_context ctx = {.cfg = &job->cfg,
                               .topo = job->topo,
                               .log = job->log,
                               .results = &job->results,
                               .rank = job->fleet->rank,
                               .hostname = job->fleet->hostname};
    uint64_t t0 = nprb_now_ns();
    job->measure_start_ns = t0;
    start_watchdog(job);
    if (job->log->level >= NPRB_LOG_INFO)
        nprb_watchdog_every(&job->watchdog, job->cli->progress_s, long_item);
    if (job->plan.count > 0)
        nprb_record_counters_unavailable(&ctx);
    /* Per plan item, the first row its first pass wrote and how many, for its later passes to
     * join (NULL when out of memory: the later passes then only measure, their figures kept
     * nowhere). */
    size_t *first_row = calloc(job->plan.count > 0 ? job->plan.count : 1, sizeof *first_row);
    size_t *row_count = calloc(job->plan.count > 0 ? job->plan.count : 1, sizeof *row_count);
    for (size_t i = 0; i < job->plan.count; i++) {
        const struct nprb_plan_item *item = &job->plan.items[i];
        bool new_phase = i == 0 || item->experiment != job->plan.items[i - 1].experiment;
        if (new_phase && i > 0)
            save_checkpoint(job, false);
        progress(job, i, t0);
        nprb_fleet_heartbeat(job->fleet, (int)i, job->cfg.watchdog_s / 4);
        NPRB_DEBUG(job->log, "%s item %zu: node %d -> %d, %llu bytes",
                   nprb_experiment_name(item->experiment), i, item->cpu_node, item->mem_node,
                   (unsigned long long)item->size_bytes);
        nprb_watchdog_enter(&job->watchdog, (int)i);
        if (new_phase) {
            inject_rank_faults(job, i);
            keep_buffers_for(&job->plan, i);
        }
        size_t counts[NPRB_N_TABLES];
        for (int t = 0; t < NPRB_N_TABLES; t++)
            counts[t] = job->results.tables[t].count;
        enum nprb_table_id table = nprb_experiment_table(item->experiment);
        enum nprb_status st;
        bool joinable = first_row != NULL && row_count != NULL;
        if (item->pass > 0) {
            st = nprb_passes_measure_again(&ctx, item,
                                           joinable ? first_row[item->origin] : NPRB_NO_ROW,
                                           joinable ? row_count[item->origin] : 0);
        } else {
            st = nprb_experiment_measure(item->experiment)(&ctx, item);
            if (joinable) {
                first_row[i] = counts[table];
                row_count[i] = job->results.tables[table].count - counts[table];
            }
        }
        nprb_watchdog_leave(&job->watchdog);
        note_failure(job, st, table, counts);
        job->measured = nprb_status_worst(job->measured, st);
        if (st == NPRB_ERR_VALIDATION)
            NPRB_ERROR(job->log, "%s on %s: a kernel produced a wrong answer (row marked invalid)",
                       nprb_experiment_name(item->experiment), job->fleet->hostname);
        else if (st != NPRB_OK)
            NPRB_WARN(job->log, "%s on %s could not be measured: %s",
                      nprb_experiment_name(item->experiment), job->fleet->hostname,
                      job->first_failure);
        if (item->experiment->after_last_item != NULL && last_of_experiment(&job->plan, i))
            item->experiment->after_last_item(&ctx);
    }
    free(first_row);
    free(row_count);
    nprb_buffer_keep_end();
    nprb_watchdog_stop(&job->watchdog);
    nprb_fleet_measured(job->fleet);
    nprb_flag_implausible(&job->results);
    nprb_job_finish_rank(job);
}

void nprb_job_start_checkpoints(struct nprb_job *job)
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
