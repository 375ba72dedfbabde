/* SPDX-License-Identifier: BSD-3-Clause */
#include "kernels/stream_cpu.h"

#include "kernels/stream_loops.h"

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__)

/* The CPU's own string copy: one rep movsb over the thread's share. On CPUs with ERMS (and FSRM)
 * the microcode moves whole lines, and for large copies Intel documents that it skips the read
 * for ownership of lines it overwrites whole. It is a row of its own because on some CPUs it
 * beats every store loop (bench/README.md). Whether the bus carries 24 bytes
 * per element or 16 is the CPU's choice: the row states 24, write-allocate's count, and
 * /bandwidth's mc_bus_ratio measures which where the memory controllers can be counted. */
double nprb_run_copy_movsb(const struct nprb_stream_args *args)
{
    double *c = args->c;
    const double *a = args->a;
    size_t bytes = args->n * sizeof(double);
    __asm__ volatile("rep movsb" : "+D"(c), "+S"(a), "+c"(bytes) : : "memory");
    return 0.0;
}

bool nprb_copy_movsb_available(const char **why)
{
    (void)why;
    return true;
}

#else

double nprb_run_copy_movsb(const struct nprb_stream_args *args)
{
    (void)args;
    return 0.0;
}

bool nprb_copy_movsb_available(const char **why)
{
    if (why != NULL)
        *why = "copy_movsb: rep movsb is x86-only";
    return false;
}

#endif

#if defined(__aarch64__)

/* DCZID_EL0 and CTR_EL0 are readable at EL0 (Linux lets user space read CTR_EL0, or emulates
 * the read), so the block size comes from the CPU itself, never from a table of models. */
static uint64_t dczid_el0(void)
{
    uint64_t v;
    __asm__ volatile("mrs %0, dczid_el0" : "=r"(v));
    return v;
}

/* DCZID_EL0.BS (bits 3:0) is log2 of the block in 4-byte words. */
static size_t zva_block_bytes(void)
{
    return (size_t)4 << (dczid_el0() & 0xf);
}

/* CTR_EL0.DminLine (bits 19:16): log2 of the smallest data cache line in 4-byte words. */
static size_t line_bytes(void)
{
    uint64_t ctr;
    __asm__ volatile("mrs %0, ctr_el0" : "=r"(ctr));
    return (size_t)4 << ((ctr >> 16) & 0xf);
}

/* Why DC ZVA: it zeroes a whole block in the cache without reading it from memory, Arm's way to
 * write without write-allocate (glibc's memset uses it for large zeroing), so the bus carries 8
 * bytes per element where the write kernel's ordinary stores carry 16. The block is aligned down
 * from the address given, so the loop starts at the first block boundary: ordinary stores write
 * the elements before it and after the last whole block, and nothing outside [0, n) is touched.
 * A DC ZVA is a store to the memory model, ordered like the write kernel's, so it needs no
 * barrier of its own. */
double nprb_run_write_zva(const struct nprb_stream_args *args)
{
    double *a = args->a;
    size_t n = args->n;
    size_t block = zva_block_bytes();
    size_t i = nprb_head_to(a, n, block);
    for (size_t j = 0; j < i; j++)
        a[j] = 0.0;
    size_t per_block = block / sizeof(double);
    for (; i + per_block <= n; i += per_block)
        __asm__ volatile("dc zva, %0" : : "r"(a + i) : "memory");
    for (; i < n; i++)
        a[i] = 0.0;
    return 0.0;
}

/* DZP set means the OS or hypervisor forbids DC ZVA (it would trap). A block smaller than a line
 * would leave part of each line to an ordinary store, whose line is read first: the row's 8 bus
 * bytes would not hold. */
bool nprb_write_zva_available(const char **why)
{
    const char *no = NULL;
    if ((dczid_el0() >> 4) & 1)
        no = "write_zva: DC ZVA is prohibited on this CPU (DCZID_EL0.DZP is set)";
    else if (zva_block_bytes() < line_bytes())
        no = "write_zva: this CPU's DC ZVA block is smaller than its cache line";
    if (no != NULL && why != NULL)
        *why = no;
    return no == NULL;
}

#else

double nprb_run_write_zva(const struct nprb_stream_args *args)
{
    (void)args;
    return 0.0;
}

bool nprb_write_zva_available(const char **why)
{
    if (why != NULL)
        *why = "write_zva: DC ZVA is Arm64-only";
    return false;
}

#endif
