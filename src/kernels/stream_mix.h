/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file stream_mix.h
 * Internal to the stream kernels: the read:write mixes, in which every line written is a line
 * the same pass has just read, so the bus carries exactly the stated reads and writes and no
 * write-allocate read besides (the injection experiment measures them; stream.c tables them).
 */
#ifndef NPRB_STREAM_MIX_H
#define NPRB_STREAM_MIX_H

#include <stddef.h>

/** What a[i] holds after any number of runs of any mix from nprb_stream_init()'s values. */
#define NPRB_MIX_RESULT 0.5

/* The mixes: mix_3to1 is a[i] = min(a[i], b[i] * c[i] * 0.5), three reads and one write;
 * mix_2to1 a[i] = min(a[i], b[i] * 0.25), two and one; mix_1to1 a[i] = min(a[i], 0.5), one and
 * one. x86-64 has one function each, whose target_clones the loader picks; Arm64 a NEON and an
 * SVE build of each, which stream_loops.c picks between as it does its own loops. */
#if defined(__aarch64__)
void nprb_mix_3to1_neon(double *a, const double *b, const double *c, size_t n);
void nprb_mix_2to1_neon(double *a, const double *b, size_t n);
void nprb_mix_1to1_neon(double *a, size_t n);
void nprb_mix_3to1_sve(double *a, const double *b, const double *c, size_t n);
void nprb_mix_2to1_sve(double *a, const double *b, size_t n);
void nprb_mix_1to1_sve(double *a, size_t n);
#else
void nprb_mix_3to1(double *a, const double *b, const double *c, size_t n);
void nprb_mix_2to1(double *a, const double *b, size_t n);
void nprb_mix_1to1(double *a, size_t n);
#endif

#endif
