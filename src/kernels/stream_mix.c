/* SPDX-License-Identifier: BSD-3-Clause */
#include "kernels/stream_mix.h"

/* Why min: each mix must leave a value that a kernel which skipped an element could not (0.5,
 * where nprb_stream_init() wrote 1.0) and keep it over any number of runs, and the compiler must
 * not drop a load or a store. a[i] = min(a[i], f(b[i], c[i])) does all three: it reads every
 * array the mix names, stores every a[i], and stores the same value from the second run on. The
 * comparison compiles to one vector min, so the loops stay bound by memory. */

static inline double smaller(double x, double y)
{
    return x < y ? x : y;
}

/* One build per instruction-set path, as the other plain loops (stream_loops.c): x86-64's are
 * target_clones the loader picks, Arm64's a NEON and an SVE build that stream_loops.c picks. */
#if defined(__aarch64__)

#define LOOP_ATTR
#define LOOP_NAME(f) f##_neon
#include "kernels/stream_mix.inc"
#undef LOOP_ATTR
#undef LOOP_NAME

#define LOOP_ATTR __attribute__((target("+sve")))
#define LOOP_NAME(f) f##_sve
#include "kernels/stream_mix.inc"

#else

#define LOOP_ATTR __attribute__((target_clones("avx512f", "avx2", "default")))
#define LOOP_NAME(f) f
#include "kernels/stream_mix.inc"

#endif
