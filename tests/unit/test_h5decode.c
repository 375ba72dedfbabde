/* SPDX-License-Identifier: BSD-3-Clause */
/* The reader's own decoding of an older file's chunks gives what HDF5 gives: the shuffle undone
 * as the byte-by-byte loop of HDF5's filter undoes it, for element counts and sizes on either
 * side of the 8x8 tiles. */
#include "check.h"
#include "results/h5decode.h"

#include <stdint.h>
#include <stdlib.h>

static void unshuffles(size_t elements, size_t size)
{
    size_t n = elements * size;
    unsigned char *in = malloc(n ? n : 1), *out = malloc(n ? n : 1);
    if (in == NULL || out == NULL) {
        CHECK(in != NULL && out != NULL);
        free(in);
        free(out);
        return;
    }
    for (size_t i = 0; i < n; i++)
        in[i] = (unsigned char)(i * 131 + i / 256);
    memset(out, 0xa5, n);
    nprb_unshuffle(out, in, elements, size);
    size_t wrong = 0;
    for (size_t e = 0; e < elements; e++)
        for (size_t b = 0; b < size; b++)
            wrong += out[e * size + b] != in[b * elements + e];
    if (wrong != 0)
        fprintf(stderr, "unshuffle of %zu elements of %zu bytes: %zu bytes wrong\n", elements, size,
                wrong);
    CHECK(wrong == 0);
    free(in);
    free(out);
}

int main(void)
{
    for (size_t elements = 0; elements <= 27; elements++)
        for (size_t size = 1; size <= 27; size++)
            unshuffles(elements, size);
    unshuffles(199, 320); /* a /counters chunk */
    unshuffles(204, 320);
    unshuffles(65536, 1); /* one byte an element: nothing moves */
    return CHECK_DONE();
}
