/* SPDX-License-Identifier: BSD-3-Clause */
/* The index-array random read: every element read once per lap, the sum exact. */
#include "check.h"
#include "kernels/indexed.h"

#include <stdint.h>
#include <stdlib.h>

int main(void)
{
    static const size_t sizes[] = {1, 2, 3, 1000};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        double *data = malloc(n * sizeof *data);
        uint32_t *idx = malloc(n * sizeof *idx);
        for (size_t i = 0; i < n; i++) {
            data[i] = (double)(i + 1);
            idx[i] = (uint32_t)(n - 1 - i); /* a permutation */
        }
        double lap = (double)n * (double)(n + 1) / 2;
        CHECK(nprb_index_read(data, idx, n, n) == lap);
        CHECK(nprb_index_read(data, idx, n, 3 * n) == 3 * lap);
        CHECK(nprb_index_read(data, idx, n, 0) == 0.0);
        /* Odd step counts wrap mid-lap correctly. */
        CHECK(nprb_index_read(data, idx, n, n + 1) == lap + (double)n);
        free(data);
        free(idx);
    }
    return CHECK_DONE();
}
