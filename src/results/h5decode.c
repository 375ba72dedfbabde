/* SPDX-License-Identifier: BSD-3-Clause */
#include "results/h5decode.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__SSE2__)
/* Transposes the 8x8 bytes at @p in (rows @p in_stride apart) to @p out (rows @p out_stride
 * apart): three rounds of interleaving, bytes, then pairs, then fours. */
static void transpose8(unsigned char *out, size_t out_stride, const unsigned char *in,
                       size_t in_stride)
{
#define LOAD8(k) _mm_loadl_epi64((const __m128i *)(const void *)(in + (k)*in_stride))
#define STORE8(k, v) _mm_storel_epi64((__m128i *)(void *)(out + (k)*out_stride), (v))
    /* Named registers, not arrays: the compiler would pass an array through the stack. */
    __m128i t0 = _mm_unpacklo_epi8(LOAD8(0), LOAD8(1)), t1 = _mm_unpacklo_epi8(LOAD8(2), LOAD8(3));
    __m128i t2 = _mm_unpacklo_epi8(LOAD8(4), LOAD8(5)), t3 = _mm_unpacklo_epi8(LOAD8(6), LOAD8(7));
    __m128i u0 = _mm_unpacklo_epi16(t0, t1), u1 = _mm_unpackhi_epi16(t0, t1);
    __m128i u2 = _mm_unpacklo_epi16(t2, t3), u3 = _mm_unpackhi_epi16(t2, t3);
    __m128i v0 = _mm_unpacklo_epi32(u0, u2), v1 = _mm_unpackhi_epi32(u0, u2);
    __m128i v2 = _mm_unpacklo_epi32(u1, u3), v3 = _mm_unpackhi_epi32(u1, u3);
    STORE8(0, v0);
    STORE8(1, _mm_srli_si128(v0, 8));
    STORE8(2, v1);
    STORE8(3, _mm_srli_si128(v1, 8));
    STORE8(4, v2);
    STORE8(5, _mm_srli_si128(v2, 8));
    STORE8(6, v3);
    STORE8(7, _mm_srli_si128(v3, 8));
#undef LOAD8
#undef STORE8
}

/* HDF5 moves a byte at a time, each to a different element: a fifth of reading a fleet's file
 * with its 320-byte counter rows. Here 8x8 tiles go through registers; the last tile of a row
 * or a column overlaps the one before rather than leaving a remainder (its bytes are written
 * twice, alike). */
void nprb_unshuffle(unsigned char *out, const unsigned char *in, size_t elements, size_t size)
{
    if (elements < 8 || size < 8) {
        for (size_t e = 0; e < elements; e++)
            for (size_t b = 0; b < size; b++)
                out[e * size + b] = in[b * elements + e];
        return;
    }
    for (size_t e = 0; e < elements; e += 8) {
        size_t at = e + 8 <= elements ? e : elements - 8;
        for (size_t b = 0; b < size; b += 8) {
            size_t byte = b + 8 <= size ? b : size - 8;
            transpose8(out + at * size + byte, size, in + byte * elements + at, elements);
        }
    }
}
#else
void nprb_unshuffle(unsigned char *out, const unsigned char *in, size_t elements, size_t size)
{
    for (size_t e = 0; e < elements; e++)
        for (size_t b = 0; b < size; b++)
            out[e * size + b] = in[b * elements + e];
}
#endif
