/* SPDX-License-Identifier: BSD-3-Clause */
/* The watchdog thread (watchdog.h): the limit on one measurement, and the ticks of a long one. */
#include "util/watchdog.h"

#include "util/timer.h"

#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Wakes at least once a second, and 8 times per limit, to compare the clock with the limit. */
static void nap(struct nprb_watchdog *w)
{
    double step_s = w->limit_s / 8 < 1 ? w->limit_s / 8 : 1;
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    uint64_t ns = (uint64_t)until.tv_nsec + (uint64_t)(step_s * 1e9);
    until.tv_sec += (time_t)(ns / 1000000000u);
    until.tv_nsec = (long)(ns % 1000000000u);
    pthread_cond_timedwait(&w->wake, &w->lock, &until);
}

static void *watch(void *arg)
{
    struct nprb_watchdog *w = arg;
    pthread_mutex_lock(&w->lock);
    while (!w->stop) {
        uint64_t start = w->item_start_ns;
        double ran_s = start > 0 ? (double)(nprb_now_ns() - start) * 1e-9 : 0;
        if (start > 0 && ran_s > w->limit_s) {
            w->fired = true;
            int item = w->item;
            pthread_mutex_unlock(&w->lock);
            w->expired(w->arg, item, ran_s); /* ends the job */
            return NULL;
        }
        uint64_t now = nprb_now_ns();
        if (start > 0 && w->tick != NULL && (double)(now - w->last_tick_ns) * 1e-9 >= w->tick_s) {
            w->last_tick_ns = now;
            int item = w->item;
            pthread_mutex_unlock(&w->lock);
            w->tick(w->arg, item, ran_s);
            pthread_mutex_lock(&w->lock);
        }
        nap(w);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

int nprb_watchdog_start(struct nprb_watchdog *w, double limit_s, nprb_watchdog_expired expired,
                        void *arg)
{
    memset(w, 0, sizeof *w);
    if (limit_s <= 0)
        return 0;
    w->limit_s = limit_s;
    w->expired = expired;
    w->arg = arg;
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&w->wake, &attr);
    pthread_condattr_destroy(&attr);
    pthread_mutex_init(&w->lock, NULL);
    int rc = pthread_create(&w->thread, NULL, watch, w);
    if (rc != 0) {
        pthread_cond_destroy(&w->wake);
        pthread_mutex_destroy(&w->lock);
        errno = rc;
        return -1;
    }
    w->started = true;
    return 0;
}

void nprb_watchdog_every(struct nprb_watchdog *w, double every_s, nprb_watchdog_tick tick)
{
    if (!w->started)
        return;
    pthread_mutex_lock(&w->lock);
    w->tick_s = every_s;
    w->tick = tick;
    pthread_mutex_unlock(&w->lock);
}

void nprb_watchdog_ticked(struct nprb_watchdog *w)
{
    if (!w->started)
        return;
    pthread_mutex_lock(&w->lock);
    w->last_tick_ns = nprb_now_ns();
    pthread_mutex_unlock(&w->lock);
}

void nprb_watchdog_enter(struct nprb_watchdog *w, int item)
{
    if (!w->started)
        return;
    pthread_mutex_lock(&w->lock);
    w->item = item;
    w->item_start_ns = nprb_now_ns();
    pthread_mutex_unlock(&w->lock);
}

void nprb_watchdog_leave(struct nprb_watchdog *w)
{
    if (!w->started)
        return;
    pthread_mutex_lock(&w->lock);
    w->item_start_ns = 0;
    bool fired = w->fired;
    pthread_mutex_unlock(&w->lock);
    if (fired)
        for (;;)
            pause(); /* the handler is writing the file from what it copied; then the job ends */
}

void nprb_watchdog_stop(struct nprb_watchdog *w)
{
    if (!w->started)
        return;
    pthread_mutex_lock(&w->lock);
    w->stop = true;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->lock);
    w->started = false;
}
