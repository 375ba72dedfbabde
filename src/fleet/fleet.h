/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file fleet.h
 * The MPI side, and every MPI call of numaprobe: ranks grouped by host (MPI_COMM_TYPE_SHARED), one
 * leader per host, turn-taking among the ranks of one host, the gather of every rank's rows to
 * rank 0, and the few collectives the job needs (worst status, broadcasts), each named for what it
 * does. The only module that calls MPI_Abort.
 */
#ifndef NPRB_FLEET_H
#define NPRB_FLEET_H

#include "results/results.h"
#include "util/status.h"

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct nprb_fleet {
    MPI_Comm world;
    MPI_Comm host; /**< the ranks sharing this host's memory */
    int rank, size;
    int host_rank, host_size;
    int host_index; /**< 0..host_count-1, the same for every rank of a host */
    int host_count;
    char hostname[MPI_MAX_PROCESSOR_NAME];
    char mpi_library[256];
    int *host_of_rank; /**< rank 0 only: host_index of every rank (the gather's watchdog) */
    char (*name_of_rank)[NPRB_HOST_LEN]; /**< rank 0 only: every rank's host name */
    /* The heartbeat in flight to rank 0 (nprb_fleet_heartbeat): one at a time, completed before
     * the next is sent and before the gather. */
    MPI_Request heartbeat_req;
    int heartbeat_val;
    bool heartbeat_pending;
    uint64_t last_heartbeat_ns;
    bool thread_multiple; /**< MPI lets any thread call it: rank 0's watchdog thread can gather */
    uint64_t *heard_ns;   /**< rank 0 only: when each host was last heard of */
    /* Rank 0 only: the rank of its own host whose turn it gave up waiting for (-1: none), and
     * for how long that rank had been silent. Its host's other ranks wait behind it for ever. */
    int stuck_rank;
    double stuck_silent_s;
    /* The fleet's state for progress lines. Every rank: its "measured" message in flight (sent
     * once, beside the heartbeats). Rank 0: which ranks said they measured everything. */
    MPI_Request done_req;
    int done_val;
    bool done_pending;
    bool *rank_done;
    /* Rank 0: called while it waits for other ranks (a turn of its host, the gather) at most
     * every progress_every_s seconds (0: never), to print the fleet's state. */
    void (*progress)(void *arg);
    void *progress_arg;
    double progress_every_s;
    uint64_t progress_last_ns;
};

/** How the fleet stands, as rank 0 knows it from the heartbeats (nprb_fleet_state()). */
struct nprb_fleet_state {
    int done;      /**< hosts whose every rank has measured everything */
    int measuring; /**< hosts heard of within late_after_s */
    int late;      /**< hosts silent for longer than late_after_s */
    int hung;      /**< hosts silent for longer than hung_after_s: the gather will give them up */
};

/** Initialises MPI (singleton init works: no launcher needed) and groups ranks by host. */
int nprb_fleet_init(struct nprb_fleet *fleet, int *argc, char ***argv);

void nprb_fleet_finalize(struct nprb_fleet *fleet);

/** Ends every rank of the job at once (a rank that cannot go on while others wait on it). */
_Noreturn void nprb_fleet_abort(const struct nprb_fleet *fleet, int exit_code);

/**
 * Runs @p fn on each rank of this host in turn (host rank 0 first), so ranks sharing a host never
 * measure at the same time and contend for the same memory. Rank 0 waits for its host's other
 * turns while reading heartbeats, and gives a turn up when the rank taking it has been silent for
 * @p hung_after_s seconds (0: never): it then goes on alone, to gather what the job has, and
 * records the rank in stuck_rank.
 */
void nprb_fleet_take_turns(struct nprb_fleet *fleet, void (*fn)(void *), void *arg,
                           double hung_after_s);

/** Rank 0 says its own measurement hung: its host's other ranks will never get their turn. */
void nprb_fleet_rank0_stuck(struct nprb_fleet *fleet, double silent_s);

/** The worst status over all ranks (every rank gets it). */
enum nprb_status nprb_fleet_worst(const struct nprb_fleet *fleet, enum nprb_status mine);

/** Whether any rank has @p flag set (every rank gets the answer). */
bool nprb_fleet_any(const struct nprb_fleet *fleet, bool flag);

/**
 * Every rank of this host gets every host rank's @p bytes bytes, in host rank order, in @p all
 * (host_size x @p bytes). Collective over the host's ranks.
 */
void nprb_fleet_host_allgather(const struct nprb_fleet *fleet, const void *mine, void *all,
                               int bytes);

/** Broadcasts a string from rank 0 (in place; @p len is the buffer size on every rank). */
void nprb_fleet_bcast_text(const struct nprb_fleet *fleet, char *text, int len);

/** Broadcasts @p count ints from rank 0 (in place): a decision only rank 0 could make. */
void nprb_fleet_bcast_ints(const struct nprb_fleet *fleet, int *values, int count);

/**
 * Rank 0's string, of any length, to every rank: rank 0 passes its @p text and gets it back; every
 * other rank passes anything and gets a copy in memory of its own (free() it), or NULL when out
 * of memory. Collective over the world.
 */
char *nprb_fleet_bcast_new_text(const struct nprb_fleet *fleet, char *text);

/**
 * Tells rank 0 that this rank is alive and starting measurement @p item. Sent at most once per
 * @p every_s seconds, never blocking (skipped while the previous one is still in flight), so the
 * fleet stays quiet however long the plan. Rank 0 reads them while it waits (its turns,
 * nprb_fleet_gather()) and, on its own call, between its own measurements.
 */
void nprb_fleet_heartbeat(struct nprb_fleet *fleet, int item, double every_s);

/**
 * Tells rank 0 that this rank has measured everything (rank 0 notes it for itself). Never
 * blocks; sent once, before the gather.
 */
void nprb_fleet_measured(struct nprb_fleet *fleet);

/**
 * Rank 0: reads the heartbeats that have arrived and counts the hosts by state: done, measuring,
 * late (silent for more than @p late_after_s) or hung (silent for more than @p hung_after_s).
 * Every host counts as heard of when the fleet started. Elsewhere: all zero.
 */
struct nprb_fleet_state nprb_fleet_state(struct nprb_fleet *fleet, double late_after_s,
                                         double hung_after_s);

/**
 * The job's estimate from every rank's own (@p mine_s: @p count figures in seconds, such as the
 * low and high ends of a range): the ranks of a host take turns, so a host takes the sum of its
 * ranks', and the job its slowest host's, figure by figure. Collective over the world; every
 * rank gets both.
 */
void nprb_fleet_estimate(const struct nprb_fleet *fleet, const double *mine_s, double *host_s,
                         double *job_s, int count);

/**
 * Called on rank 0 once per rank, in rank order, with that rank's rows. Rows are only valid
 * during the call: rank 0 holds one rank's rows at a time.
 */
typedef int (*nprb_rows_sink)(void *arg, int rank, const struct nprb_results *rows);

/** Called on rank 0 for a rank given up as hung, with what happened ("watchdog: ..."). */
typedef void (*nprb_hung_sink)(void *arg, int rank, const char *why);

/**
 * Sends every rank's results to rank 0, which hands them to @p sink one rank at a time (the next
 * rank told to send while the sink takes one: rank 0 holds two ranks' rows at most). The
 * watchdog: rank 0 gives a rank up (calls @p hung) when nothing (rows or a heartbeat) has come
 * from any rank of its host for @p hung_after_s seconds (0 waits for ever), and at once the ranks
 * of rank 0's own host that wait behind a stuck turn (stuck_rank).
 * @return on rank 0: -1 when the sink failed, else how many ranks were given up; 0 elsewhere.
 */
int nprb_fleet_gather(struct nprb_fleet *fleet, const struct nprb_results *mine,
                      nprb_rows_sink sink, nprb_hung_sink hung, void *arg, double hung_after_s);

/** --version's line for the MPI library: the one loaded, and the standard it speaks. */
void nprb_fleet_print_version(FILE *out);

#endif
