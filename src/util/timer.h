/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file timer.h
 * Monotonic time and the statistics every measurement reports (never one mean).
 */
#ifndef NPRB_TIMER_H
#define NPRB_TIMER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Nanoseconds from CLOCK_MONOTONIC_RAW (never slewed by NTP): compare only with other values
 * of this function, never with another clock's readings. */
uint64_t nprb_now_ns(void);

/**
 * The smallest non-zero step the clock shows, measured by reading it back to back (clock_getres
 * may claim 1 ns where the real step is coarser). Each sample lasts at least 20 of these.
 */
uint64_t nprb_clock_tick_ns(void);

/**
 * When the sample that starts at @p now_ns ends, on the schedule @p origin_ns + j * @p period_ns
 * (j >= 1): the first point of it at least a quarter period after @p now_ns, so that a sample
 * started late (the work between samples overran) skips a point rather than lasting an instant.
 * Keeping to the points, not to a period after each start, keeps that work from stretching the
 * spacing. With @p period_ns 0 it is @p now_ns: samples as often as they can be made.
 */
uint64_t nprb_deadline_next(uint64_t origin_ns, uint64_t period_ns, uint64_t now_ns);

/** The wall-clock time now, in UTC: ISO 8601 (2026-01-31T12:00:00Z), or with @p compact the
 * basic form (20260131T120000Z) that fits in a file name. */
void nprb_utc_now(char *buf, size_t len, bool compact);

struct nprb_stats {
    double min, median, p90, p99, max;
    size_t count;
};

/**
 * Order statistics of @p values (sorted in place). Percentiles use the nearest-rank method;
 * the median is nprb_median()'s. With count == 0 every field is NaN.
 */
struct nprb_stats nprb_stats_of(double *values, size_t count);

/**
 * The median of @p values (sorted in place): the middle value, or the mean of the two middle
 * ones for an even @p count; NaN for none. The one median of numaprobe: every figure called a
 * median, from samples, cells or ranks, is this one.
 */
double nprb_median(double *values, size_t count);

#endif
