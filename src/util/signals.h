/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file signals.h
 * What must still happen when the job is killed by SIGINT, SIGTERM or SIGHUP (a scheduler's time
 * limit, Ctrl-C, a lost terminal): a kernel setting put back, a half-written file removed. The
 * handler runs every registered cleanup, newest first, then dies of the same signal, so the exit
 * status still says what ended the process. A signal that already had a handler (an MPI
 * library's, say) keeps it.
 */
#ifndef NPRB_SIGNALS_H
#define NPRB_SIGNALS_H

/** A cleanup: async-signal-safe (write, unlink, close: no stdio, no malloc, no locks). */
typedef void (*nprb_cleanup_fn)(void);

/** Registers @p fn (once, however often it is called). @return 0, or -1 when the table is full. */
int nprb_signals_on_kill(nprb_cleanup_fn fn);

#endif
