#include "stream.h"

#include <string.h>

/* Sums with 32 independent accumulators: one accumulator would chain every add on the previous
 * one and cap the kernel at one vector per FP-add latency, well below what L1 and L2 deliver.
 * 32 doubles fill 4 AVX-512, 8 AVX2 or 16 SSE2 registers, enough on every path.
 * Built once per instruction set (target_clones) and picked at load time by the CPU it runs on,
 * since one binary serves every node type of a fleet. */
__attribute__((target_clones("avx512f", "avx2", "default"))) static double
read_kernel(double *a, double *b, double *c, size_t n)
{
    (void)b;
    (void)c;
    double acc[32] = {0};
    size_t i = 0;
    for (; i + 32 <= n; i += 32)
        for (size_t j = 0; j < 32; j++)
            acc[j] += a[i + j];
    double sum = 0.0;
    for (; i < n; i++)
        sum += a[i];
    for (size_t j = 0; j < 32; j++)
        sum += acc[j];
    return sum;
}

/* Every element is 1.0, so the sum of n elements is n exactly (n < 2^53): any lost, repeated or
 * stale read shows up as a wrong checksum. */
static double read_expected(size_t n)
{
    return (double)n;
}

static const struct nprb_kernel kernels[NPRB_N_KERNELS] = {
    [NPRB_KERNEL_READ] = {"read", 1, 8, 8, read_kernel, read_expected},
};

const struct nprb_kernel *nprb_kernel_get(enum nprb_kernel_id id)
{
    return id < NPRB_N_KERNELS ? &kernels[id] : NULL;
}

const struct nprb_kernel *nprb_kernel_find(const char *name)
{
    for (int i = 0; i < NPRB_N_KERNELS; i++)
        if (strcmp(kernels[i].name, name) == 0)
            return &kernels[i];
    return NULL;
}

void nprb_stream_init(double *a, double *b, double *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        a[i] = 1.0;
        if (b != NULL)
            b[i] = 2.0;
        if (c != NULL)
            c[i] = 0.0;
    }
}

/* Mirrors the order of target_clones above: the loader picks the first clone the CPU runs. */
const char *nprb_simd_path(void)
{
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        return "avx512f";
    if (__builtin_cpu_supports("avx2"))
        return "avx2";
    return "sse2";
}
