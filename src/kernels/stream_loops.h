/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file stream_loops.h
 * Internal to the stream kernels: the run functions of the kernels that are plain loops (and of
 * the mixes and non-temporal kernels, which follow the same path), built once per instruction-set
 * path from one body (stream_loops.inc) and dispatched by the CPU: on x86-64 by target_clones at
 * load time, on Arm64 between the NEON and SVE builds by the CPU's hwcaps. stream.c tables them.
 */
#ifndef NPRB_STREAM_LOOPS_H
#define NPRB_STREAM_LOOPS_H

#include "kernels/stream.h"

#include <stddef.h>
#include <stdint.h>

/** STREAM's scalar: s of scale and triad, and the x that write and write_nt store. */
#define NPRB_STREAM_SCALAR 3.0

/** Reads a strided kernel makes over @p n elements: one at 0, stride, 2*stride, ... below n. */
static inline size_t nprb_strided_accesses(size_t n, size_t stride)
{
    if (stride == 0)
        stride = 1;
    return n / stride + (n % stride != 0);
}

/** Elements before @p p reaches an @p align-byte boundary (a power of two), at most @p n: the
 * head a kernel stores one by one before its aligned stores (non-temporal lines, DC ZVA blocks).
 * Doubles are 8-byte aligned, so the boundary is always reached on a whole element. */
static inline size_t nprb_head_to(const double *p, size_t n, size_t align)
{
    size_t mis = (size_t)((uintptr_t)p & (align - 1));
    size_t head = mis == 0 ? 0 : (align - mis) / sizeof(double);
    return head < n ? head : n;
}

/* The kernel table's run functions, each on the path nprb_simd_path() names. */
double nprb_run_read(const struct nprb_stream_args *args);
double nprb_run_write(const struct nprb_stream_args *args);
double nprb_run_write_nt(const struct nprb_stream_args *args);
double nprb_run_copy(const struct nprb_stream_args *args);
double nprb_run_copy_nt(const struct nprb_stream_args *args);
double nprb_run_scale(const struct nprb_stream_args *args);
double nprb_run_add(const struct nprb_stream_args *args);
double nprb_run_triad(const struct nprb_stream_args *args);
double nprb_run_read_strided(const struct nprb_stream_args *args);
double nprb_run_read_random(const struct nprb_stream_args *args);
double nprb_run_triad_nt(const struct nprb_stream_args *args);
double nprb_run_mix_3to1(const struct nprb_stream_args *args);
double nprb_run_mix_2to1(const struct nprb_stream_args *args);
double nprb_run_mix_1to1(const struct nprb_stream_args *args);

/**
 * Kernel @p id's build for @p path (a name of NPRB_SIMD_PATHS), whether or not this CPU runs it;
 * NULL when @p id is not one of the above, or on x86-64, whose builds only the loader picks.
 */
nprb_kernel_run_fn nprb_loop_build(enum nprb_kernel_id id, const char *path);

#endif
