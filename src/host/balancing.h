/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file balancing.h
 * Changing kernel.numa_balancing for an experiment and always putting it back: on return, on
 * exit, and on SIGINT/SIGTERM/SIGHUP (the handler restores the saved value, then lets the signal
 * do what it would have done).
 */
#ifndef NPRB_BALANCING_H
#define NPRB_BALANCING_H

/** The current setting (0, 1, 2...), or -1 when /proc/sys/kernel/numa_balancing is unreadable. */
int nprb_balancing_get(void);

/**
 * Sets kernel.numa_balancing to @p value, remembering the setting found the first time, and
 * arms the restore on exit and on signals. @return 0, or -1 with errno (EACCES without root).
 */
int nprb_balancing_set(int value);

/** Puts back the setting found before the first nprb_balancing_set(); idempotent. */
void nprb_balancing_restore(void);

#endif
