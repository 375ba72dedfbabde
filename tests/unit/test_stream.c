/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "kernels/stream.h"
#include "kernels/stream_nt.h"

#include <omp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__aarch64__)
#include <sys/auxv.h>
#endif

/* Canary elements around every array: a kernel that stores one element too many (a vector tail,
 * a non-temporal head) overwrites one, which validation alone cannot see. */
#define GUARD 8
#define CANARY (-7.0)

/* The array each kernel writes (0: a, 1: b, 2: c), or -1 for the reading kernels, whose checksum
 * validation checks instead. */
static const int output_of[NPRB_N_KERNELS] = {
    [NPRB_KERNEL_READ] = -1,         [NPRB_KERNEL_WRITE] = 0,        [NPRB_KERNEL_WRITE_NT] = 0,
    [NPRB_KERNEL_COPY] = 2,          [NPRB_KERNEL_COPY_NT] = 2,      [NPRB_KERNEL_COPY_MOVSB] = 2,
    [NPRB_KERNEL_SCALE] = 1,         [NPRB_KERNEL_ADD] = 2,          [NPRB_KERNEL_TRIAD] = 0,
    [NPRB_KERNEL_READ_STRIDED] = -1, [NPRB_KERNEL_READ_RANDOM] = -1, [NPRB_KERNEL_MIX_3TO1] = 0,
    [NPRB_KERNEL_MIX_2TO1] = 0,      [NPRB_KERNEL_MIX_1TO1] = 0,     [NPRB_KERNEL_TRIAD_NT] = 0,
    [NPRB_KERNEL_WRITE_ZVA] = 0,
};

/* nprb_stream_init()'s values, by array. */
static const double start_value[3] = {1.0, 2.0, 0.5};

/* One case: a kernel, a size per thread, a start offset in elements from a 64-byte boundary
 * (non-zero offsets give every head length of the vector loops), a stride, a thread count. */
struct scene {
    enum nprb_kernel_id id;
    const struct nprb_kernel *k;
    size_t n, offset, stride;
    int threads;
    /* Thread t's chunk starts at GUARD + offset + t * pitch elements into each buffer, with
     * canaries between chunks too. */
    size_t pitch, total;
    double *buf[3];
    uint32_t *index;
};

#define CHECK_SCENE(cond, s)                                                                       \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: %s n=%zu offset=%zu stride=%zu threads=%d: failed: %s\n",      \
                    __FILE__, __LINE__, (s)->k->name, (s)->n, (s)->offset, (s)->stride,            \
                    (s)->threads, #cond);                                                          \
            check_failures++;                                                                      \
        }                                                                                          \
    } while (0)

static bool scene_alloc(struct scene *s)
{
    s->pitch = s->n + GUARD + s->offset;
    s->total = GUARD + (size_t)s->threads * s->pitch;
    size_t bytes = (s->total * sizeof(double) + 63) / 64 * 64;
    for (int j = 0; j < 3; j++) {
        s->buf[j] = aligned_alloc(64, bytes);
        if (s->buf[j] == NULL)
            return false;
        for (size_t i = 0; i < s->total; i++)
            s->buf[j][i] = CANARY;
    }
    s->index = malloc(((size_t)s->threads * s->n + 1) * sizeof *s->index);
    return s->index != NULL;
}

static void scene_free(struct scene *s)
{
    for (int j = 0; j < 3; j++)
        free(s->buf[j]);
    free(s->index);
}

/* Thread t's share, with only the arrays the kernel's row asks for. */
static struct nprb_stream_args args_of(const struct scene *s, int t)
{
    size_t first = GUARD + s->offset + (size_t)t * s->pitch;
    struct nprb_stream_args args = {
        .a = s->buf[0] + first,
        .b = s->k->arrays >= 2 ? s->buf[1] + first : NULL,
        .c = s->k->arrays >= 3 ? s->buf[2] + first : NULL,
        .n = s->n,
        .stride = s->stride,
        .index = s->k->uses_index ? s->index + (size_t)t * s->n : NULL,
    };
    return args;
}

/* Every element outside the chunks still holds its canary. */
static bool canaries_intact(const struct scene *s)
{
    for (int j = 0; j < 3; j++)
        for (size_t i = 0; i < s->total; i++) {
            size_t in = i < GUARD ? SIZE_MAX : (i - GUARD) % s->pitch;
            bool in_chunk = in != SIZE_MAX && in >= s->offset && in < s->offset + s->n;
            if (!in_chunk && s->buf[j][i] != CANARY)
                return false;
        }
    return true;
}

static double *array_of(const struct nprb_stream_args *args, int which)
{
    return which == 0 ? args->a : which == 1 ? args->b : args->c;
}

/* Index of the last element a kernel reads or writes: a run over that many elements misses
 * exactly one access. */
static size_t last_access(const struct scene *s)
{
    if (s->k->uses_stride)
        return (s->n - 1) / s->stride * s->stride;
    return s->n - 1;
}

/* The normal life of a run: each thread initialises its own chunk (first touch), runs the kernel
 * three times on it and validates it. */
static void check_runs(struct scene *s)
{
    int bad = 0, nonzero = 0;
#pragma omp parallel num_threads(s->threads) reduction(+ : bad, nonzero)
    for (int t = omp_get_thread_num(); t < s->threads; t += omp_get_num_threads()) {
        struct nprb_stream_args args = args_of(s, t);
        nprb_stream_init(&args, 42 + (uint64_t)t);
        double sum = 0.0;
        for (int r = 0; r < 3; r++)
            sum = s->k->run(&args);
        size_t where = 0;
        bad += nprb_kernel_validate(s->k, &args, sum, &where) != 0;
        nonzero += output_of[s->id] >= 0 && sum != 0.0;
    }
    CHECK_SCENE(bad == 0, s);
    CHECK_SCENE(nonzero == 0, s); /* kernels that only write return 0 */
    CHECK_SCENE(canaries_intact(s), s);
}

/* The failures validation exists for, on thread 0's chunk. */
static void check_catches(struct scene *s)
{
    struct nprb_stream_args args = args_of(s, 0);
    size_t where = 0;
    int out = output_of[s->id];
    size_t mid = s->k->uses_stride ? s->n / 2 / s->stride * s->stride : s->n / 2;

    /* A kernel that never ran. */
    nprb_stream_init(&args, 7);
    CHECK_SCENE(nprb_kernel_validate(s->k, &args, 0.0, &where) == -1, s);
    CHECK_SCENE(where == (out >= 0 ? 0 : SIZE_MAX), s);

    /* A run that stopped one access short. */
    struct nprb_stream_args partial = args;
    partial.n = last_access(s);
    double sum = s->k->run(&partial);
    where = 0;
    CHECK_SCENE(nprb_kernel_validate(s->k, &args, sum, &where) == -1, s);
    CHECK_SCENE(where == (out >= 0 ? last_access(s) : SIZE_MAX), s);

    sum = s->k->run(&args);
    CHECK_SCENE(nprb_kernel_validate(s->k, &args, sum, &where) == 0, s);
    if (out >= 0) {
        /* One stale or wrong output element, wherever it is. */
        const size_t spots[] = {0, mid, s->n - 1};
        for (size_t i = 0; i < sizeof spots / sizeof spots[0]; i++) {
            double *o = array_of(&args, out), kept = o[spots[i]];
            o[spots[i]] = start_value[out];
            CHECK_SCENE(nprb_kernel_validate(s->k, &args, sum, &where) == -1, s);
            CHECK_SCENE(where == spots[i], s);
            o[spots[i]] = kept + 1.0;
            CHECK_SCENE(nprb_kernel_validate(s->k, &args, sum, &where) == -1, s);
            CHECK_SCENE(where == spots[i], s);
            o[spots[i]] = kept;
        }
        CHECK_SCENE(nprb_kernel_validate(s->k, &args, sum, &where) == 0, s);
        return;
    }
    /* Reading kernels: one input element changed, the sum changes. */
    args.a[mid] = 0.0;
    double changed = s->k->run(&args);
    CHECK_SCENE(nprb_kernel_validate(s->k, &args, changed, &where) == -1, s);
    CHECK_SCENE(where == SIZE_MAX, s);
    args.a[mid] = start_value[0];
    CHECK_SCENE(nprb_kernel_validate(s->k, &args, sum + 1.0, &where) == -1, s);
    CHECK_SCENE(where == SIZE_MAX, s);
    if (s->k->uses_index) {
        /* An index that would read outside the array is refused without running it. */
        uint32_t kept = s->index[mid];
        s->index[mid] = (uint32_t)s->n;
        CHECK_SCENE(nprb_kernel_validate(s->k, &args, sum, &where) == -1, s);
        CHECK_SCENE(where == mid, s);
        s->index[mid] = kept;
    }
    CHECK_SCENE(nprb_kernel_validate(s->k, &args, sum, &where) == 0, s);
}

/* Every size, offset, stride and thread count for kernel @p id, run by @p run: a path's build. */
static void check_kernel_on(enum nprb_kernel_id id, nprb_kernel_run_fn run)
{
    static const size_t sizes[] = {0, 1, 7, 31, 32, 33, 1000, 4099};
    static const size_t offsets[] = {0, 1, 5};
    static const size_t strides[] = {1, 2, 3, 8, 16, 5000};
    struct nprb_kernel k = *nprb_kernel_get(id);
    k.run = run;
    size_t n_strides = k.uses_stride ? sizeof strides / sizeof strides[0] : 1;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (size_t oi = 0; oi < sizeof offsets / sizeof offsets[0]; oi++)
            for (size_t st = 0; st < n_strides; st++)
                for (int threads = 1; threads <= 2; threads++) {
                    struct scene s = {.id = id,
                                      .k = &k,
                                      .n = sizes[si],
                                      .offset = offsets[oi],
                                      .stride = strides[st],
                                      .threads = threads};
                    if (!scene_alloc(&s)) {
                        CHECK_SCENE(!"out of memory", &s);
                        scene_free(&s);
                        return;
                    }
                    check_runs(&s);
                    if (s.n > 0 && threads == 1)
                        check_catches(&s);
                    scene_free(&s);
                }
}

/* Every kernel on every path this CPU runs (Arm64's NEON and SVE builds; on x86-64 the clones the
 * loader picked), and every kernel this CPU lacks is reported so, with a reason, on every path. */
static void check_kernels_run_and_validate(void)
{
    char paths[] = NPRB_SIMD_PATHS;
    for (char *save = NULL, *path = strtok_r(paths, " ", &save); path != NULL;
         path = strtok_r(NULL, " ", &save)) {
        if (!nprb_simd_path_runs(path)) {
            printf("path %s: not on this CPU, not tested\n", path);
            continue;
        }
        int tested = 0;
        for (int id = 0; id < NPRB_N_KERNELS; id++) {
            const struct nprb_kernel *k = nprb_kernel_get((enum nprb_kernel_id)id);
            const char *why = NULL;
            nprb_kernel_run_fn run = nprb_kernel_run_on(k, path);
            if (!nprb_kernel_available(k, &why)) {
                CHECK(run == NULL);
                CHECK(why != NULL && strstr(why, k->name) == why);
                printf("path %s: %s not tested: %s\n", path, k->name, why != NULL ? why : "?");
                continue;
            }
            if (run == NULL) {
                /* x86-64: the loader picked another path's clones; they cannot be forced. */
                CHECK(strcmp(path, nprb_simd_path()) != 0);
                continue;
            }
            check_kernel_on((enum nprb_kernel_id)id, run);
            tested++;
        }
        printf("path %s: %d kernels tested\n", path, tested);
        /* The path this CPU runs has every available kernel. */
        if (strcmp(path, nprb_simd_path()) == 0)
            CHECK(tested > 0);
    }
}

static void check_table(void)
{
    for (int id = 0; id < NPRB_N_KERNELS; id++) {
        const struct nprb_kernel *k = nprb_kernel_get((enum nprb_kernel_id)id);
        CHECK(k != NULL && k->name != NULL && k->formula != NULL && k->run != NULL);
        if (k == NULL)
            continue;
        CHECK(nprb_kernel_find(k->name) == k);
        CHECK(k->arrays >= 1 && k->arrays <= 3);
        CHECK(k->uses_index == (id == NPRB_KERNEL_READ_RANDOM));
        CHECK(k->uses_stride == (id == NPRB_KERNEL_READ_STRIDED));
        CHECK(k->program_bytes > 0 && k->bus_bytes >= k->program_bytes);
        /* The stated mix is the bus's bytes, where each access is one element. */
        if (!k->uses_index && !k->uses_stride)
            CHECK(k->bus_bytes == 8 * (k->bus_reads + k->bus_writes));
        CHECK(k->bus_reads + k->bus_writes > 0);
        CHECK(k->bus_writes <= 1 && k->bus_reads <= 3);
        /* What a kept array may skip being written again for (bandwidth_run.c): exactly the
         * arrays the kernel only reads. */
        for (unsigned a = 0; a < 3; a++)
            CHECK(nprb_kernel_writes(k, a) == (output_of[id] == (int)a));
    }
    CHECK(nprb_kernel_get(NPRB_KERNEL_MIX_3TO1)->bus_reads == 3);
    CHECK(nprb_kernel_get(NPRB_KERNEL_MIX_1TO1)->bus_writes == 1);
    CHECK(nprb_kernel_get(NPRB_N_KERNELS) == NULL);
    CHECK(nprb_kernel_find("nonsense") == NULL);
    CHECK(nprb_kernel_find("TRIAD") == NULL);
    CHECK(nprb_kernel_find("triad") == nprb_kernel_get(NPRB_KERNEL_TRIAD));
    CHECK(nprb_kernel_find("read_random") == nprb_kernel_get(NPRB_KERNEL_READ_RANDOM));
    CHECK(nprb_kernel_get(NPRB_KERNEL_COPY)->arrays == 3); /* c is an output */
    CHECK(nprb_kernel_get(NPRB_KERNEL_WRITE)->arrays == 1);
    /* write_zva's output is 0: the outcome must say so, or validation would skip array a. */
    const struct nprb_kernel *zva = nprb_kernel_get(NPRB_KERNEL_WRITE_ZVA);
    CHECK(zva->expect.zeroes && zva->expect.a == 0 && zva->arrays == 1);
    CHECK(nprb_kernel_find("write_zva") == zva);
}

/* Which kernels this instruction set lacks, said with a reason that names the kernel, and that
 * kernels run on the instruction set they are written for. */
static void check_availability(void)
{
    const struct nprb_kernel *movsb = nprb_kernel_get(NPRB_KERNEL_COPY_MOVSB);
    const struct nprb_kernel *zva = nprb_kernel_get(NPRB_KERNEL_WRITE_ZVA);
    const char *why = NULL;
#if defined(__x86_64__)
    CHECK(nprb_kernel_available(movsb, &why));
    CHECK(!nprb_kernel_available(zva, &why));
    CHECK(why != NULL && strcmp(why, "write_zva: DC ZVA is Arm64-only") == 0);
    CHECK(nprb_kernel_run_on(zva, nprb_simd_path()) == NULL);
#elif defined(__aarch64__)
    CHECK(!nprb_kernel_available(movsb, &why));
    CHECK(why != NULL && strcmp(why, "copy_movsb: rep movsb is x86-only") == 0);
    CHECK(nprb_kernel_run_on(movsb, nprb_simd_path()) == NULL);
    why = NULL;
    bool zva_runs = nprb_kernel_available(zva, &why);
    printf("write_zva: %s\n", zva_runs ? "available" : why);
    CHECK(zva_runs ? nprb_kernel_run_on(zva, "neon") == zva->run : why != NULL);
#endif
    /* Every other kernel runs wherever the build's instruction set does. */
    for (int id = 0; id < NPRB_N_KERNELS; id++)
        if (id != NPRB_KERNEL_COPY_MOVSB && id != NPRB_KERNEL_WRITE_ZVA)
            CHECK(nprb_kernel_available(nprb_kernel_get((enum nprb_kernel_id)id), NULL));
    CHECK(nprb_kernel_run_on(nprb_kernel_get(NPRB_KERNEL_READ), "nonsense") == NULL);
}

static void check_bytes_of(const char *name, size_t n, size_t stride, uint64_t program,
                           uint64_t bus)
{
    uint64_t p = 0, b = 0;
    nprb_kernel_bytes(nprb_kernel_find(name), n, stride, &p, &b);
    if (p != program || b != bus) {
        fprintf(stderr, "%s:%d: %s n=%zu stride=%zu: bytes %llu/%llu, expected %llu/%llu\n",
                __FILE__, __LINE__, name, n, stride, (unsigned long long)p, (unsigned long long)b,
                (unsigned long long)program, (unsigned long long)bus);
        check_failures++;
    }
}

static void check_bytes(void)
{
    check_bytes_of("read", 1000, 1, 8000, 8000);
    check_bytes_of("write", 1000, 1, 8000, 16000); /* write-allocate reads each line first */
    check_bytes_of("write_nt", 1000, 1, 8000, 8000);
    check_bytes_of("copy", 1000, 1, 16000, 24000);
    check_bytes_of("copy_nt", 1000, 1, 16000, 16000);
    check_bytes_of("copy_movsb", 1000, 1, 16000, 24000); /* write-allocate's count: stream_cpu.c */
    check_bytes_of("write_zva", 1000, 1, 8000, 8000);    /* whole blocks zeroed, never read */
    check_bytes_of("scale", 1000, 1, 16000, 24000);
    check_bytes_of("add", 1000, 1, 24000, 32000);
    check_bytes_of("triad", 1000, 7, 24000, 32000); /* the stride only matters to strided */
    check_bytes_of("triad", 0, 1, 0, 0);
    check_bytes_of("read_strided", 1000, 1, 8000, 8000);
    check_bytes_of("read_strided", 1000, 2, 4000, 8000);  /* 500 reads, a line per 4 */
    check_bytes_of("read_strided", 1000, 8, 1000, 8000);  /* 125 reads, a line each */
    check_bytes_of("read_strided", 1000, 16, 504, 4032);  /* 63 reads, a line each */
    check_bytes_of("read_strided", 10, 3, 32, 96);        /* 0, 3, 6, 9 */
    check_bytes_of("read_strided", 5, 1000, 8, 64);       /* one read */
    check_bytes_of("read_random", 1000, 1, 12000, 68000); /* a line and an index per read */
}

static void check_init(void)
{
    enum { N = 1000 };
    static double a[N], b[N], c[N];
    static uint32_t x[N], y[N];
    struct nprb_stream_args args = {.a = a, .b = b, .c = c, .n = N, .stride = 1, .index = x};
    nprb_stream_init(&args, 99);
    bool values = true, permutation = true;
    static bool seen[N];
    for (size_t i = 0; i < N; i++) {
        values &= a[i] == 1.0 && b[i] == 2.0 && c[i] == 0.5;
        permutation &= x[i] < N && !seen[x[i]];
        if (x[i] < N)
            seen[x[i]] = true;
    }
    CHECK(values);
    CHECK(permutation);
    args.index = y; /* same seed, same order; another seed, another */
    nprb_stream_init(&args, 99);
    CHECK(memcmp(x, y, sizeof x) == 0);
    nprb_stream_init(&args, 100);
    CHECK(memcmp(x, y, sizeof x) != 0);
    /* Arrays left NULL are skipped; 0 elements touches nothing. */
    b[0] = -1.0;
    struct nprb_stream_args only_a = {.a = a, .n = N, .stride = 1};
    nprb_stream_init(&only_a, 1);
    CHECK(b[0] == -1.0);
    struct nprb_stream_args empty = {.n = 0, .stride = 1};
    nprb_stream_init(&empty, 1);

    /* A large index is shuffled bucket by bucket (in cache): still a permutation, the same for
     * the same seed, and random over the whole range, not within buckets: the first positions
     * hold values from everywhere, and hardly any value stays where it was. */
    enum { BIG = 300000 };
    uint32_t *p = malloc(BIG * sizeof *p), *q = malloc(BIG * sizeof *q);
    bool *hit = calloc(BIG, sizeof *hit);
    CHECK(p != NULL && q != NULL && hit != NULL);
    struct nprb_stream_args big = {.n = BIG, .stride = 1, .index = p};
    nprb_stream_init(&big, 7);
    size_t fixed = 0, missing = 0;
    uint32_t lo = UINT32_MAX, hi = 0;
    for (size_t i = 0; i < BIG; i++) {
        if (p[i] < BIG)
            hit[p[i]] = true;
        fixed += p[i] == i;
    }
    for (size_t i = 0; i < BIG; i++)
        missing += !hit[i];
    for (size_t i = 0; i < BIG / 100; i++) {
        lo = p[i] < lo ? p[i] : lo;
        hi = p[i] > hi ? p[i] : hi;
    }
    CHECK(missing == 0);
    CHECK(fixed < 10);
    CHECK(lo < BIG / 20 && hi > BIG - BIG / 20);
    big.index = q;
    nprb_stream_init(&big, 7);
    CHECK(memcmp(p, q, BIG * sizeof *p) == 0);
    free(p);
    free(q);
    free(hit);
}

/* True when this CPU runs @p isa, asked apart from the kernels' own dispatch. */
static bool cpu_has(const char *isa)
{
#if defined(__aarch64__)
    if (strcmp(isa, "sve") == 0)
        return (getauxval(AT_HWCAP) & HWCAP_SVE) != 0;
    return strcmp(isa, "neon") == 0;
#else
    __builtin_cpu_init();
    if (strcmp(isa, "avx512f") == 0)
        return __builtin_cpu_supports("avx512f");
    if (strcmp(isa, "avx2") == 0)
        return __builtin_cpu_supports("avx2");
    return strcmp(isa, "sse2") == 0;
#endif
}

static void check_simd_path(void)
{
    const char *path = nprb_simd_path();
#if defined(__aarch64__)
    const char *widest = cpu_has("sve") ? "sve" : "neon";
    CHECK(strcmp(NPRB_SIMD_PATHS, "sve neon") == 0);
#else
    const char *widest = cpu_has("avx512f") ? "avx512f" : cpu_has("avx2") ? "avx2" : "sse2";
    CHECK(strcmp(NPRB_SIMD_PATHS, "avx512f avx2 sse2") == 0);
#endif
    CHECK(strcmp(path, widest) == 0);
    char paths[] = NPRB_SIMD_PATHS;
    for (char *save = NULL, *p = strtok_r(paths, " ", &save); p != NULL;
         p = strtok_r(NULL, " ", &save))
        CHECK(nprb_simd_path_runs(p) == cpu_has(p));
    CHECK(!nprb_simd_path_runs("nonsense"));
    printf("simd path: %s\n", path);
}

/* Every non-temporal variant this CPU runs, at every head length (start offsets 0..7 elements
 * from a line) and tail length, with source and destination misaligned differently. */
static void check_nt_variant(const struct nprb_nt_variant *v)
{
    /* Past 2048 elements the write streams four pages at once: one group and less, several
     * groups and a tail of whole lines and of elements. */
    static const size_t sizes[] = {0,  1,  2,  3,   4,    7,    8,    9,    15,  16,
                                   17, 31, 33, 100, 1001, 2047, 2048, 2055, 6157};
    enum { MAX = (6157 + 2 * GUARD + 8 + 7) / 8 * 8 }; /* whole lines: aligned_alloc's rule */
    double *dst = aligned_alloc(64, MAX * sizeof *dst);
    double *src = aligned_alloc(64, MAX * sizeof *src);
    if (dst == NULL || src == NULL) {
        CHECK(!"out of memory");
        free(dst);
        free(src);
        return;
    }
    for (size_t i = 0; i < MAX; i++)
        src[i] = (double)i + 0.25; /* distinct: a misplaced element shows */
    int bad = 0;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        for (size_t od = 0; od < 8; od++) {
            double *d = dst + GUARD + od;
            for (size_t i = 0; i < MAX; i++)
                dst[i] = CANARY;
            v->write(d, n, 3.0);
            for (size_t i = 0; i < MAX; i++) {
                bool in = dst + i >= d && dst + i < d + n;
                bad += dst[i] != (in ? 3.0 : CANARY);
            }
            for (size_t os = 0; os < 8; os += 3) {
                const double *s = src + GUARD + os;
                for (size_t i = 0; i < MAX; i++)
                    dst[i] = CANARY;
                v->triad(d, s, s + 1, n, 3.0);
                for (size_t i = 0; i < MAX; i++) {
                    bool in = dst + i >= d && dst + i < d + n;
                    bad += dst[i] != (in ? s[dst + i - d] + 3.0 * s[dst + i - d + 1] : CANARY);
                }
                for (size_t i = 0; i < MAX; i++)
                    dst[i] = CANARY;
                v->copy(d, s, n);
                for (size_t i = 0; i < MAX; i++) {
                    bool in = dst + i >= d && dst + i < d + n;
                    bad += dst[i] != (in ? s[dst + i - d] : CANARY);
                }
            }
        }
    }
    if (bad != 0)
        fprintf(stderr, "non-temporal %s: %d wrong elements\n", v->isa, bad);
    CHECK(bad == 0);
    free(dst);
    free(src);
}

static void check_nt_variants(void)
{
    char paths[] = NPRB_SIMD_PATHS;
    for (char *save = NULL, *isa = strtok_r(paths, " ", &save); isa != NULL;
         isa = strtok_r(NULL, " ", &save)) {
        const struct nprb_nt_variant *v = nprb_nt_variant(isa);
        if (!cpu_has(isa)) {
            CHECK(v == NULL);
            printf("non-temporal %s: not on this CPU, not tested\n", isa);
            continue;
        }
        CHECK(v != NULL && strcmp(v->isa, isa) == 0);
        if (v == NULL)
            continue;
        check_nt_variant(v);
        printf("non-temporal %s: tested\n", isa);
    }
#if defined(__aarch64__)
    CHECK(nprb_nt_variant("neon") != NULL); /* part of ARMv8-A: always there */
    CHECK(nprb_nt_variant("sse2") == NULL);
#else
    CHECK(nprb_nt_variant("sse2") != NULL); /* part of x86-64: always there */
    CHECK(nprb_nt_variant("neon") == NULL);
#endif
    CHECK(nprb_nt_variant("avx9000") == NULL);
}

int main(void)
{
    check_table();
    check_bytes();
    check_init();
    check_simd_path();
    check_availability();
    check_nt_variants();
    check_kernels_run_and_validate();
    return CHECK_DONE();
}
