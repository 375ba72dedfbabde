/* SPDX-License-Identifier: BSD-3-Clause */
/* The reader's own decoding of a table's chunks gives what zlib and HDF5 give: the Adler-32 sum
 * by its definition (the sum of the bytes and the sum of those sums, modulo 65521) at every
 * length around the vector blocks and the overflow bound, and the shuffle undone as the
 * byte-by-byte loop of HDF5's filter undoes it, for element counts and sizes on either side of
 * the 8x8 tiles. */
#include "check.h"
#include "results/h5decode.h"

#include <stdint.h>
#include <stdlib.h>

static uint32_t adler_by_definition(uint32_t adler, const unsigned char *buf, size_t len)
{
    uint64_t s1 = adler & 0xffff, s2 = adler >> 16;
    for (size_t i = 0; i < len; i++) {
        s1 = (s1 + buf[i]) % 65521;
        s2 = (s2 + s1) % 65521;
    }
    return (uint32_t)(s2 << 16 | s1);
}

static void adler_sums(void)
{
    enum { MOST = 3 * 5552 + 77 };
    unsigned char *buf = malloc(MOST);
    if (buf == NULL) {
        CHECK(buf != NULL);
        return;
    }
    unsigned seed = 12345;
    for (size_t i = 0; i < MOST; i++) {
        seed = seed * 1103515245u + 12345u;
        buf[i] = (unsigned char)(seed >> 24);
    }
    const size_t lengths[] = {0,  1,    15,   31,   32,   33,   63,    64,
                              65, 1000, 5551, 5552, 5553, 5568, 11104, MOST};
    const uint32_t starts[] = {1, 65520u << 16 | 65520u, 12345u << 16 | 54321u};
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++)
        for (size_t s = 0; s < sizeof starts / sizeof starts[0]; s++) {
            uint32_t start = starts[s];
            uint32_t want = adler_by_definition(start, buf, lengths[l]);
            uint32_t got = nprb_adler32(start, buf, lengths[l]);
            if (got != want)
                fprintf(stderr, "adler32 of %zu random bytes from %08x: %08x, expected %08x\n",
                        lengths[l], start, got, want);
            CHECK(got == want);
        }
    /* All bytes 255 from the largest sums: the most the 32-bit sums can hold before a modulo. */
    memset(buf, 0xff, MOST);
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
        uint32_t start = 65520u << 16 | 65520u;
        CHECK(nprb_adler32(start, buf, lengths[l]) == adler_by_definition(start, buf, lengths[l]));
    }
    free(buf);
}

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
    adler_sums();
    for (size_t elements = 0; elements <= 27; elements++)
        for (size_t size = 1; size <= 27; size++)
            unshuffles(elements, size);
    unshuffles(199, 320); /* a /counters chunk */
    unshuffles(204, 320);
    unshuffles(65536, 1); /* one byte an element: nothing moves */
    return CHECK_DONE();
}
