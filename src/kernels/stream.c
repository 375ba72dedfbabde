/* SPDX-License-Identifier: BSD-3-Clause */
#include "kernels/stream.h"

#include "kernels/chain.h"
#include "kernels/stream_cpu.h"
#include "kernels/stream_loops.h"
#include "kernels/stream_mix.h"
#include "util/names.h"
#include "util/populate.h"

#include <stdio.h>

#include <string.h>

/* Starting values (nprb_stream_init()) and STREAM's scalar. All are small binary fractions, so
 * every kernel's result is exact and validation can compare with ==. */
#define INIT_A 1.0
#define INIT_B 2.0
#define INIT_C 0.5
#define SCALAR NPRB_STREAM_SCALAR /* s of scale and triad, and the x that write stores */

/* The table: each kernel's name, formula, bytes and what validation expects of it.
 * Bus bytes: a store that misses reads its line first (write-allocate), so each ordinary store
 * costs 8 bytes in and 8 out; a streaming store only the 8 out. A strided read brings at most a
 * line per access (nprb_kernel_bytes() takes the smaller of the stride and the line), a random
 * read always a whole line, plus the 4-byte index read in order. Every expected output differs
 * from its starting value, so a kernel that never ran, or skipped an element, leaves a value
 * validation sees. */
static const struct nprb_kernel kernels[NPRB_N_KERNELS] = {
    [NPRB_KERNEL_READ] = {.name = "read",
                          .formula = "s += a[i]",
                          .arrays = 1,
                          .program_bytes = 8,
                          .bus_bytes = 8,
                          .bus_reads = 1,
                          .bus_writes = 0,
                          .run = nprb_run_read,
                          .expect = {.a = INIT_A, .sums = true}},
    [NPRB_KERNEL_WRITE] = {.name = "write",
                           .formula = "a[i] = x",
                           .arrays = 1,
                           .program_bytes = 8,
                           .bus_bytes = 16,
                           .bus_reads = 1,
                           .bus_writes = 1,
                           .run = nprb_run_write,
                           .expect = {.a = SCALAR}},
    [NPRB_KERNEL_WRITE_NT] = {.name = "write_nt",
                              .formula = "a[i] = x (non-temporal)",
                              .arrays = 1,
                              .program_bytes = 8,
                              .bus_bytes = 8,
                              .bus_reads = 0,
                              .bus_writes = 1,
                              .run = nprb_run_write_nt,
                              .expect = {.a = SCALAR}},
    [NPRB_KERNEL_COPY] = {.name = "copy",
                          .formula = "c[i] = a[i]",
                          .arrays = 3,
                          .program_bytes = 16,
                          .bus_bytes = 24,
                          .bus_reads = 2,
                          .bus_writes = 1,
                          .run = nprb_run_copy,
                          .expect = {.a = INIT_A, .c = INIT_A}},
    [NPRB_KERNEL_COPY_NT] = {.name = "copy_nt",
                             .formula = "c[i] = a[i] (non-temporal)",
                             .arrays = 3,
                             .program_bytes = 16,
                             .bus_bytes = 16,
                             .bus_reads = 1,
                             .bus_writes = 1,
                             .run = nprb_run_copy_nt,
                             .expect = {.a = INIT_A, .c = INIT_A}},
    [NPRB_KERNEL_COPY_MOVSB] = {.name = "copy_movsb",
                                .formula = "c[i] = a[i] (rep movsb)",
                                .arrays = 3,
                                .program_bytes = 16,
                                .bus_bytes = 24,
                                .bus_reads = 2,
                                .bus_writes = 1,
                                .run = nprb_run_copy_movsb,
                                .expect = {.a = INIT_A, .c = INIT_A},
                                .available = nprb_copy_movsb_available},
    [NPRB_KERNEL_SCALE] = {.name = "scale",
                           .formula = "b[i] = s*c[i]",
                           .arrays = 3,
                           .program_bytes = 16,
                           .bus_bytes = 24,
                           .bus_reads = 2,
                           .bus_writes = 1,
                           .run = nprb_run_scale,
                           .expect = {.b = SCALAR * INIT_C, .c = INIT_C}},
    [NPRB_KERNEL_ADD] = {.name = "add",
                         .formula = "c[i] = a[i] + b[i]",
                         .arrays = 3,
                         .program_bytes = 24,
                         .bus_bytes = 32,
                         .bus_reads = 3,
                         .bus_writes = 1,
                         .run = nprb_run_add,
                         .expect = {.a = INIT_A, .b = INIT_B, .c = INIT_A + INIT_B}},
    [NPRB_KERNEL_TRIAD] = {.name = "triad",
                           .formula = "a[i] = b[i] + s*c[i]",
                           .arrays = 3,
                           .program_bytes = 24,
                           .bus_bytes = 32,
                           .bus_reads = 3,
                           .bus_writes = 1,
                           .run = nprb_run_triad,
                           .expect = {.a = INIT_B + SCALAR * INIT_C, .b = INIT_B, .c = INIT_C}},
    [NPRB_KERNEL_READ_STRIDED] = {.name = "read_strided",
                                  .formula = "s += a[i*stride]",
                                  .arrays = 1,
                                  .uses_stride = true,
                                  .program_bytes = 8,
                                  .bus_bytes = 64,
                                  .bus_reads = 1,
                                  .bus_writes = 0,
                                  .run = nprb_run_read_strided,
                                  .expect = {.a = INIT_A, .sums = true}},
    [NPRB_KERNEL_READ_RANDOM] = {.name = "read_random",
                                 .formula = "s += a[index[i]]",
                                 .arrays = 1,
                                 .uses_index = true,
                                 .program_bytes = 12,
                                 .bus_bytes = 68,
                                 .bus_reads = 1,
                                 .bus_writes = 0,
                                 .run = nprb_run_read_random,
                                 .expect = {.a = INIT_A, .sums = true}},
    /* The mixes write only lines they have just read: no write-allocate read. */
    [NPRB_KERNEL_MIX_3TO1] = {.name = "mix_3to1",
                              .formula = "a[i] = min(a[i], b[i]*c[i]/2)",
                              .arrays = 3,
                              .program_bytes = 32,
                              .bus_bytes = 32,
                              .bus_reads = 3,
                              .bus_writes = 1,
                              .run = nprb_run_mix_3to1,
                              .expect = {.a = NPRB_MIX_RESULT, .b = INIT_B, .c = INIT_C}},
    [NPRB_KERNEL_MIX_2TO1] = {.name = "mix_2to1",
                              .formula = "a[i] = min(a[i], b[i]/4)",
                              .arrays = 2,
                              .program_bytes = 24,
                              .bus_bytes = 24,
                              .bus_reads = 2,
                              .bus_writes = 1,
                              .run = nprb_run_mix_2to1,
                              .expect = {.a = NPRB_MIX_RESULT, .b = INIT_B}},
    [NPRB_KERNEL_MIX_1TO1] = {.name = "mix_1to1",
                              .formula = "a[i] = min(a[i], 0.5)",
                              .arrays = 1,
                              .program_bytes = 16,
                              .bus_bytes = 16,
                              .bus_reads = 1,
                              .bus_writes = 1,
                              .run = nprb_run_mix_1to1,
                              .expect = {.a = NPRB_MIX_RESULT}},
    [NPRB_KERNEL_TRIAD_NT] = {.name = "triad_nt",
                              .formula = "a[i] = b[i] + s*c[i] (non-temporal)",
                              .arrays = 3,
                              .program_bytes = 24,
                              .bus_bytes = 24,
                              .bus_reads = 2,
                              .bus_writes = 1,
                              .run = nprb_run_triad_nt,
                              .expect = {.a = INIT_B + SCALAR * INIT_C, .b = INIT_B, .c = INIT_C}},
    /* DC ZVA zeroes whole blocks in the cache without reading them: write_nt's bus bytes. Its
     * output is 0, so the outcome says that 0 is checked rather than "a unused". */
    [NPRB_KERNEL_WRITE_ZVA] = {.name = "write_zva",
                               .formula = "a[i] = 0 (DC ZVA)",
                               .arrays = 1,
                               .program_bytes = 8,
                               .bus_bytes = 8,
                               .bus_reads = 0,
                               .bus_writes = 1,
                               .run = nprb_run_write_zva,
                               .expect = {.zeroes = true},
                               .available = nprb_write_zva_available},
};

const struct nprb_kernel *nprb_kernel_get(enum nprb_kernel_id id)
{
    return (unsigned)id < NPRB_N_KERNELS ? &kernels[id] : NULL;
}

bool nprb_kernel_available(const struct nprb_kernel *k, const char **why)
{
    return k->available == NULL || k->available(why);
}

nprb_kernel_run_fn nprb_kernel_run_on(const struct nprb_kernel *k, const char *path)
{
    if (!nprb_simd_path_runs(path) || !nprb_kernel_available(k, NULL))
        return NULL;
    nprb_kernel_run_fn built = nprb_loop_build((enum nprb_kernel_id)(k - kernels), path);
    if (built != NULL)
        return built;
    /* A kernel of one build runs the same on every path the CPU has; x86-64's clones run only
     * on the path the loader picked. */
    if (k->available == NULL && strcmp(path, nprb_simd_path()) != 0)
        return NULL;
    return k->run;
}

const struct nprb_kernel *nprb_kernel_find(const char *name)
{
    for (int i = 0; i < NPRB_N_KERNELS; i++)
        if (strcmp(kernels[i].name, name) == 0)
            return &kernels[i];
    return NULL;
}

const struct nprb_name_table nprb_kernel_names = {
    .rows = kernels,
    .stride = sizeof kernels[0],
    .count = NPRB_N_KERNELS,
    .allowed = NPRB_NAMES_ALL,
    .what = "kernel",
};

int nprb_kernel_parse(const char *text, enum nprb_kernel_id *id, char *why, size_t len)
{
    int i;
    if (nprb_name_parse(&nprb_kernel_names, text, &i, why, len) != 0)
        return -1;
    *id = (enum nprb_kernel_id)i;
    return 0;
}

void nprb_kernel_bytes(const struct nprb_kernel *k, size_t n, size_t stride, uint64_t *program,
                       uint64_t *bus)
{
    uint64_t accesses = n;
    uint64_t bus_per_access = k->bus_bytes;
    if (k->uses_stride) {
        if (stride == 0)
            stride = 1;
        accesses = nprb_strided_accesses(n, stride);
        /* Short strides share a line between reads: each read costs only the bytes it skips. */
        if (stride < k->bus_bytes / sizeof(double))
            bus_per_access = (uint64_t)stride * sizeof(double);
    }
    *program = accesses * k->program_bytes;
    *bus = accesses * bus_per_access;
}

/* A uniform pick in [0, bound) by multiply-and-shift, as the chain builder does: no division in
 * the shuffle, and a bias of bound / 2^64, far below anything a bandwidth figure shows. */
static uint64_t pick_below(uint64_t *state, uint64_t bound)
{
    return (uint64_t)(((unsigned __int128)nprb_random_next(state) * bound) >> 64);
}

/* Fisher-Yates: @p v's values in a uniformly random order. */
static void shuffle(uint32_t *v, size_t n, uint64_t *state)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)pick_below(state, i);
        uint32_t t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}

/* The shuffle below: a bucket of 32768 elements (128 KiB of index) is shuffled in L2; at most
 * 1024 buckets, so that the scatter's 1024 write streams stay within the L1 (64 KiB of lines)
 * and the TLB. A 1 GiB array's buckets hold 128K elements, 512 KiB, still in L2. */
#define BUCKET_ELEMENTS 32768
#define MAX_BUCKETS 1024

/* A uniformly random permutation of 0..n-1 (Rao and Sandelius's method): each value goes to a
 * bucket picked at random, then each bucket is shuffled (Fisher-Yates) within the cache. A plain
 * Fisher-Yates swaps at random over the whole index, a cache and TLB miss per element: 25 s for
 * a 1 GiB array's 512 MiB index, most of a quick run's latency_sweep, where this takes about a
 * second. The values are written in two passes of the same random stream (counting the buckets'
 * sizes, then placing each value at its bucket's next slot), so nothing but the index is needed. */
static void random_permutation(uint32_t *index, size_t n, uint64_t seed)
{
    size_t buckets = n / BUCKET_ELEMENTS < MAX_BUCKETS ? n / BUCKET_ELEMENTS : MAX_BUCKETS;
    uint64_t state = seed;
    if (buckets < 2) {
        for (size_t i = 0; i < n; i++)
            index[i] = (uint32_t)i;
        shuffle(index, n, &state);
        return;
    }
    size_t next[MAX_BUCKETS] = {0};
    uint64_t counting = seed;
    for (size_t i = 0; i < n; i++)
        next[pick_below(&counting, buckets)]++;
    size_t start = 0;
    for (size_t b = 0; b < buckets; b++) {
        size_t size = next[b];
        next[b] = start;
        start += size;
    }
    for (size_t i = 0; i < n; i++)
        index[next[pick_below(&state, buckets)]++] = (uint32_t)i;
    /* next[b] is now where bucket b ends, and bucket b starts where b - 1 ends. */
    for (size_t b = 0, from = 0; b < buckets; from = next[b], b++)
        shuffle(index + from, next[b] - from, &state);
}

void nprb_stream_init(const struct nprb_stream_args *args, uint64_t seed)
{
    size_t n = args->n;
    /* This thread's pages faulted in first, each where this thread's first store would put it,
     * but without a trap per page. */
    double *arrays[] = {args->a, args->b, args->c};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        if (arrays[i] != NULL)
            nprb_populate(arrays[i], n * sizeof(double));
    if (args->index != NULL)
        nprb_populate((void *)args->index, n * sizeof(uint32_t));
    if (args->a != NULL)
        for (size_t i = 0; i < n; i++)
            args->a[i] = INIT_A;
    if (args->b != NULL)
        for (size_t i = 0; i < n; i++)
            args->b[i] = INIT_B;
    if (args->c != NULL)
        for (size_t i = 0; i < n; i++)
            args->c[i] = INIT_C;
    /* A permutation, so every element is read exactly once per run and the sum is known. */
    if (args->index != NULL)
        random_permutation((uint32_t *)args->index, n, seed);
}

bool nprb_kernel_writes(const struct nprb_kernel *k, unsigned array)
{
    const struct nprb_kernel_outcome *want = &k->expect;
    switch (array) {
    case 0:
        return want->zeroes || (want->a != 0 && want->a != INIT_A);
    case 1:
        return want->b != 0 && want->b != INIT_B;
    case 2:
        return want->c != 0 && want->c != INIT_C;
    default:
        return false;
    }
}

static int fail(size_t *bad_index, size_t where)
{
    if (bad_index != NULL)
        *bad_index = where;
    return -1;
}

int nprb_kernel_validate(const struct nprb_kernel *k, const struct nprb_stream_args *args,
                         double checksum, size_t *bad_index)
{
    const struct nprb_kernel_outcome *want = &k->expect;
    size_t n = args->n;
    if (want->sums) {
        /* Every element read is 1.0, so the sum is the number of reads, exact below 2^53. */
        size_t reads = k->uses_stride ? nprb_strided_accesses(n, args->stride) : n;
        if (checksum != (double)reads * INIT_A)
            return fail(bad_index, SIZE_MAX);
    }
    const double *a = want->a != 0 || want->zeroes ? args->a : NULL;
    const double *b = want->b != 0 ? args->b : NULL;
    const double *c = want->c != 0 ? args->c : NULL;
    if (n > 0 && ((a == NULL && (want->a != 0 || want->zeroes)) || (want->b != 0 && b == NULL) ||
                  (want->c != 0 && c == NULL) || (k->uses_index && args->index == NULL)))
        return fail(bad_index, 0);
    /* Every element of every array the kernel touches, in one pass, so the first wrong one is
     * reported whichever array holds it. */
    for (size_t i = 0; i < n; i++) {
        if ((a != NULL && a[i] != want->a) || (b != NULL && b[i] != want->b) ||
            (c != NULL && c[i] != want->c) || (k->uses_index && args->index[i] >= n))
            return fail(bad_index, i);
    }
    return 0;
}
