/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file job.h
 * Inside the job layer: the state of one job on one rank, shared by the job sequence (run.c) and
 * this rank's turn to measure (measure.c). The rank-0 collector and the /hosts row builder have
 * structs of their own and never see this one.
 */
#ifndef NPRB_JOB_H
#define NPRB_JOB_H

#include "config/config.h"
#include "plan/budget.h"
#include "plan/plan.h"
#include "fleet/fleet.h"
#include "host/binding.h"
#include "host/provenance.h"
#include "host/topo.h"
#include "job/cli.h"
#include "job/collector.h"
#include "results/checkpoint.h"
#include "results/output.h"
#include "results/results.h"
#include "util/log.h"
#include "util/status.h"
#include "util/watchdog.h"

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

/** Everything one rank works with during the job. */
struct nprb_job {
    const struct nprb_cli *cli;
    struct nprb_fleet *fleet;
    const struct nprb_log *log;
    struct nprb_config cfg;
    char config_yaml[NPRB_CONFIG_TEXT_MAX];
    struct nprb_topo *topo;
    struct nprb_plan plan;
    struct nprb_budget_fit budget;    /* what the time budget dropped from this rank's plan */
    struct nprb_estimate host_before; /* the host's whole plan, before the budget */
    double first_touch_bps;           /* this host's rate for the estimate (0: the model's) */
    struct nprb_provenance prov;
    struct nprb_results results;
    struct nprb_collector collector; /* rank 0's side of the file; the root attributes on all */
    struct nprb_output_lock lock;    /* rank 0: the output's lock, held for the whole job */
    struct nprb_output_lock summary_lock; /* rank 0: --summary-json's, the same way */
    char output[PATH_MAX];
    char start_utc[32];
    char job_identity[128]; /* rank 0's host, PID and start: each checkpoint names its job */
    uint64_t start_ns;
    uint64_t measure_start_ns; /* this rank's turn began: the clock of its time left */
    enum nprb_status measured; /* worst status of this rank's measurements */
    char first_failure[NPRB_NOTE_LEN];
    struct nprb_binding binding; /* the binding step's outcome; its check for the /hosts row */
    struct nprb_checkpoint checkpoint;
    bool checkpointing;            /* off by config, or after a checkpoint could not be written */
    struct nprb_watchdog watchdog; /* rank 0: times each of its own measurements */
    pthread_mutex_t results_lock;  /* rank 0: results.lock, for the watchdog's copy */
};

/** Starts this rank's checkpoints (when the config keeps them), before its first measurement. */
void nprb_job_start_checkpoints(struct nprb_job *job);

/**
 * This rank's turn (nprb_fleet_take_turns()): every measurement of the plan, with heartbeats to
 * rank 0, rank 0's watchdog, a checkpoint after each experiment, then nprb_job_finish_rank().
 * @p arg is the struct nprb_job.
 */
void nprb_job_measure(void *arg);

/**
 * Rank 0: the fleet's state as its progress lines give it ("hosts: 3 done, 1 measuring, 0 late,
 * 0 hung"), into @p text; empty elsewhere.
 */
void nprb_job_fleet_state(struct nprb_job *job, char *text, size_t len);

/** This rank's final /hosts row and its complete checkpoint, as soon as its own measurements are
 * done: a rank that finished is "ok" in a merge even when the job dies while it waits for its
 * host's other turns or for the gather. Once only. */
void nprb_job_finish_rank(struct nprb_job *job);

/**
 * --textfile-dir, before anything is measured: each host's first rank checks the directory on
 * its host (report/openmetrics.h). Collective. @return NPRB_OK, or NPRB_ERR_USAGE on every rank
 * when a host refused it (that host's rank said why); NPRB_OK without the option.
 */
enum nprb_status nprb_job_textfile_check(struct nprb_job *job);

/**
 * --textfile-dir, once the results are gathered: the ranks of each host send their headline
 * cells and /hosts facts to the host's first rank, which writes the host's file. A file that
 * cannot be written is a warning, never the job's status: the results file is what a run owes.
 * Collective; nothing without the option.
 */
void nprb_job_textfile_write(struct nprb_job *job);

#endif
