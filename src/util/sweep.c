/* SPDX-License-Identifier: BSD-3-Clause */
#include "util/sweep.h"

#include <stdlib.h>

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void add(uint64_t *points, int cap, int *n, uint64_t value, uint64_t min, uint64_t max)
{
    value = value / 256 * 256;
    if (value >= min && value <= max && *n < cap)
        points[(*n)++] = value;
}

uint64_t nprb_sweep_auto_max(uint64_t llc_bytes)
{
    uint64_t max = 4 * llc_bytes;
    return max < NPRB_SWEEP_AUTO_CAP ? max : NPRB_SWEEP_AUTO_CAP;
}

int nprb_sweep_points(const uint64_t *cache_bytes, int caches, uint64_t min, uint64_t max,
                      uint64_t *points, int cap)
{
    int n = 0;
    uint64_t first = 256;
    while (first < min)
        first *= 2;
    for (uint64_t p = first; p <= max && p != 0; p *= 2)
        add(points, cap, &n, p, min, max);
    add(points, cap, &n, min, min, max);
    add(points, cap, &n, max, min, max);
    /* Around each cache: below it (fits), at it (the transition), above it (spills). */
    for (int c = 0; c < caches; c++) {
        if (cache_bytes[c] == 0)
            continue;
        add(points, cap, &n, cache_bytes[c] / 4 * 3, min, max);
        add(points, cap, &n, cache_bytes[c], min, max);
        add(points, cap, &n, cache_bytes[c] / 2 * 3, min, max);
    }
    qsort(points, (size_t)n, sizeof *points, compare_u64);
    int unique = 0;
    for (int i = 0; i < n; i++)
        if (unique == 0 || points[i] != points[unique - 1])
            points[unique++] = points[i];
    return unique;
}

int nprb_step_near(const uint64_t *sizes, const double *ns, int n, uint64_t cache_bytes,
                   uint64_t *step, double *rise)
{
    int found = -1;
    double best = 0;
    for (int i = 0; i + 1 < n; i++) {
        if (sizes[i] < cache_bytes / 4 || sizes[i] >= cache_bytes * 2 || !(ns[i] > 0) ||
            sizes[i + 1] > sizes[i] * 4)
            continue;
        double r = ns[i + 1] / ns[i];
        if (found < 0 || r > best) {
            best = r;
            found = i;
        }
    }
    if (found < 0)
        return -1;
    *step = sizes[found];
    *rise = best;
    return 0;
}
