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

    uint64_t a = nprb_now_ns(), b = nprb_now_ns();
    CHECK(b >= a);
    uint64_t tick = nprb_clock_tick_ns();
    CHECK(tick > 0 && tick < 1000000);
    return CHECK_DONE();
}
