/* SPDX-License-Identifier: BSD-3-Clause */
#include "kernels/chase.h"

/* Unrolled by 16 so the loop counter's add and branch are amortised to noise even at L1 latency
 * (~1 ns): a loop overhead of one cycle per load would read as +25% there. */
void *nprb_chase(void *start, uint64_t steps)
{
    void **p = start;
    for (uint64_t i = 0; i < steps; i += NPRB_CHASE_UNROLL) {
        p = (void **)*p;
        p = (void **)*p;
        p = (void **)*p;
        p = (void **)*p;
        p = (void **)*p;
        p = (void **)*p;
        p = (void **)*p;
        p = (void **)*p;
        p = (void **)*p;
        p = (void **)*p;
        p = (void **)*p;
        p = (void **)*p;
        p = (void **)*p;
        p = (void **)*p;
        p = (void **)*p;
        p = (void **)*p;
    }
    return p;
}
