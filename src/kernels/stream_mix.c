/* SPDX-License-Identifier: BSD-3-Clause */
#include "kernels/stream_mix.h"

/* Why min: each mix must leave a value that a kernel which skipped an element could not (0.5,
 * where nprb_stream_init() wrote 1.0) and keep it over any number of runs, and the compiler must
 * not drop a load or a store. a[i] = min(a[i], f(b[i], c[i])) does all three: it reads every
 * array the mix names, stores every a[i], and stores the same value from the second run on. The
 * comparison compiles to one vector min, so the loops stay bound by memory. */

#define CLONES __attribute__((target_clones("avx512f", "avx2", "default")))

static inline double smaller(double x, double y)
{
    return x < y ? x : y;
}

/* The clones stay static, each behind a plain function: Clang resolves a multiversioned function
 * only for callers that see its attribute, and stream.c sees only the header. */
CLONES static void mix_3to1(double *restrict a, const double *restrict b, const double *restrict c,
                            size_t n)
{
    for (size_t i = 0; i < n; i++)
        a[i] = smaller(a[i], b[i] * c[i] * 0.5);
}

CLONES static void mix_2to1(double *restrict a, const double *restrict b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        a[i] = smaller(a[i], b[i] * 0.25);
}

CLONES static void mix_1to1(double *restrict a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        a[i] = smaller(a[i], NPRB_MIX_RESULT);
}

void nprb_mix_3to1(double *restrict a, const double *restrict b, const double *restrict c, size_t n)
{
    mix_3to1(a, b, c, n);
}

void nprb_mix_2to1(double *restrict a, const double *restrict b, size_t n)
{
    mix_2to1(a, b, n);
}

void nprb_mix_1to1(double *restrict a, size_t n)
{
    mix_1to1(a, n);
}
