/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "util/timer.h"

#include <math.h>

int main(void)
{
    double v[] = {5, 1, 4, 2, 3};
    struct nprb_stats s = nprb_stats_of(v, 5);
    CHECK(s.min == 1 && s.max == 5 && s.median == 3 && s.count == 5);
    CHECK(s.p90 == 5 && s.p99 == 5);

    double w[100];
    for (int i = 0; i < 100; i++)
        w[i] = 100 - i; /* 1..100, reversed */
    s = nprb_stats_of(w, 100);
    CHECK(s.median == 50.5);
    CHECK(s.p90 == 90 && s.p99 == 99 && s.max == 100);

    double even[] = {4, 1, 3, 2};
    CHECK(nprb_stats_of(even, 4).median == 2.5);
    CHECK(isnan(nprb_stats_of(even, 0).median));

    /* The one median: odd and even counts, sorted in place, NaN for none. */
    double odd[] = {7, 3, 9};
    CHECK(nprb_median(odd, 3) == 7 && odd[0] == 3 && odd[2] == 9);
    double pair[] = {10, 2};
    CHECK(nprb_median(pair, 2) == 6);
    CHECK(isnan(nprb_median(pair, 0)));

    /* A sampler's deadlines keep to origin + j * period, whenever each sample starts: a start
     * a little late still ends on the next point, one with less than a quarter period left
     * ends on the point after it, and none drifts by the time spent between samples. */
    const uint64_t origin = 1000000000, period = 250000000;
    CHECK(nprb_deadline_next(origin, period, origin) == origin + period);
    CHECK(nprb_deadline_next(origin, period, origin + period + 5000000) == origin + 2 * period);
    CHECK(nprb_deadline_next(origin, period, origin + 2 * period - period / 4) ==
          origin + 2 * period);
    CHECK(nprb_deadline_next(origin, period, origin + 2 * period - period / 4 + 1) ==
          origin + 3 * period);
    CHECK(nprb_deadline_next(origin, period, origin + 7 * period + 1) == origin + 8 * period);
    uint64_t at = origin, ends[40];
    for (int k = 0; k < 40; k++) {
        ends[k] = nprb_deadline_next(origin, period, at);
        at = ends[k] + period / 10; /* each sample's census and bookkeeping take a tenth */
    }
    CHECK(ends[39] == origin + 40 * period);
    CHECK(nprb_deadline_next(origin, 0, origin + 123) == origin + 123);

    uint64_t a = nprb_now_ns(), b = nprb_now_ns();
    CHECK(b >= a);
    uint64_t tick = nprb_clock_tick_ns();
    CHECK(tick > 0 && tick < 1000000);
    return CHECK_DONE();
}
