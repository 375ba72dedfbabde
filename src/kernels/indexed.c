/* SPDX-License-Identifier: BSD-3-Clause */
#include "kernels/indexed.h"

double nprb_index_read(const double *data, const uint32_t *idx, size_t n, uint64_t steps)
{
    /* Two accumulators: enough that the adds never limit the loads, few enough that the loop
     * stays the simple loop of the textbook experiment. */
    double s0 = 0.0, s1 = 0.0;
    size_t i = 0;
    uint64_t done = 0;
    for (; done + 1 < steps; done += 2) {
        s0 += data[idx[i]];
        if (++i == n)
            i = 0;
        s1 += data[idx[i]];
        if (++i == n)
            i = 0;
    }
    if (done < steps)
        s0 += data[idx[i]];
    return s0 + s1;
}
