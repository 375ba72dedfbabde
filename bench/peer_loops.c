/* SPDX-License-Identifier: BSD-3-Clause */
/* peer_loops: numaprobe's read, write_nt, copy_nt, copy_movsb and triad kernels against the loops
 * the peers compile to, alternating, best of ROUNDS, threads = OMP_NUM_THREADS, each thread on its
 * own chunk: glibc memcpy (what gcc makes of STREAM's copy; past glibc's non-temporal threshold it
 * is its 4-page interleaved large copy), glibc memset, a pure-load loop (likwid-bench load's shape:
 * vector loads into independent accumulators, nothing else) and STREAM's triad loop. A stand-in
 * where the peers' own sources are not at hand; bench/compare-peers runs the real ones. A
 * benchmark, not a test: it asserts nothing about time.
 *
 *   OMP_NUM_THREADS=T peer_loops [MIB_PER_ARRAY [ROUNDS]]
 */
#include "kernels/stream.h"
#include "util/timer.h"

#include <immintrin.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double *a, *b, *c;
static size_t n;

/* The pure-load loop: 512-bit loads into eight accumulators, as likwid-bench's load_avx512. */
__attribute__((target("avx512f"))) static double load512(const double *p, size_t m)
{
    __m512d s[8];
    for (int k = 0; k < 8; k++)
        s[k] = _mm512_setzero_pd();
    size_t i = 0;
    for (; i + 64 <= m; i += 64)
        for (int k = 0; k < 8; k++)
            s[k] = _mm512_add_pd(s[k], _mm512_loadu_pd(p + i + 8 * k));
    for (int k = 1; k < 8; k++)
        s[0] = _mm512_add_pd(s[0], s[k]);
    return _mm512_reduce_add_pd(s[0]);
}

__attribute__((target("avx2"))) static double load256(const double *p, size_t m)
{
    __m256d s[8];
    for (int k = 0; k < 8; k++)
        s[k] = _mm256_setzero_pd();
    size_t i = 0;
    for (; i + 32 <= m; i += 32)
        for (int k = 0; k < 8; k++)
            s[k] = _mm256_add_pd(s[k], _mm256_loadu_pd(p + i + 4 * k));
    for (int k = 1; k < 8; k++)
        s[0] = _mm256_add_pd(s[0], s[k]);
    double t[4];
    _mm256_storeu_pd(t, s[0]);
    return t[0] + t[1] + t[2] + t[3];
}

static void repmovsb(void *d, const void *s, size_t bytes)
{
    __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(bytes) : : "memory");
}

static void repstosq(double *d, double x, size_t m)
{
    uint64_t v;
    memcpy(&v, &x, sizeof v);
    __asm__ volatile("rep stosq" : "+D"(d), "+c"(m) : "a"(v) : "memory");
}

/* Non-temporal stores in four streams a page apart, as glibc's large copy interleaves pages. */
__attribute__((target("avx512f"))) static void write_nt4(double *p, double x, size_t m)
{
    const __m512d v = _mm512_set1_pd(x);
    size_t i = 0;
    for (; i + 2048 <= m; i += 2048)
        for (size_t j = 0; j < 512; j += 8) {
            _mm512_stream_pd(p + i + j, v);
            _mm512_stream_pd(p + i + 512 + j, v);
            _mm512_stream_pd(p + i + 1024 + j, v);
            _mm512_stream_pd(p + i + 1536 + j, v);
        }
    for (; i < m; i++)
        p[i] = x;
    _mm_sfence();
}

/* numaprobe's earlier write_nt: one stream of 64-byte non-temporal stores. */
__attribute__((target("avx512f"))) static void write_nt1(double *p, double x, size_t m)
{
    const __m512d v = _mm512_set1_pd(x);
    size_t i = 0;
    for (; i + 8 <= m; i += 8)
        _mm512_stream_pd(p + i, v);
    for (; i < m; i++)
        p[i] = x;
    _mm_sfence();
}

/* Non-temporal copy in four streams a page apart, with loads a page group ahead prefetched. */
__attribute__((target("avx512f"))) static void copy_nt4(double *d, const double *src, size_t m)
{
    size_t i = 0;
    for (; i + 2048 <= m; i += 2048)
        for (size_t j = 0; j < 512; j += 8)
            for (size_t p = 0; p < 2048; p += 512)
                _mm512_stream_pd(d + i + p + j, _mm512_loadu_pd(src + i + p + j));
    for (; i < m; i++)
        d[i] = src[i];
    _mm_sfence();
}

enum {
    NP_READ,
    NP_WRITE_NT,
    NP_COPY_NT,
    NP_TRIAD,
    NP_COPY,
    NP_LOAD512,
    NP_LOAD256,
    NP_MEMSET,
    NP_MEMCPY,
    NP_STREAM_TRIAD,
    NP_REPMOVSB,
    NP_MEMSET_NZ,
    NP_REPSTOSQ,
    NP_WRITE_NT4,
    NP_WRITE_NT1,
    NP_COPY_NT4,
    NP_COPY_MOVSB,
    NP_N
};
static const char *const names[NP_N] = {
    "np read",   "np write_nt", "np copy_nt",  "np triad",     "np copy",      "load avx512",
    "load avx2", "memset",      "memcpy",      "STREAM triad", "rep movsb",    "memset 0x3f",
    "rep stosq", "nt 4 pages",  "nt 1 stream", "copy nt4",     "np copy_movsb"};
/* Program bytes per element, STREAM's count. */
static const int bytes_per[NP_N] = {8, 8, 16, 24, 16, 8, 8, 8, 16, 24, 16, 8, 8, 8, 8, 16, 16};

static volatile double sink;

static void one(int which, size_t lo, size_t m)
{
    struct nprb_stream_args args = {.a = a + lo, .b = b + lo, .c = c + lo, .n = m, .stride = 1};
    switch (which) {
    case NP_READ:
        sink = nprb_kernel_get(NPRB_KERNEL_READ)->run(&args);
        break;
    case NP_WRITE_NT:
        nprb_kernel_get(NPRB_KERNEL_WRITE_NT)->run(&args);
        break;
    case NP_COPY_NT:
        nprb_kernel_get(NPRB_KERNEL_COPY_NT)->run(&args);
        break;
    case NP_TRIAD:
        nprb_kernel_get(NPRB_KERNEL_TRIAD)->run(&args);
        break;
    case NP_COPY:
        nprb_kernel_get(NPRB_KERNEL_COPY)->run(&args);
        break;
    case NP_COPY_MOVSB:
        nprb_kernel_get(NPRB_KERNEL_COPY_MOVSB)->run(&args);
        break;
    case NP_LOAD512:
        sink = load512(a + lo, m);
        break;
    case NP_LOAD256:
        sink = load256(a + lo, m);
        break;
    case NP_MEMSET:
        memset(a + lo, 0, m * sizeof(double));
        break;
    case NP_MEMCPY:
        memcpy(c + lo, a + lo, m * sizeof(double));
        break;
    case NP_STREAM_TRIAD:
        for (size_t i = lo; i < lo + m; i++)
            a[i] = b[i] + 3.0 * c[i];
        break;
    case NP_MEMSET_NZ:
        memset(a + lo, 0x3f, m * sizeof(double));
        break;
    case NP_REPSTOSQ:
        repstosq(a + lo, 3.0, m);
        break;
    case NP_WRITE_NT1:
        write_nt1(a + lo, 3.0, m);
        break;
    case NP_COPY_NT4:
        copy_nt4(c + lo, a + lo, m);
        break;
    case NP_WRITE_NT4:
        write_nt4(a + lo, 3.0, m);
        break;
    case NP_REPMOVSB:
        repmovsb(c + lo, a + lo, m * sizeof(double));
        break;
    }
}

int main(int argc, char **argv)
{
    size_t mib = argc > 1 ? strtoull(argv[1], NULL, 10) : 640;
    int rounds = argc > 2 ? atoi(argv[2]) : 5;
    n = mib * 1024 * 1024 / sizeof(double);
    a = aligned_alloc(4096, n * sizeof(double));
    b = aligned_alloc(4096, n * sizeof(double));
    c = aligned_alloc(4096, n * sizeof(double));
    int threads = omp_get_max_threads();
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
        a[i] = b[i] = c[i] = 1.0;
    /* PEER_ONLY: a comma-separated list of row names to run, the others left out. */
    const char *only = getenv("PEER_ONLY");
    double best[NP_N] = {0};
    /* A new order each round, shuffled: a loop run right after a non-temporal write reads while
     * the memory controller still drains that write, so a fixed order (or a rotation, which
     * keeps each loop's predecessor) handicaps the same loops in every round. */
    int order[NP_N];
    for (int k = 0; k < NP_N; k++)
        order[k] = k;
    unsigned long long state = 0x9e3779b97f4a7c15ULL;
    for (int r = 0; r < rounds; r++) {
        for (int k = NP_N - 1; k > 0; k--) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            int pick = (int)((state >> 33) % (unsigned long long)(k + 1));
            int swap = order[k];
            order[k] = order[pick];
            order[pick] = swap;
        }
        for (int j = 0; j < NP_N; j++) {
            int k = order[j];
            if (only != NULL && strstr(only, names[k]) == NULL)
                continue;
            if ((k == NP_LOAD512 && !__builtin_cpu_supports("avx512f")) ||
                (k == NP_LOAD256 && !__builtin_cpu_supports("avx2")))
                continue;
            double t0 = 0;
#pragma omp parallel
            {
                int t = omp_get_thread_num();
                size_t lo = n * (size_t)t / (size_t)threads,
                       hi = n * (size_t)(t + 1) / (size_t)threads;
#pragma omp barrier
#pragma omp master
                t0 = (double)nprb_now_ns() * 1e-9;
#pragma omp barrier
                one(k, lo, hi - lo);
            }
            double gbs = (double)n * bytes_per[k] / ((double)nprb_now_ns() * 1e-9 - t0) / 1e9;
            best[k] = gbs > best[k] ? gbs : best[k];
        }
    }
    printf("%zu MiB per array, %d thread(s), best of %d alternating rounds, GB/s\n", mib, threads,
           rounds);
    for (int k = 0; k < NP_N; k++)
        if (best[k] > 0)
            printf("%-14s %7.2f\n", names[k], best[k]);
    return 0;
}
