/* SPDX-License-Identifier: BSD-3-Clause */
/* The in-process watchdog (watchdog.h): a measurement that outlives its limit is reported with
 * its item number and how long it had run; one that ends in time is not; off means no thread. */
#include "check.h"
#include "util/watchdog.h"

#include <stdatomic.h>
#include <time.h>

static atomic_int expired_item = -1;
static _Atomic double expired_after_s;

static void on_expiry(void *arg, int item, double ran_s)
{
    (void)arg;
    expired_after_s = ran_s;
    expired_item = item; /* a real handler ends the job; this one lets the test go on */
}

static atomic_int ticked_item = -1;

static void on_tick(void *arg, int item, double ran_s)
{
    (void)arg;
    (void)ran_s;
    atomic_store(&ticked_item, item);
}

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000};
    nanosleep(&t, NULL);
}

int main(void)
{
    struct nprb_watchdog w;

    /* Off: no thread, enter and leave do nothing. */
    CHECK(nprb_watchdog_start(&w, 0, on_expiry, NULL) == 0 && !w.started);
    nprb_watchdog_enter(&w, 1);
    nprb_watchdog_leave(&w);
    nprb_watchdog_stop(&w);

    /* A measurement longer than the tick interval is ticked while it runs (the progress line of
     * a long one); waited for without a time limit on it, so a loaded machine cannot fail it. */
    CHECK(nprb_watchdog_start(&w, 600, on_expiry, NULL) == 0 && w.started);
    nprb_watchdog_every(&w, 0.01, on_tick);
    nprb_watchdog_enter(&w, 7);
    for (int i = 0; i < 6000 && atomic_load(&ticked_item) < 0; i++)
        sleep_ms(10);
    nprb_watchdog_leave(&w);
    nprb_watchdog_stop(&w);
    CHECK(atomic_load(&ticked_item) == 7 && atomic_load(&expired_item) == -1);

    /* Measurements that end long before the limit (60 s) are never reported. */
    CHECK(nprb_watchdog_start(&w, 60, on_expiry, NULL) == 0 && w.started);
    for (int i = 0; i < 100; i++) {
        nprb_watchdog_enter(&w, i);
        nprb_watchdog_leave(&w);
    }
    nprb_watchdog_stop(&w);
    CHECK(expired_item == -1 && !w.fired);

    /* One that never ends within the limit (0.2 s) is reported once, with its item number and
     * a running time past the limit. Waits up to 30 s for it: a loaded machine only delays. */
    CHECK(nprb_watchdog_start(&w, 0.2, on_expiry, NULL) == 0);
    nprb_watchdog_enter(&w, 7);
    for (int waited = 0; expired_item == -1 && waited < 3000; waited++)
        sleep_ms(10);
    CHECK(expired_item == 7);
    CHECK(expired_after_s > 0.2);
    CHECK(w.fired);
    nprb_watchdog_stop(&w); /* the thread ended after its handler: joins at once */
    return CHECK_DONE();
}
