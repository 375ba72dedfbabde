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

/** Called from the watchdog's thread while one measurement runs long (nprb_watchdog_every()). */
typedef void (*nprb_watchdog_tick)(void *arg, int item, double ran_s);

struct nprb_watchdog {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    double limit_s;
    nprb_watchdog_expired expired;
    void *arg;
    uint64_t item_start_ns; /**< 0 between measurements */
    nprb_watchdog_tick tick;
    double tick_s;
    uint64_t last_tick_ns;
    int item;
    bool started, stop, fired;
};

/**
 * Starts the thread; @p limit_s <= 0 starts nothing (the watchdog is off).
 * @return 0, or -1 when the thread could not be started (errno).
 */
int nprb_watchdog_start(struct nprb_watchdog *w, double limit_s, nprb_watchdog_expired expired,
                        void *arg);

/**
 * While one measurement runs, calls @p tick (with the expiry handler's arg) every @p every_s
 * seconds, to a second's precision: the progress line of a measurement longer than the
 * interval. Call after nprb_watchdog_start(); nothing when the watchdog is off.
 */
void nprb_watchdog_every(struct nprb_watchdog *w, double every_s, nprb_watchdog_tick tick);

/** The caller printed its own line just now: the next tick is due @p every_s from here. */
void nprb_watchdog_ticked(struct nprb_watchdog *w);

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
