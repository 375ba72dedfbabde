/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file isolate.h
 * Runs a function in a forked child process, so that a crash inside a library reading a damaged
 * file (HDF5 1.10 trusts some of what it reads, e.g. global heap sizes) becomes a result the
 * caller reports, not the end of numaprobe. Serial tools only: never after MPI_Init.
 */
#ifndef NPRB_ISOLATE_H
#define NPRB_ISOLATE_H

#include <stdbool.h>

/** How the child ended. */
struct nprb_isolated {
    bool crashed;   /**< killed by a signal */
    bool timed_out; /**< ... by the time limit's SIGALRM */
    int signal;     /**< that signal */
    int exit_code;  /**< otherwise: its exit status, @p fn's return value unless it failed */
};

/**
 * Flushes every stdio stream, forks, runs @p fn(@p arg) in the child and waits for it. The
 * child's output goes where this process's goes; its memory changes do not come back. A child
 * still running after @p limit_s seconds (0: no limit) is ended: some damage makes HDF5 loop.
 * @return 0 with @p result filled, or -1 (errno set) when no child could be started.
 */
int nprb_run_isolated(int (*fn)(void *arg), void *arg, unsigned limit_s,
                      struct nprb_isolated *result);

/** Parses a time limit as --timeout takes it: a whole number of seconds. @return it, or -1. */
long nprb_isolated_parse_limit(const char *text);

/** A time limit for reading a file of @p bytes: a minute, and a second more per MiB. */
unsigned nprb_isolated_limit_s(unsigned long long bytes);

#endif
