/* SPDX-License-Identifier: BSD-3-Clause */
/* The non-temporal variants of Arm64 (stream_nt.h): NEON's STNP and SVE's STNT1. x86-64's are in
 * stream_nt_x86.c; each file builds to nothing on the other instruction set. */
#include "kernels/stream_nt.h"

#if defined(__aarch64__)

#include "kernels/stream.h"
#include "kernels/stream_loops.h"

#include <arm_neon.h>
#include <arm_sve.h>
#include <stdint.h>

/* Why non-temporal stores: as on x86-64 (stream_nt_x86.c), an ordinary store that misses reads
 * its line first; STNP and SVE's STNT1 hint that the data will not be reused, and cores that
 * honour the hint (Neoverse among them) write whole lines to memory without reading them. The
 * hint may be ignored, in which case the row's bus bytes overstate nothing but the saving:
 * /bandwidth's mc_bus_ratio shows which where the memory controllers can be counted.
 *
 * Both are ordinary stores to the memory model, and may still be buffered when the loop ends:
 * the closing DSB waits until every store of this thread has completed, as x86's sfence drains
 * the write-combining buffers, so a timer read after return counts them and another thread that
 * reads the array after a barrier sees every value. */
static inline void stores_complete(void)
{
    __asm__ volatile("dsb ish" ::: "memory");
}

/* 32 bytes, the reach of one STNP of two q registers. */
struct pair32 {
    double d[4];
};

/* One STNP of two q registers: 32 bytes at @p p. No compiler emits STNP from a loop, so it is
 * asked for by name; the "Q" operand is the block itself (a base register, no offset), so the
 * compiler knows exactly which bytes are written. */
static inline void stnp32(double *p, float64x2_t lo, float64x2_t hi)
{
    __asm__("stnp %q1, %q2, %0" : "=Q"(*(struct pair32 *)p) : "w"(lo), "w"(hi));
}

/* NEON: from the first line boundary, two STNPs per 64-byte line back to back, so each line is
 * whole before the next starts; ordinary stores for the head before it and the tail after the
 * last whole pair. */
static void write_neon(double *a, size_t n, double x)
{
    size_t i = nprb_head_to(a, n, 64);
    for (size_t j = 0; j < i; j++)
        a[j] = x;
    const float64x2_t v = vdupq_n_f64(x);
    for (; i + 4 <= n; i += 4)
        stnp32(a + i, v, v);
    for (; i < n; i++)
        a[i] = x;
    stores_complete();
}

/* Only the stores need alignment; a may sit anywhere relative to c. */
static void copy_neon(double *c, const double *a, size_t n)
{
    size_t i = nprb_head_to(c, n, 64);
    for (size_t j = 0; j < i; j++)
        c[j] = a[j];
    for (; i + 4 <= n; i += 4)
        stnp32(c + i, vld1q_f64(a + i), vld1q_f64(a + i + 2));
    for (; i < n; i++)
        c[i] = a[i];
    stores_complete();
}

static void triad_neon(double *a, const double *b, const double *c, size_t n, double s)
{
    size_t i = nprb_head_to(a, n, 64);
    for (size_t j = 0; j < i; j++)
        a[j] = b[j] + s * c[j];
    const float64x2_t vs = vdupq_n_f64(s);
    for (; i + 4 <= n; i += 4)
        stnp32(a + i, vaddq_f64(vld1q_f64(b + i), vmulq_f64(vs, vld1q_f64(c + i))),
               vaddq_f64(vld1q_f64(b + i + 2), vmulq_f64(vs, vld1q_f64(c + i + 2))));
    for (; i < n; i++)
        a[i] = b[i] + s * c[i];
    stores_complete();
}

/* SVE: STNT1 under a while-less-than predicate, one vector (whatever length the hardware has)
 * per step; the last step's predicate covers only the elements left, so there is no scalar tail
 * and nothing is stored at or past n. Unaligned vectors are allowed, so there is no head either. */
#define SVE __attribute__((target("+sve")))

SVE static void write_sve(double *a, size_t n, double x)
{
    const svfloat64_t v = svdup_n_f64(x);
    for (uint64_t i = 0; i < n; i += svcntd())
        svstnt1_f64(svwhilelt_b64_u64(i, n), a + i, v);
    stores_complete();
}

SVE static void copy_sve(double *c, const double *a, size_t n)
{
    for (uint64_t i = 0; i < n; i += svcntd()) {
        svbool_t pg = svwhilelt_b64_u64(i, n);
        svstnt1_f64(pg, c + i, svld1_f64(pg, a + i));
    }
    stores_complete();
}

SVE static void triad_sve(double *a, const double *b, const double *c, size_t n, double s)
{
    const svfloat64_t vs = svdup_n_f64(s);
    for (uint64_t i = 0; i < n; i += svcntd()) {
        svbool_t pg = svwhilelt_b64_u64(i, n);
        svfloat64_t sum =
            svadd_f64_x(pg, svld1_f64(pg, b + i), svmul_f64_x(pg, vs, svld1_f64(pg, c + i)));
        svstnt1_f64(pg, a + i, sum);
    }
    stores_complete();
}

const struct nprb_nt_variant nprb_nt_variants[] = {
    {"sve", write_sve, copy_sve, triad_sve},
    {"neon", write_neon, copy_neon, triad_neon},
    {NULL, NULL, NULL, NULL},
};

#endif
