/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file watchdog.h
 * A timer around each measurement of one rank, kept by a thread of its own: when a measurement
 * has run longer than the limit, the thread calls the expiry handler, which ends the job and
 * does not return. Rank 0 needs it because nobody else can gather when rank 0 itself hangs; the
 * other ranks are watched from rank 0 by their heartbeats (fleet.h).
 */
#ifndef NPRB_WATCHDOG_H
#define NPRB_WATCHDOG_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

typedef void (*nprb_watchdog_expired)(void *arg, int item, double ran_s);

struct nprb_watchdog {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    double limit_s;
    nprb_watchdog_expired expired;
    void *arg;
    uint64_t item_start_ns; /**< 0 between measurements */
    int item;
    bool started, stop, fired;
};

/**
 * Starts the thread; @p limit_s <= 0 starts nothing (the watchdog is off).
 * @return 0, or -1 when the thread could not be started (errno).
 */
int nprb_watchdog_start(struct nprb_watchdog *w, double limit_s, nprb_watchdog_expired expired,
                        void *arg);

/** A measurement (plan item @p item) begins: its clock starts. */
void nprb_watchdog_enter(struct nprb_watchdog *w, int item);

/**
 * The measurement ended. When it ended too late, the handler is already ending the job with
 * what it had: the calling thread then waits here for the end, touching nothing.
 */
void nprb_watchdog_leave(struct nprb_watchdog *w);

/** Stops and joins the thread (nothing when it was not started). */
void nprb_watchdog_stop(struct nprb_watchdog *w);

#endif
