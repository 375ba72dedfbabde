/* SPDX-License-Identifier: BSD-3-Clause */
#include "util/timer.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

/* CLOCK_MONOTONIC_RAW runs at the hardware counter's own rate (the TSC, Arm's generic timer):
 * NTP's slewing of CLOCK_MONOTONIC would stretch or shrink a measured interval by up to 500 ppm.
 * Only intervals between two of its readings mean anything; a timed wait on a condition variable
 * uses its own clock (watchdog.c). */
uint64_t nprb_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t nprb_clock_tick_ns(void)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 100; i++) {
        uint64_t t0 = nprb_now_ns();
        uint64_t t1;
        do {
            t1 = nprb_now_ns();
        } while (t1 == t0);
        if (t1 - t0 < best)
            best = t1 - t0;
    }
    return best;
}

uint64_t nprb_deadline_next(uint64_t origin_ns, uint64_t period_ns, uint64_t now_ns)
{
    if (period_ns == 0)
        return now_ns;
    uint64_t earliest = now_ns + period_ns / 4;
    if (earliest < origin_ns + period_ns)
        return origin_ns + period_ns;
    return origin_ns + (earliest - origin_ns + period_ns - 1) / period_ns * period_ns;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Nearest rank: the smallest value with at least p of the samples at or below it. */
static double rank_value(const double *sorted, size_t count, double p)
{
    size_t rank = (size_t)ceil(p * (double)count);
    if (rank < 1)
        rank = 1;
    return sorted[rank - 1];
}

/* The median of @p sorted, which holds @p count > 0 values in order. */
static double middle(const double *sorted, size_t count)
{
    return count % 2 ? sorted[count / 2] : 0.5 * (sorted[count / 2 - 1] + sorted[count / 2]);
}

double nprb_median(double *values, size_t count)
{
    if (count == 0)
        return NAN;
    qsort(values, count, sizeof *values, compare_double);
    return middle(values, count);
}

struct nprb_stats nprb_stats_of(double *values, size_t count)
{
    struct nprb_stats s = {NAN, NAN, NAN, NAN, NAN, count};
    if (count == 0)
        return s;
    qsort(values, count, sizeof *values, compare_double);
    s.min = values[0];
    s.max = values[count - 1];
    s.median = middle(values, count);
    s.p90 = rank_value(values, count, 0.90);
    s.p99 = rank_value(values, count, 0.99);
    return s;
}

void nprb_utc_now(char *buf, size_t len, bool compact)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    if (compact)
        strftime(buf, len, "%Y%m%dT%H%M%SZ", &tm);
    else
        strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
