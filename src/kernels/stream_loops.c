/* SPDX-License-Identifier: BSD-3-Clause */
#include "kernels/stream_loops.h"

#include "kernels/stream_mix.h"
#include "kernels/stream_nt.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#if defined(__aarch64__)
#include <sys/auxv.h>
#endif

/* GCC turns a plain copy loop into a call to memcpy (and a store of a byte pattern into memset),
 * and glibc's memcpy switches to non-temporal stores past a size threshold: copy would then
 * measure copy_nt's traffic while claiming write-allocate's. Keeping the loop a loop keeps the
 * kernel what its row says. (Clang refuses this with target_clones; GCC builds the kernels.) */
#if defined(__GNUC__) && !defined(__clang__)
#define LOOP_STAYS_LOOP __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define LOOP_STAYS_LOOP
#endif

#if defined(__aarch64__)

/* Arm64: the baseline build is NEON (part of ARMv8-A, which GCC vectorises for at -O3) and a
 * second build targets SVE, whose vector length the hardware sets (128 to 2048 bits) and whose
 * predicated loops need no scalar tail. GCC cannot clone for SVE by target_clones, so the run
 * functions pick a build themselves, as the loader would. */
static bool has_sve(void)
{
    return (getauxval(AT_HWCAP) & HWCAP_SVE) != 0;
}

#define LOOP_API static
#define LOOP_ATTR
#define LOOP_NAME(f) f##_neon
#define LOOP_ISA "neon"
#include "kernels/stream_loops.inc"
#undef LOOP_ATTR
#undef LOOP_NAME
#undef LOOP_ISA

#define LOOP_ATTR __attribute__((target("+sve")))
#define LOOP_NAME(f) f##_sve
#define LOOP_ISA "sve"
#include "kernels/stream_loops.inc"

/* Every kernel the body builds, as (enum suffix, run function). */
#define BUILT_KERNELS(X)                                                                           \
    X(READ, nprb_run_read)                                                                         \
    X(WRITE, nprb_run_write)                                                                       \
    X(WRITE_NT, nprb_run_write_nt)                                                                 \
    X(COPY, nprb_run_copy)                                                                         \
    X(COPY_NT, nprb_run_copy_nt)                                                                   \
    X(SCALE, nprb_run_scale)                                                                       \
    X(ADD, nprb_run_add)                                                                           \
    X(TRIAD, nprb_run_triad)                                                                       \
    X(READ_STRIDED, nprb_run_read_strided)                                                         \
    X(READ_RANDOM, nprb_run_read_random)                                                           \
    X(TRIAD_NT, nprb_run_triad_nt)                                                                 \
    X(MIX_3TO1, nprb_run_mix_3to1)                                                                 \
    X(MIX_2TO1, nprb_run_mix_2to1)                                                                 \
    X(MIX_1TO1, nprb_run_mix_1to1)

/* The hwcaps are read on every run: one pass over the auxiliary vector against a sweep over
 * megabytes, and no shared state to initialise. */
#define DISPATCH(id, f)                                                                            \
    double f(const struct nprb_stream_args *args)                                                  \
    {                                                                                              \
        return has_sve() ? f##_sve(args) : f##_neon(args);                                         \
    }
BUILT_KERNELS(DISPATCH)

#define NEON_ROW(id, f) [NPRB_KERNEL_##id] = f##_neon,
#define SVE_ROW(id, f) [NPRB_KERNEL_##id] = f##_sve,
static const nprb_kernel_run_fn neon_builds[NPRB_N_KERNELS] = {BUILT_KERNELS(NEON_ROW)};
static const nprb_kernel_run_fn sve_builds[NPRB_N_KERNELS] = {BUILT_KERNELS(SVE_ROW)};

nprb_kernel_run_fn nprb_loop_build(enum nprb_kernel_id id, const char *path)
{
    if ((unsigned)id >= NPRB_N_KERNELS)
        return NULL;
    if (strcmp(path, "sve") == 0)
        return sve_builds[id];
    if (strcmp(path, "neon") == 0)
        return neon_builds[id];
    return NULL;
}

const char *nprb_simd_path(void)
{
    return has_sve() ? "sve" : "neon";
}

bool nprb_simd_path_runs(const char *path)
{
    if (strcmp(path, "sve") == 0)
        return has_sve();
    return strcmp(path, "neon") == 0;
}

#else

/* x86-64: each loop is built once per instruction set and picked at load time by the CPU it runs
 * on, since one binary serves every node type of a fleet. nprb_simd_path() mirrors this order. */
#define LOOP_API
#define LOOP_ATTR __attribute__((target_clones("avx512f", "avx2", "default")))
#define LOOP_NAME(f) f
#define LOOP_ISA nprb_simd_path()
#include "kernels/stream_loops.inc"

nprb_kernel_run_fn nprb_loop_build(enum nprb_kernel_id id, const char *path)
{
    (void)id;
    (void)path;
    return NULL;
}

/* Mirrors the order of the target_clones above: the loader picks the first clone the CPU runs. */
const char *nprb_simd_path(void)
{
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        return "avx512f";
    if (__builtin_cpu_supports("avx2"))
        return "avx2";
    return "sse2";
}

/* __builtin_cpu_supports() also checks that the OS saves the wider registers (XCR0), so a CPU
 * with AVX-512 under a kernel that disabled it takes the AVX2 path. The CPU model is filled in
 * by a constructor before main; __builtin_cpu_init() only returns early after that, so calling
 * it from several threads reads and never writes. */
bool nprb_simd_path_runs(const char *path)
{
    __builtin_cpu_init();
    if (strcmp(path, "avx512f") == 0)
        return __builtin_cpu_supports("avx512f");
    if (strcmp(path, "avx2") == 0)
        return __builtin_cpu_supports("avx2");
    return strcmp(path, "sse2") == 0;
}

#endif

/* One lookup for both instruction sets: the variant is this build's and the CPU runs it. */
const struct nprb_nt_variant *nprb_nt_variant(const char *isa)
{
    for (const struct nprb_nt_variant *v = nprb_nt_variants; v->isa != NULL; v++)
        if (strcmp(v->isa, isa) == 0)
            return nprb_simd_path_runs(isa) ? v : NULL;
    return NULL;
}
