/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file stream_nt.h
 * Internal to the stream kernels: the non-temporal write, copy and triad loops, one variant per
 * instruction set, written with intrinsics since no compiler emits streaming stores from a plain
 * loop. stream.c picks the variant nprb_simd_path() names; tests run every variant the CPU has.
 */
#ifndef NPRB_STREAM_NT_H
#define NPRB_STREAM_NT_H

#include <stddef.h>

struct nprb_nt_variant {
    const char *isa; /**< "avx512f", "avx2" or "sse2", as nprb_simd_path() names them */
    /** a[i] = x for i < n, streaming stores wherever a is vector-aligned; fenced on return. */
    void (*write)(double *a, size_t n, double x);
    /** c[i] = a[i] for i < n (no overlap), streaming stores to c; fenced on return. */
    void (*copy)(double *c, const double *a, size_t n);
    /** a[i] = b[i] + s * c[i] for i < n (no overlap), streaming stores to a; fenced on return. */
    void (*triad)(double *a, const double *b, const double *c, size_t n, double s);
};

/**
 * The variant for @p isa ("avx512f", "avx2" or "sse2"), or NULL when the name is unknown or this
 * CPU cannot run that instruction set.
 */
const struct nprb_nt_variant *nprb_nt_variant(const char *isa);

#endif
