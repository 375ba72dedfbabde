/* SPDX-License-Identifier: BSD-3-Clause */
/* The non-temporal variants of x86-64 (stream_nt.h): AVX-512, AVX2 and SSE2 streaming stores.
 * Arm64's are in stream_nt_arm64.c; each file builds to nothing on the other instruction set. */
#include "kernels/stream_nt.h"

#if defined(__x86_64__)

#include "kernels/stream.h"
#include "kernels/stream_loops.h"

#include <immintrin.h>
#include <stdint.h>

/* Why non-temporal stores: an ordinary store that misses the cache first reads the line it
 * writes (write-allocate), so a write moves 16 bytes per 8 on the bus and a copy 24 per 16.
 * A streaming store fills a write-combining buffer and sends whole lines to memory without
 * reading them, which is what write_nt and copy_nt measure.
 *
 * A streaming store needs an address aligned to its width, so each loop stores the elements
 * before the first aligned one (the head) and those after the last whole vector (the tail) with
 * ordinary stores: at most a line each, nothing against arrays of megabytes.
 *
 * Streaming stores are weakly ordered and may still sit in the write-combining buffers when the
 * loop ends; the closing sfence drains them, so a timer read after return counts their trip to
 * memory and another thread that reads the array after a barrier sees every value.
 *
 * copy_nt keeps one stream: copying four pages at once, as glibc's large copy does, was slower on
 * one EPYC and no faster on another. How both compare with glibc, rep movsb and STREAM:
 * bench/README.md. */

/* The write streams four pages at once, a line of each in turn (glibc's large memcpy and memset
 * interleave pages the same way): four open DRAM pages instead of one, and the memory controller
 * has four streams to schedule. It led a single stream on a Zen 5 EPYC and tied it elsewhere
 * (bench/README.md). */
#define PAGE_DOUBLES ((size_t)512)       /* 4 KiB */
#define GROUP_DOUBLES (4 * PAGE_DOUBLES) /* the four pages written together */

/* One 64-byte store is one whole line: the write-combining buffer fills in one go. */
__attribute__((target("avx512f"))) static void write_avx512f(double *a, size_t n, double x)
{
    size_t i = nprb_head_to(a, n, 64);
    for (size_t j = 0; j < i; j++)
        a[j] = x;
    const __m512d v = _mm512_set1_pd(x);
    for (; i + GROUP_DOUBLES <= n; i += GROUP_DOUBLES)
        for (size_t j = i; j < i + PAGE_DOUBLES; j += 8)
            for (size_t page = 0; page < GROUP_DOUBLES; page += PAGE_DOUBLES)
                _mm512_stream_pd(a + j + page, v);
    for (; i + 8 <= n; i += 8)
        _mm512_stream_pd(a + i, v);
    for (; i < n; i++)
        a[i] = x;
    _mm_sfence();
}

__attribute__((target("avx512f"))) static void copy_avx512f(double *c, const double *a, size_t n)
{
    size_t i = nprb_head_to(c, n, 64);
    for (size_t j = 0; j < i; j++)
        c[j] = a[j];
    /* Only the stores need alignment; a may sit anywhere relative to c. */
    for (; i + 8 <= n; i += 8)
        _mm512_stream_pd(c + i, _mm512_loadu_pd(a + i));
    for (; i < n; i++)
        c[i] = a[i];
    _mm_sfence();
}

/* a[i] = b[i] + s*c[i] with streaming stores: STREAM's triad with two reads and one write on the
 * bus, where the ordinary triad's write-allocate adds a third read. */
__attribute__((target("avx512f"))) static void triad_avx512f(double *a, const double *b,
                                                             const double *c, size_t n, double s)
{
    size_t i = nprb_head_to(a, n, 64);
    for (size_t j = 0; j < i; j++)
        a[j] = b[j] + s * c[j];
    const __m512d vs = _mm512_set1_pd(s);
    for (; i + 8 <= n; i += 8)
        _mm512_stream_pd(a + i, _mm512_add_pd(_mm512_loadu_pd(b + i),
                                              _mm512_mul_pd(vs, _mm512_loadu_pd(c + i))));
    for (; i < n; i++)
        a[i] = b[i] + s * c[i];
    _mm_sfence();
}

/* Two 32-byte stores per line, issued back to back, so each line's write-combining buffer is
 * complete before the next line starts; a partly filled buffer would be flushed as smaller
 * transfers. */
__attribute__((target("avx2"))) static void write_avx2(double *a, size_t n, double x)
{
    size_t i = nprb_head_to(a, n, 64); /* a line, for the four-page loop */
    for (size_t j = 0; j < i; j++)
        a[j] = x;
    const __m256d v = _mm256_set1_pd(x);
    for (; i + GROUP_DOUBLES <= n; i += GROUP_DOUBLES)
        for (size_t j = i; j < i + PAGE_DOUBLES; j += 8)
            for (size_t page = 0; page < GROUP_DOUBLES; page += PAGE_DOUBLES) {
                _mm256_stream_pd(a + j + page, v);
                _mm256_stream_pd(a + j + page + 4, v);
            }
    for (; i + 4 <= n; i += 4)
        _mm256_stream_pd(a + i, v);
    for (; i < n; i++)
        a[i] = x;
    _mm_sfence();
}

__attribute__((target("avx2"))) static void copy_avx2(double *c, const double *a, size_t n)
{
    size_t i = nprb_head_to(c, n, 32);
    for (size_t j = 0; j < i; j++)
        c[j] = a[j];
    for (; i + 4 <= n; i += 4)
        _mm256_stream_pd(c + i, _mm256_loadu_pd(a + i));
    for (; i < n; i++)
        c[i] = a[i];
    _mm_sfence();
}

__attribute__((target("avx2"))) static void triad_avx2(double *a, const double *b, const double *c,
                                                       size_t n, double s)
{
    size_t i = nprb_head_to(a, n, 32);
    for (size_t j = 0; j < i; j++)
        a[j] = b[j] + s * c[j];
    const __m256d vs = _mm256_set1_pd(s);
    for (; i + 4 <= n; i += 4)
        _mm256_stream_pd(a + i, _mm256_add_pd(_mm256_loadu_pd(b + i),
                                              _mm256_mul_pd(vs, _mm256_loadu_pd(c + i))));
    for (; i < n; i++)
        a[i] = b[i] + s * c[i];
    _mm_sfence();
}

/* SSE2 is part of x86-64 itself: this path needs no target attribute and runs everywhere. */
static void write_sse2(double *a, size_t n, double x)
{
    size_t i = nprb_head_to(a, n, 64); /* a line, for the four-page loop */
    for (size_t j = 0; j < i; j++)
        a[j] = x;
    const __m128d v = _mm_set1_pd(x);
    for (; i + GROUP_DOUBLES <= n; i += GROUP_DOUBLES)
        for (size_t j = i; j < i + PAGE_DOUBLES; j += 8)
            for (size_t page = 0; page < GROUP_DOUBLES; page += PAGE_DOUBLES)
                for (size_t k = 0; k < 8; k += 2)
                    _mm_stream_pd(a + j + page + k, v);
    for (; i + 2 <= n; i += 2)
        _mm_stream_pd(a + i, v);
    for (; i < n; i++)
        a[i] = x;
    _mm_sfence();
}

static void copy_sse2(double *c, const double *a, size_t n)
{
    size_t i = nprb_head_to(c, n, 16);
    for (size_t j = 0; j < i; j++)
        c[j] = a[j];
    for (; i + 2 <= n; i += 2)
        _mm_stream_pd(c + i, _mm_loadu_pd(a + i));
    for (; i < n; i++)
        c[i] = a[i];
    _mm_sfence();
}

static void triad_sse2(double *a, const double *b, const double *c, size_t n, double s)
{
    size_t i = nprb_head_to(a, n, 16);
    for (size_t j = 0; j < i; j++)
        a[j] = b[j] + s * c[j];
    const __m128d vs = _mm_set1_pd(s);
    for (; i + 2 <= n; i += 2)
        _mm_stream_pd(a + i, _mm_add_pd(_mm_loadu_pd(b + i), _mm_mul_pd(vs, _mm_loadu_pd(c + i))));
    for (; i < n; i++)
        a[i] = b[i] + s * c[i];
    _mm_sfence();
}

const struct nprb_nt_variant nprb_nt_variants[] = {
    {"avx512f", write_avx512f, copy_avx512f, triad_avx512f},
    {"avx2", write_avx2, copy_avx2, triad_avx2},
    {"sse2", write_sse2, copy_sse2, triad_sse2},
    {NULL, NULL, NULL, NULL},
};

#endif
