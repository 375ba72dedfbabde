/* SPDX-License-Identifier: BSD-3-Clause */
#include "fleet/fleet.h"

#include "util/timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A process no launcher started (none of mpirun's, PMIx's or PMI's variables) is a job of one
 * rank. Open MPI would start a daemon (orted) beside it for spawning and connecting, which
 * numaprobe never does: 0.3 s of a run's start on a server, 5-10 s in an emulated guest. Told it
 * is isolated, the singleton starts without one; other MPI libraries ignore the variable, and a
 * value the user set is kept. */
static void singleton_without_daemon(void)
{
    static const char *const launched[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"};
    for (size_t i = 0; i < sizeof launched / sizeof launched[0]; i++)
        if (getenv(launched[i]) != NULL)
            return;
    setenv("OMPI_MCA_ess_singleton_isolated", "1", 0);
}

int nprb_fleet_init(struct nprb_fleet *fleet, int *argc, char ***argv)
{
    memset(fleet, 0, sizeof *fleet);
    singleton_without_daemon();
    int provided;
    /* OpenMP threads measure and only the main thread talks MPI, except on rank 0 when its own
     * measurement hangs: its watchdog thread then gathers and writes what the job has, which
     * takes MPI_THREAD_MULTIPLE. A library without it still runs the job (FUNNELED is enough);
     * that one case then ends with the checkpoints alone. */
    if (MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
        return -1;
    fleet->thread_multiple = provided >= MPI_THREAD_MULTIPLE;
    fleet->stuck_rank = -1;
    fleet->world = MPI_COMM_WORLD;
    MPI_Comm_rank(fleet->world, &fleet->rank);
    MPI_Comm_size(fleet->world, &fleet->size);
    MPI_Comm_split_type(fleet->world, MPI_COMM_TYPE_SHARED, fleet->rank, MPI_INFO_NULL,
                        &fleet->host);
    MPI_Comm_rank(fleet->host, &fleet->host_rank);
    MPI_Comm_size(fleet->host, &fleet->host_size);

    int is_leader = fleet->host_rank == 0, leader_index = 0;
    MPI_Exscan(&is_leader, &leader_index, 1, MPI_INT, MPI_SUM, fleet->world);
    if (fleet->rank == 0)
        leader_index = 0; /* MPI_Exscan leaves rank 0's result undefined */
    fleet->host_index = leader_index;
    MPI_Bcast(&fleet->host_index, 1, MPI_INT, 0, fleet->host);
    MPI_Allreduce(&is_leader, &fleet->host_count, 1, MPI_INT, MPI_SUM, fleet->world);
    if (fleet->rank == 0) {
        fleet->host_of_rank = malloc((size_t)fleet->size * sizeof *fleet->host_of_rank);
        fleet->heard_ns = calloc((size_t)fleet->host_count, sizeof *fleet->heard_ns);
        fleet->rank_done = calloc((size_t)fleet->size, sizeof *fleet->rank_done);
    }
    if (fleet->rank == 0 &&
        (fleet->host_of_rank == NULL || fleet->heard_ns == NULL || fleet->rank_done == NULL))
        nprb_fleet_abort(fleet, 1);
    for (int h = 0; fleet->rank == 0 && h < fleet->host_count; h++)
        fleet->heard_ns[h] = nprb_now_ns();
    MPI_Gather(&fleet->host_index, 1, MPI_INT, fleet->host_of_rank, 1, MPI_INT, 0, fleet->world);

    int len = 0;
    MPI_Get_processor_name(fleet->hostname, &len);
    /* Rank 0 knows every rank's host by name, to say which one hung (64 bytes a rank). */
    char mine[NPRB_HOST_LEN];
    nprb_copy_text(mine, sizeof mine, fleet->hostname);
    if (fleet->rank == 0)
        fleet->name_of_rank = malloc((size_t)fleet->size * sizeof *fleet->name_of_rank);
    if (fleet->rank == 0 && fleet->name_of_rank == NULL)
        nprb_fleet_abort(fleet, 1);
    MPI_Gather(mine, NPRB_HOST_LEN, MPI_CHAR, fleet->name_of_rank, NPRB_HOST_LEN, MPI_CHAR, 0,
               fleet->world);
    MPI_Get_library_version(fleet->mpi_library, &len);
    fleet->mpi_library[strcspn(fleet->mpi_library, "\n,")] = '\0';
    return 0;
}

void nprb_fleet_finalize(struct nprb_fleet *fleet)
{
    if (fleet->host != MPI_COMM_NULL && fleet->host != 0)
        MPI_Comm_free(&fleet->host);
    free(fleet->host_of_rank);
    free(fleet->name_of_rank);
    free(fleet->heard_ns);
    free(fleet->rank_done);
    MPI_Finalize();
}

_Noreturn void nprb_fleet_abort(const struct nprb_fleet *fleet, int exit_code)
{
    MPI_Abort(fleet->world, exit_code);
    exit(exit_code);
}

enum nprb_status nprb_fleet_worst(const struct nprb_fleet *fleet, enum nprb_status mine)
{
    /* Gathered rather than reduced: "worst" is a precedence, not a numeric maximum. */
    int *all = malloc((size_t)fleet->size * sizeof *all);
    int value = (int)mine;
    if (all == NULL)
        return NPRB_ERR_NOMEM;
    MPI_Allgather(&value, 1, MPI_INT, all, 1, MPI_INT, fleet->world);
    enum nprb_status worst = NPRB_OK;
    for (int r = 0; r < fleet->size; r++)
        worst = nprb_status_worst(worst, (enum nprb_status)all[r]);
    free(all);
    return worst;
}

bool nprb_fleet_any(const struct nprb_fleet *fleet, bool flag)
{
    int mine = flag, any = 0;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_LOR, fleet->world);
    return any != 0;
}

void nprb_fleet_host_allgather(const struct nprb_fleet *fleet, const void *mine, void *all,
                               int bytes)
{
    MPI_Allgather(mine, bytes, MPI_BYTE, all, bytes, MPI_BYTE, fleet->host);
}

void nprb_fleet_bcast_text(const struct nprb_fleet *fleet, char *text, int len)
{
    MPI_Bcast(text, len, MPI_CHAR, 0, fleet->world);
    text[len - 1] = '\0';
}

void nprb_fleet_bcast_ints(const struct nprb_fleet *fleet, int *values, int count)
{
    MPI_Bcast(values, count, MPI_INT, 0, fleet->world);
}

char *nprb_fleet_bcast_new_text(const struct nprb_fleet *fleet, char *text)
{
    long len = fleet->rank == 0 ? (long)strlen(text) + 1 : 0;
    MPI_Bcast(&len, 1, MPI_LONG, 0, fleet->world);
    if (fleet->rank != 0)
        text = malloc((size_t)len);
    if (text == NULL)
        return NULL;
    MPI_Bcast(text, (int)len, MPI_CHAR, 0, fleet->world);
    return text;
}

enum { TAG_COUNTS = 7100, TAG_ROWS = 7200, TAG_HEARTBEAT = 7300 };

/* Rank 0: takes every heartbeat that has arrived and notes when each host was last heard of. */
static void drain_heartbeats(const struct nprb_fleet *fleet)
{
    int flag = 1;
    while (flag) {
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_HEARTBEAT, fleet->world, &flag, &st);
        if (!flag)
            break;
        int item;
        MPI_Recv(&item, 1, MPI_INT, st.MPI_SOURCE, TAG_HEARTBEAT, fleet->world, MPI_STATUS_IGNORE);
        fleet->heard_ns[fleet->host_of_rank[st.MPI_SOURCE]] = nprb_now_ns();
        if (item < 0)
            fleet->rank_done[st.MPI_SOURCE] = true; /* nprb_fleet_measured() */
    }
}

/* The analyzer's MPI checker wants each request waited for in the function that starts it; this
 * one is completed by the next heartbeat's MPI_Test or by send_rows()'s MPI_Wait. */
// NOLINTBEGIN(clang-analyzer-optin.mpi.MPI-Checker)
void nprb_fleet_heartbeat(struct nprb_fleet *fleet, int item, double every_s)
{
    uint64_t now = nprb_now_ns();
    if (fleet->rank == 0) {
        fleet->heard_ns[fleet->host_index] = now; /* rank 0 measuring: its host is alive */
        /* Every rank's heartbeats are small eager messages that MPI keeps for rank 0 until it
         * reads them: read between its own measurements too, they stay a few, not one per
         * rank for every quarter of the watchdog that rank 0 measures. */
        drain_heartbeats(fleet);
    }
    if (fleet->rank == 0 ||
        (fleet->last_heartbeat_ns > 0 && (double)(now - fleet->last_heartbeat_ns) * 1e-9 < every_s))
        return;
    if (fleet->heartbeat_pending) {
        int done = 0;
        MPI_Test(&fleet->heartbeat_req, &done, MPI_STATUS_IGNORE);
        if (!done)
            return; /* rank 0 has not taken the last one yet: it knows we are alive */
    }
    fleet->heartbeat_val = item;
    fleet->last_heartbeat_ns = now;
    MPI_Isend(&fleet->heartbeat_val, 1, MPI_INT, 0, TAG_HEARTBEAT, fleet->world,
              &fleet->heartbeat_req);
    fleet->heartbeat_pending = true;
}

void nprb_fleet_measured(struct nprb_fleet *fleet)
{
    if (fleet->rank == 0) {
        fleet->rank_done[0] = true;
        return;
    }
    if (fleet->done_pending)
        return;
    /* A message of its own, not a heartbeat: the last heartbeat may still be in flight, and this
     * one must not be skipped. Both are completed before the rows are sent (send_rows()). */
    fleet->done_val = -1;
    MPI_Isend(&fleet->done_val, 1, MPI_INT, 0, TAG_HEARTBEAT, fleet->world, &fleet->done_req);
    fleet->done_pending = true;
}
// NOLINTEND(clang-analyzer-optin.mpi.MPI-Checker)

struct nprb_fleet_state nprb_fleet_state(struct nprb_fleet *fleet, double late_after_s,
                                         double hung_after_s)
{
    struct nprb_fleet_state state = {0, 0, 0, 0};
    if (fleet->rank != 0)
        return state;
    drain_heartbeats(fleet);
    /* A host is done when each of its ranks is: one pass over the ranks, not one a host (a
     * fleet of 100,000 would take 10^10 steps a progress line). */
    bool *busy = calloc((size_t)fleet->host_count, sizeof *busy);
    if (busy == NULL)
        return state;
    for (int r = 0; r < fleet->size; r++)
        busy[fleet->host_of_rank[r]] |= !fleet->rank_done[r];
    uint64_t now = nprb_now_ns();
    for (int h = 0; h < fleet->host_count; h++) {
        bool done = !busy[h];
        double silent_s = (double)(now - fleet->heard_ns[h]) * 1e-9;
        if (done)
            state.done++;
        else if (hung_after_s > 0 && silent_s > hung_after_s)
            state.hung++;
        else if (late_after_s > 0 && silent_s > late_after_s)
            state.late++;
        else
            state.measuring++;
    }
    free(busy);
    return state;
}

void nprb_fleet_estimate(const struct nprb_fleet *fleet, const double *mine_s, double *host_s,
                         double *job_s, int count)
{
    MPI_Allreduce(mine_s, host_s, count, MPI_DOUBLE, MPI_SUM, fleet->host);
    MPI_Allreduce(host_s, job_s, count, MPI_DOUBLE, MPI_MAX, fleet->world);
}

/* Rank 0, while it waits: the job's progress callback, at most every progress_every_s. */
static void maybe_progress(struct nprb_fleet *fleet)
{
    uint64_t now = nprb_now_ns();
    if (fleet->progress == NULL || fleet->progress_every_s <= 0 ||
        (double)(now - fleet->progress_last_ns) * 1e-9 < fleet->progress_every_s)
        return;
    fleet->progress_last_ns = now;
    fleet->progress(fleet->progress_arg);
}

/* Waiting is idle. Open MPI's MPI_Wait and blocking receives poll the network without pause,
 * which would spin a core beside the rank of the host that measures and take memory bandwidth
 * and turbo headroom from its package. A waiter tests its request, then sleeps, backing off
 * from 20 us to 2 ms: a finished turn is seen within 2 ms, and a wait of minutes costs a few
 * hundred wake-ups a second. */
enum { NAP_FIRST_NS = 20000, NAP_MAX_NS = 2000000 };

static void nap(long *nap_ns)
{
    struct timespec pause = {0, *nap_ns};
    nanosleep(&pause, NULL);
    *nap_ns = *nap_ns * 2 < NAP_MAX_NS ? *nap_ns * 2 : NAP_MAX_NS;
}

/* Completes @p req without spinning (see nap()). */
// NOLINTBEGIN(clang-analyzer-optin.mpi.MPI-Checker): the caller started the request
static void wait_idle(MPI_Request *req)
{
    long nap_ns = NAP_FIRST_NS;
    for (;;) {
        int done = 0;
        MPI_Test(req, &done, MPI_STATUS_IGNORE);
        if (done)
            return;
        nap(&nap_ns);
    }
}
// NOLINTEND(clang-analyzer-optin.mpi.MPI-Checker)

static double silent_for(const struct nprb_fleet *fleet, int host)
{
    return (double)(nprb_now_ns() - fleet->heard_ns[host]) * 1e-9;
}

/* Rank 0: polls @p req while reading heartbeats, until it completes (0, @p host counts as heard
 * of) or @p host has been silent for @p hung_after_s seconds (-1; 0 waits for ever), with the
 * silence in *silent_s. The caller decides what becomes of a request given up. */
// NOLINTBEGIN(clang-analyzer-optin.mpi.MPI-Checker): the caller started the request; clang 14's
// checker does not know MPI_Ibarrier, and a turn given up leaves its barrier pending
static int poll_while_heard(struct nprb_fleet *fleet, MPI_Request *req, int host,
                            double hung_after_s, double *silent_s)
{
    long nap_ns = NAP_FIRST_NS;
    for (;;) {
        int done = 0;
        MPI_Test(req, &done, MPI_STATUS_IGNORE);
        if (done) {
            fleet->heard_ns[host] = nprb_now_ns();
            return 0;
        }
        drain_heartbeats(fleet);
        maybe_progress(fleet);
        *silent_s = silent_for(fleet, host);
        if (hung_after_s > 0 && *silent_s > hung_after_s)
            return -1;
        nap(&nap_ns);
    }
}

/* Rank 0's wait for the end of one turn of its host: the host barrier, while the rank taking the
 * turn sends heartbeats. @return 0 when the turn ended, -1 when that rank went silent (the
 * barrier is left pending: the job ends before it could complete). */
static int wait_for_turn(struct nprb_fleet *fleet, double hung_after_s)
{
    MPI_Request req;
    MPI_Ibarrier(fleet->host, &req);
    fleet->heard_ns[fleet->host_index] = nprb_now_ns();
    return poll_while_heard(fleet, &req, fleet->host_index, hung_after_s, &fleet->stuck_silent_s);
}

/* Every other rank's end of a turn: the same barrier, non-blocking too (rank 0 polls its own, and
 * MPI never matches a blocking collective with a non-blocking one), waited for idly: the ranks
 * waiting for their turn must leave the host to the one measuring. */
static void end_of_turn(const struct nprb_fleet *fleet)
{
    MPI_Request req;
    MPI_Ibarrier(fleet->host, &req);
    wait_idle(&req);
}
// NOLINTEND(clang-analyzer-optin.mpi.MPI-Checker)

/* Rank 0: the world rank that takes @p turn on its own host (host ranks follow world ranks). */
static int rank_of_turn(const struct nprb_fleet *fleet, int turn)
{
    for (int r = 0; r < fleet->size; r++)
        if (fleet->host_of_rank[r] == fleet->host_index && turn-- == 0)
            return r;
    return -1;
}

void nprb_fleet_take_turns(struct nprb_fleet *fleet, void (*fn)(void *), void *arg,
                           double hung_after_s)
{
    for (int turn = 0; turn < fleet->host_size; turn++) {
        if (turn == fleet->host_rank)
            fn(arg);
        if (fleet->rank != 0) {
            end_of_turn(fleet);
        } else if (wait_for_turn(fleet, hung_after_s) != 0) {
            fleet->stuck_rank = rank_of_turn(fleet, turn);
            return;
        }
    }
}

void nprb_fleet_rank0_stuck(struct nprb_fleet *fleet, double silent_s)
{
    fleet->stuck_rank = 0;
    fleet->stuck_silent_s = silent_s;
}

/* Rank 0: why a rank of its own host is given up when a turn there hung. */
static void stuck_reason(const struct nprb_fleet *fleet, int rank, double hung_after_s, char *why,
                         size_t len)
{
    if (rank == fleet->stuck_rank)
        snprintf(why, len, "watchdog: silent for %.1f s in its turn to measure (limit %.1f s)",
                 fleet->stuck_silent_s, hung_after_s);
    else if (rank < fleet->stuck_rank)
        snprintf(why, len,
                 "watchdog: measured, then waited for rank %d of this host, which hung in its "
                 "turn; its rows are in its checkpoint",
                 fleet->stuck_rank);
    else
        snprintf(why, len, "watchdog: never measured: rank %d of this host hung in its turn first",
                 fleet->stuck_rank);
}

/* Rank 0: waits for @p rank's row counts while its host keeps sending heartbeats.
 * @return 0 with the counts received, or -1 when the host went silent for too long. */
// NOLINTBEGIN(clang-analyzer-optin.mpi.MPI-Checker): poll_while_heard() completes the receive
static int wait_for_counts(struct nprb_fleet *fleet, int rank, unsigned long long *counts,
                           double hung_after_s, double *silent_s)
{
    MPI_Request req;
    MPI_Irecv(counts, NPRB_N_TABLES, MPI_UNSIGNED_LONG_LONG, rank, TAG_COUNTS, fleet->world, &req);
    if (poll_while_heard(fleet, &req, fleet->host_of_rank[rank], hung_after_s, silent_s) == 0)
        return 0;
    MPI_Cancel(&req);
    MPI_Wait(&req, MPI_STATUS_IGNORE); /* completes at once: the receive is cancelled */
    return -1;
}
// NOLINTEND(clang-analyzer-optin.mpi.MPI-Checker)

static int send_rows(struct nprb_fleet *fleet, const struct nprb_results *mine)
{
    if (fleet->heartbeat_pending) // started in nprb_fleet_heartbeat(), which the checker misses
        MPI_Wait(&fleet->heartbeat_req, // NOLINT(clang-analyzer-optin.mpi.MPI-Checker)
                 MPI_STATUS_IGNORE);
    fleet->heartbeat_pending = false;
    if (fleet->done_pending)       // started in nprb_fleet_measured(), as above
        MPI_Wait(&fleet->done_req, // NOLINT(clang-analyzer-optin.mpi.MPI-Checker)
                 MPI_STATUS_IGNORE);
    fleet->done_pending = false;
    unsigned long long counts[NPRB_N_TABLES];
    for (int t = 0; t < NPRB_N_TABLES; t++)
        counts[t] = mine->tables[t].count;
    /* Wait for rank 0's go-ahead, so rank 0 receives from one rank at a time and its memory
     * stays bounded by two ranks' rows (the one it writes, the next), whatever the fleet. */
    int go = 0;
    MPI_Request req;
    MPI_Irecv(&go, 1, MPI_INT, 0, TAG_COUNTS, fleet->world, &req);
    wait_idle(&req); /* a host that finished early waits here while others measure */
    MPI_Send(counts, NPRB_N_TABLES, MPI_UNSIGNED_LONG_LONG, 0, TAG_COUNTS, fleet->world);
    for (int t = 0; t < NPRB_N_TABLES; t++) {
        const struct nprb_rows *rows = &mine->tables[t];
        if (rows->count > 0)
            MPI_Send(rows->data, (int)(rows->count * rows->row_bytes), MPI_BYTE, 0, TAG_ROWS + t,
                     fleet->world);
    }
    return 0;
}

static int receive_rows(const struct nprb_fleet *fleet, int rank, const unsigned long long *counts,
                        struct nprb_results *into)
{
    for (int t = 0; t < NPRB_N_TABLES; t++) {
        struct nprb_rows *rows = &into->tables[t];
        rows->count = 0;
        if (counts[t] == 0)
            continue;
        if (counts[t] > rows->capacity) {
            unsigned char *data = realloc(rows->data, counts[t] * rows->row_bytes);
            if (data == NULL)
                return -1;
            rows->data = data;
            rows->capacity = counts[t];
        }
        MPI_Recv(rows->data, (int)(counts[t] * rows->row_bytes), MPI_BYTE, rank, TAG_ROWS + t,
                 fleet->world, MPI_STATUS_IGNORE);
        rows->count = counts[t];
    }
    return 0;
}

/* Rank 0: whether @p rank waits behind a stuck turn of rank 0's own host (it will never send). */
static bool behind_stuck_turn(const struct nprb_fleet *fleet, int rank)
{
    return fleet->stuck_rank >= 0 && fleet->host_of_rank[rank] == fleet->host_index;
}

int nprb_fleet_gather(struct nprb_fleet *fleet, const struct nprb_results *mine,
                      nprb_rows_sink sink, nprb_hung_sink hung, void *arg, double hung_after_s)
{
    if (fleet->rank != 0)
        return send_rows(fleet, mine);
    int rc = sink(arg, 0, mine), lost = 0, asked = 0, go = 1;
    /* Every host counts as heard of when rank 0 starts waiting: the clock runs from here. */
    for (int h = 0; h < fleet->host_count; h++)
        fleet->heard_ns[h] = nprb_now_ns();
    struct nprb_results buffer;
    nprb_results_init(&buffer);
    for (int r = 1; r < fleet->size; r++) {
        unsigned long long counts[NPRB_N_TABLES];
        char why[NPRB_NOTE_LEN];
        double silent_s = 0;
        if (behind_stuck_turn(fleet, r)) {
            stuck_reason(fleet, r, hung_after_s, why, sizeof why);
            hung(arg, r, why);
            lost++;
            continue;
        }
        if (asked < r)
            MPI_Send(&go, 1, MPI_INT, r, TAG_COUNTS, fleet->world);
        asked = r;
        if (wait_for_counts(fleet, r, counts, hung_after_s, &silent_s) != 0) {
            snprintf(why, sizeof why,
                     "watchdog: host silent for %.1f s (limit %.1f s); see its checkpoint",
                     silent_s, hung_after_s);
            hung(arg, r, why);
            lost++;
            continue;
        }
        if (receive_rows(fleet, r, counts, &buffer) != 0) {
            /* Out of memory on rank 0: there is no way to finish the file. */
            nprb_fleet_abort(fleet, 1);
        }
        fleet->rank_done[r] = true;
        /* The next rank's go-ahead before this one's rows are written: it wakes (a waiting rank
         * naps up to 2 ms between looks) and sends its counts while rank 0 writes, which would
         * otherwise add its wake-up to every rank of the gather. Its rows wait for rank 0's
         * receive, or are held by MPI under its eager limit: two ranks' rows at most. */
        int next = r + 1;
        while (next < fleet->size && behind_stuck_turn(fleet, next))
            next++;
        if (next < fleet->size) {
            MPI_Send(&go, 1, MPI_INT, next, TAG_COUNTS, fleet->world);
            asked = next;
        }
        if (sink(arg, r, &buffer) != 0)
            rc = -1;
    }
    nprb_results_free(&buffer);
    return rc != 0 ? rc : lost;
}

/* Open MPI's library version runs to several lines (package, ident, repo rev, date): the first
 * phrase up to a comma or newline names it. */
void nprb_fleet_print_version(FILE *out)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0, major = 0, minor = 0;
    MPI_Get_library_version(lib, &len);
    MPI_Get_version(&major, &minor);
    lib[strcspn(lib, ",\n")] = '\0';
    fprintf(out, "MPI:      %s (MPI %d.%d)\n", lib, major, minor);
}
