/* SPDX-License-Identifier: BSD-3-Clause */
#include "kernels/chase.h"

#include <stddef.h>

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

/* One function per chain count, its positions in registers: a loop over an array of positions
 * would store and reload each position every round, and the store-to-load forwarding would add
 * to every chain's latency. With 16 chains x86-64 runs out of registers and spills a few, as
 * multichase's parallel16 does. */
#define CHASE_CHAINS(n)                                                                            \
    static void chase_##n(void **heads, uint64_t steps)                                            \
    {                                                                                              \
        void *p[n];                                                                                \
        for (unsigned j = 0; j < (n); j++)                                                         \
            p[j] = heads[j];                                                                       \
        for (uint64_t i = 0; i < steps; i++) {                                                     \
            _Pragma("GCC unroll 16") for (unsigned j = 0; j < (n); j++) p[j] = *(void **)p[j];     \
        }                                                                                          \
        for (unsigned j = 0; j < (n); j++)                                                         \
            heads[j] = p[j];                                                                       \
    }
CHASE_CHAINS(1)
CHASE_CHAINS(2)
CHASE_CHAINS(3)
CHASE_CHAINS(4)
CHASE_CHAINS(5)
CHASE_CHAINS(6)
CHASE_CHAINS(7)
CHASE_CHAINS(8)
CHASE_CHAINS(9)
CHASE_CHAINS(10)
CHASE_CHAINS(11)
CHASE_CHAINS(12)
CHASE_CHAINS(13)
CHASE_CHAINS(14)
CHASE_CHAINS(15)
CHASE_CHAINS(16)

static void (*const chase_by_chains[NPRB_CHASE_MAX_CHAINS + 1])(void **, uint64_t) = {
    NULL,    chase_1,  chase_2,  chase_3,  chase_4,  chase_5,  chase_6,  chase_7, chase_8,
    chase_9, chase_10, chase_11, chase_12, chase_13, chase_14, chase_15, chase_16};

void nprb_chase_parallel(void **heads, unsigned chains, uint64_t steps)
{
    if (chains >= 1 && chains <= NPRB_CHASE_MAX_CHAINS)
        chase_by_chains[chains](heads, steps);
}
