/**
 * @file fleet.h
 * The MPI side: ranks grouped by host (MPI_COMM_TYPE_SHARED), one leader per host, turn-taking
 * among the ranks of one host, and the gather of every rank's rows to rank 0. The only module
 * that calls MPI_Abort.
 */
#ifndef NPRB_FLEET_H
#define NPRB_FLEET_H

#include "results.h"
#include "status.h"

#include <mpi.h>
#include <stdbool.h>

struct nprb_fleet {
    MPI_Comm world;
    MPI_Comm host; /**< the ranks sharing this host's memory */
    int rank, size;
    int host_rank, host_size;
    int host_index; /**< 0..host_count-1, the same for every rank of a host */
    int host_count;
    char hostname[MPI_MAX_PROCESSOR_NAME];
    char mpi_library[256];
};

/** Initialises MPI (singleton init works: no launcher needed) and groups ranks by host. */
int nprb_fleet_init(struct nprb_fleet *fleet, int *argc, char ***argv);

void nprb_fleet_finalize(struct nprb_fleet *fleet);

/** Ends every rank of the job at once (a rank that cannot go on while others wait on it). */
_Noreturn void nprb_fleet_abort(const struct nprb_fleet *fleet, int exit_code);

/**
 * Runs @p fn on each rank of this host in turn (host rank 0 first), so ranks sharing a host never
 * measure at the same time and contend for the same memory. No communication across hosts.
 */
void nprb_fleet_take_turns(const struct nprb_fleet *fleet, void (*fn)(void *), void *arg);

/** The worst status over all ranks (every rank gets it). */
enum nprb_status nprb_fleet_worst(const struct nprb_fleet *fleet, enum nprb_status mine);

/** Whether any rank has @p flag set (every rank gets the answer). */
bool nprb_fleet_any(const struct nprb_fleet *fleet, bool flag);

/** Broadcasts a string from rank 0 (in place; @p len is the buffer size on every rank). */
void nprb_fleet_bcast_text(const struct nprb_fleet *fleet, char *text, int len);

/**
 * Called on rank 0 once per rank, in rank order, with that rank's rows. Rows are only valid
 * during the call: rank 0 holds one rank's rows at a time.
 */
typedef int (*nprb_rows_sink)(void *arg, int rank, const struct nprb_results *rows);

/**
 * Sends every rank's results to rank 0, which hands them to @p sink one rank at a time.
 * @return 0 on every rank when all went well, -1 when the sink failed (rank 0 only).
 */
int nprb_fleet_gather(const struct nprb_fleet *fleet, const struct nprb_results *mine,
                      nprb_rows_sink sink, void *arg);

#endif
