/* SPDX-License-Identifier: BSD-3-Clause */
#include "kernels/c2c.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

/* No pause in the waits: it delays noticing the line's arrival by up to a hundred cycles on some
 * cores, which would read as transfer latency (c2clat spins bare too). */
void nprb_c2c_ping(struct nprb_c2c_flags *flags, uint64_t first, uint64_t rounds)
{
    for (uint64_t n = first; n < first + rounds; n++) {
        atomic_store_explicit(&flags->ping, n, memory_order_release);
        while (atomic_load_explicit(&flags->pong, memory_order_acquire) != n)
            ;
    }
}

void nprb_c2c_pong(struct nprb_c2c_flags *flags, uint64_t first, uint64_t rounds)
{
    for (uint64_t n = first; n < first + rounds; n++) {
        while (atomic_load_explicit(&flags->ping, memory_order_acquire) != n)
            ;
        atomic_store_explicit(&flags->pong, n, memory_order_release);
    }
}

bool nprb_line_flush_available(void)
{
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)
    return true;
#else
    return false;
#endif
}

void nprb_lines_flush(void *base, uint64_t lines)
{
    char *p = base;
    for (uint64_t i = 0; i < lines; i++) {
#if defined(__x86_64__) || defined(__i386__)
        _mm_clflush(p + i * 64);
#elif defined(__aarch64__)
        /* Clean and invalidate to the point of coherency; Linux lets EL0 issue it. */
        __asm__ volatile("dc civac, %0" ::"r"(p + i * 64) : "memory");
#else
        (void)p;
#endif
    }
#if defined(__x86_64__) || defined(__i386__)
    _mm_mfence();
#elif defined(__aarch64__)
    __asm__ volatile("dsb ish" ::: "memory");
#endif
}
