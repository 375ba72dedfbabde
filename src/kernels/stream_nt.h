/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file stream_nt.h
 * Internal to the stream kernels: the non-temporal write, copy and triad loops, one variant per
 * instruction set, written with intrinsics (x86-64's streaming stores, SVE's STNT1) or inline
 * assembly (NEON's STNP) since no compiler emits them from a plain loop: stream_nt_x86.c and
 * stream_nt_arm64.c. The kernels pick the variant nprb_simd_path() names; tests run every
 * variant the CPU has.
 */
#ifndef NPRB_STREAM_NT_H
#define NPRB_STREAM_NT_H

#include <stddef.h>

struct nprb_nt_variant {
    const char *isa; /**< a name of NPRB_SIMD_PATHS, as nprb_simd_path() names them */
    /** a[i] = x for i < n, non-temporal stores wherever a is vector-aligned; fenced on return. */
    void (*write)(double *a, size_t n, double x);
    /** c[i] = a[i] for i < n (no overlap), streaming stores to c; fenced on return. */
    void (*copy)(double *c, const double *a, size_t n);
    /** a[i] = b[i] + s * c[i] for i < n (no overlap), streaming stores to a; fenced on return. */
    void (*triad)(double *a, const double *b, const double *c, size_t n, double s);
};

/** This build's variants, in the order nprb_simd_path() prefers them, ended by one whose isa is
 * NULL (stream_nt_x86.c or stream_nt_arm64.c). */
extern const struct nprb_nt_variant nprb_nt_variants[];

/**
 * The variant for @p isa ("avx512f", "avx2" or "sse2" on x86-64, "sve" or "neon" on Arm64), or
 * NULL when the name is unknown to this build or this CPU cannot run that instruction set.
 */
const struct nprb_nt_variant *nprb_nt_variant(const char *isa);

#endif
