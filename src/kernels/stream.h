/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file stream.h
 * Bandwidth kernels, one per row of a const table that also states the bytes each moves, both as
 * the program asks for them (STREAM's convention) and as the memory bus carries them (a store
 * that misses the cache first reads the line: write-allocate; non-temporal stores do not).
 * Every kernel can be validated after it ran, as STREAM does; a wrong answer fails the run.
 */
#ifndef NPRB_STREAM_H
#define NPRB_STREAM_H

#include "util/names.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum nprb_kernel_id {
    NPRB_KERNEL_READ,         /**< s += a[i] */
    NPRB_KERNEL_WRITE,        /**< a[i] = x */
    NPRB_KERNEL_WRITE_NT,     /**< a[i] = x, non-temporal stores */
    NPRB_KERNEL_COPY,         /**< c[i] = a[i] */
    NPRB_KERNEL_COPY_NT,      /**< c[i] = a[i], non-temporal stores */
    NPRB_KERNEL_COPY_MOVSB,   /**< c[i] = a[i], one rep movsb */
    NPRB_KERNEL_SCALE,        /**< b[i] = s * c[i] */
    NPRB_KERNEL_ADD,          /**< c[i] = a[i] + b[i] */
    NPRB_KERNEL_TRIAD,        /**< a[i] = b[i] + s * c[i] */
    NPRB_KERNEL_READ_STRIDED, /**< s += a[i * stride] */
    NPRB_KERNEL_READ_RANDOM,  /**< s += a[index[i]] */
    NPRB_KERNEL_MIX_3TO1,     /**< a[i] = min(a[i], b[i] * c[i] / 2): 3 reads, 1 write */
    NPRB_KERNEL_MIX_2TO1,     /**< a[i] = min(a[i], b[i] / 4): 2 reads, 1 write */
    NPRB_KERNEL_MIX_1TO1,     /**< a[i] = min(a[i], 0.5): 1 read, 1 write */
    NPRB_KERNEL_TRIAD_NT,     /**< a[i] = b[i] + s * c[i], non-temporal stores */
    NPRB_KERNEL_WRITE_ZVA,    /**< a[i] = 0, a DC ZVA per block (Arm64) */
    NPRB_N_KERNELS
};

/** One thread's share of a run: the same element range of each array the kernel uses. */
struct nprb_stream_args {
    double *a, *b, *c;     /**< n elements each; NULL where the kernel has fewer arrays */
    size_t n;              /**< elements per array */
    size_t stride;         /**< read_strided: elements from one read to the next (>= 1) */
    const uint32_t *index; /**< read_random: n indexes into a, each < n */
};

/** What each array holds after any number of correct runs from nprb_stream_init()'s values (0:
 * the kernel does not use that array), and whether run() returns a sum to check instead. */
struct nprb_kernel_outcome {
    double a, b, c;
    bool sums;
    /** a holds 0.0 after a run (write_zva): checked although a's 0 above means "unused". */
    bool zeroes;
};

/** One run of a kernel over one thread's share (the table's run, or one path's build of it). */
typedef double (*nprb_kernel_run_fn)(const struct nprb_stream_args *args);

struct nprb_kernel {
    const char *name;    /**< as in configs and the "kernel" column */
    const char *formula; /**< e.g. "a[i] = b[i] + s*c[i]" */
    unsigned arrays;     /**< 1: a; 2: a, b; 3: a, b, c (what args must provide) */
    bool uses_index;     /**< needs args.index (read_random) */
    bool uses_stride;    /**< reads every args.stride-th element (read_strided) */
    /** Bytes per access as the code asks for them: reads + writes (+ the index for random). */
    unsigned program_bytes;
    /** Bytes per access on the memory bus, write-allocate included; for strided and random
     * reads the line each access brings (see nprb_kernel_bytes()). */
    unsigned bus_bytes;
    /** The bus's read:write mix, in 8-byte words per element: a write-allocate's read counts as
     * a read (write is 1:1, copy 2:1, triad 3:1). The reading kernels say 1:0. */
    unsigned bus_reads, bus_writes;
    /** Runs once over args; returns the checksum of what was read (0 for kernels that only
     * write, or whose output nprb_kernel_validate() checks instead). */
    nprb_kernel_run_fn run;
    struct nprb_kernel_outcome expect; /**< what nprb_kernel_validate() checks */
    /** NULL where every CPU of the build's instruction set runs the kernel; else whether this
     * one does, and if not why (see nprb_kernel_available()). */
    bool (*available)(const char **why);
};

/** The table row for @p id, or NULL. */
const struct nprb_kernel *nprb_kernel_get(enum nprb_kernel_id id);

/**
 * Whether this CPU runs @p k: copy_movsb is x86-64's rep movsb, write_zva Arm64's DC ZVA. The
 * config takes every name on every instruction set; a measurement of a kernel this CPU lacks is a
 * not_applicable row whose note is @p why (a static string, set when false; @p why may be NULL).
 */
bool nprb_kernel_available(const struct nprb_kernel *k, const char **why);

/**
 * @p k's build for instruction-set path @p path (a name of NPRB_SIMD_PATHS), for tests that run
 * every path the CPU has; the table's run is the build of the path nprb_simd_path() names.
 * NULL when this CPU cannot run @p path, or, on x86-64, where the loader picks the clone, when
 * @p path is not the one it picked. A kernel with one build (copy_movsb, write_zva) has the same
 * run on every path the CPU runs.
 */
nprb_kernel_run_fn nprb_kernel_run_on(const struct nprb_kernel *k, const char *path);

/** Looks a kernel up by name; NULL when unknown. */
const struct nprb_kernel *nprb_kernel_find(const char *name);

/**
 * Parses a kernel name. @return 0, or -1 with "unknown kernel 'x' (expected read, ..., or
 * read_random)" in @p why.
 */
int nprb_kernel_parse(const char *text, enum nprb_kernel_id *id, char *why, size_t len);

/** The kernels' names, as nprb_kernel_parse() reads them (the config's kernels keys). */
extern const struct nprb_name_table nprb_kernel_names;

/**
 * Bytes one run over @p n elements moves, counted as the program asks (STREAM) and as the bus
 * carries them. Strided reads count one access per @p stride elements and a bus transfer of
 * min(stride * 8, 64) bytes per access (a line serves several reads when the stride is short);
 * random reads count a whole 64-byte line per access, plus the index.
 */
void nprb_kernel_bytes(const struct nprb_kernel *k, size_t n, size_t stride, uint64_t *program,
                       uint64_t *bus);

/**
 * Writes the starting values every kernel's validation assumes into the arrays of @p args that
 * are not NULL (a = 1.0, b = 2.0, c = 0.5 per element), and when args->index is not NULL a
 * random permutation of 0..n-1 from @p seed into it (a cast away from const: the caller owns it).
 * It is these pages' first touch: the calling thread faults them in (nprb_populate()) and so
 * places them where its first store would.
 */
void nprb_stream_init(const struct nprb_stream_args *args, uint64_t seed);

/**
 * Whether @p k writes array @p array (0: a, 1: b, 2: c): what it leaves there differs from
 * nprb_stream_init()'s starting value. An array it only reads still holds that value after any
 * number of runs, so a later measurement may stream it without writing it again.
 */
bool nprb_kernel_writes(const struct nprb_kernel *k, unsigned array);

/**
 * Checks, after any number of runs, that the kernel's output holds exactly what a correct kernel
 * leaves (every element written) and that @p checksum (what run() returned last) is right.
 * @return 0 when correct, -1 otherwise (with *bad_index set to the first wrong element, or
 * SIZE_MAX for a wrong checksum).
 */
int nprb_kernel_validate(const struct nprb_kernel *k, const struct nprb_stream_args *args,
                         double checksum, size_t *bad_index);

/** Every instruction-set path compiled in, widest first: the target_clones or builds of
 * stream_loops.c and stream_mix.c and the variants of stream_nt_*.c (keep them in step). */
#if defined(__aarch64__)
#define NPRB_SIMD_PATHS "sve neon"
#else
#define NPRB_SIMD_PATHS "avx512f avx2 sse2"
#endif

/** The instruction-set path the kernels run on this CPU: "avx512f", "avx2" or "sse2" on x86-64,
 * "sve" or "neon" on Arm64. */
const char *nprb_simd_path(void);

/** Whether this CPU runs instruction-set path @p path (a name of NPRB_SIMD_PATHS). */
bool nprb_simd_path_runs(const char *path);

#endif
