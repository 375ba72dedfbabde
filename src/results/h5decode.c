/* SPDX-License-Identifier: BSD-3-Clause */
#include "results/h5decode.h"

#include <string.h>
#include <zlib.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

enum {
    ADLER_BASE = 65521, /* the largest prime below 2^16 */
    ADLER_NMAX = 5552,  /* the most bytes summed before the 32-bit sums could overflow */
};

#if defined(__SSE2__)
static uint32_t sum_lanes(__m128i v)
{
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2)));
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1)));
    return (uint32_t)_mm_cvtsi128_si32(v);
}

/* zlib's adler32 adds byte after byte, each sum waiting on the one before: about a byte a cycle,
 * and a sixth of reading a fleet's file. Here 32 bytes at a time: s1 grows by their sum, s2 by
 * 32 times s1 before them plus each byte weighted by how many of the 32 sums it enters. */
uint32_t nprb_adler32(uint32_t adler, const unsigned char *buf, size_t len)
{
    enum { BLOCK = 32 };
    uint32_t s1 = adler & 0xffff, s2 = adler >> 16;
    const __m128i zero = _mm_setzero_si128();
    const __m128i w0 = _mm_setr_epi16(32, 31, 30, 29, 28, 27, 26, 25);
    const __m128i w1 = _mm_setr_epi16(24, 23, 22, 21, 20, 19, 18, 17);
    const __m128i w2 = _mm_setr_epi16(16, 15, 14, 13, 12, 11, 10, 9);
    const __m128i w3 = _mm_setr_epi16(8, 7, 6, 5, 4, 3, 2, 1);
    while (len >= BLOCK) {
        size_t blocks = (len < ADLER_NMAX ? len : ADLER_NMAX) / BLOCK;
        len -= blocks * BLOCK;
        __m128i vs1 = _mm_cvtsi32_si128((int)s1), vs2 = _mm_cvtsi32_si128((int)s2);
        __m128i before = zero; /* s1 at the start of each block, summed */
        for (; blocks > 0; blocks--, buf += BLOCK) {
            __m128i a = _mm_loadu_si128((const __m128i *)(const void *)buf);
            __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(buf + 16));
            before = _mm_add_epi32(before, vs1);
            vs1 = _mm_add_epi32(vs1, _mm_add_epi32(_mm_sad_epu8(a, zero), _mm_sad_epu8(b, zero)));
            __m128i t = _mm_add_epi32(_mm_madd_epi16(_mm_unpacklo_epi8(a, zero), w0),
                                      _mm_madd_epi16(_mm_unpackhi_epi8(a, zero), w1));
            t = _mm_add_epi32(t, _mm_madd_epi16(_mm_unpacklo_epi8(b, zero), w2));
            t = _mm_add_epi32(t, _mm_madd_epi16(_mm_unpackhi_epi8(b, zero), w3));
            vs2 = _mm_add_epi32(vs2, t);
        }
        vs2 = _mm_add_epi32(vs2, _mm_slli_epi32(before, 5));
        s1 = sum_lanes(vs1) % ADLER_BASE;
        s2 = sum_lanes(vs2) % ADLER_BASE;
    }
    for (; len > 0; len--) { /* under a block: no overflow */
        s1 += *buf++;
        s2 += s1;
    }
    return (s2 % ADLER_BASE) << 16 | (s1 % ADLER_BASE);
}
#else
uint32_t nprb_adler32(uint32_t adler, const unsigned char *buf, size_t len)
{
    while (len > 0) {
        uInt n = len < ADLER_NMAX ? (uInt)len : ADLER_NMAX;
        adler = (uint32_t)adler32(adler, buf, n);
        buf += n;
        len -= n;
    }
    return adler;
}
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
