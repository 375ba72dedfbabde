/**
 * @file stream.h
 * Bandwidth kernels, one per row of a const table that also states the bytes each moves, both as
 * the program asks for them (STREAM's convention) and as the memory bus carries them (stores
 * that miss the cache first read the line: write-allocate).
 */
#ifndef NPRB_STREAM_H
#define NPRB_STREAM_H

#include <stddef.h>

enum nprb_kernel_id { NPRB_KERNEL_READ, NPRB_N_KERNELS };

struct nprb_kernel {
    const char *name;
    unsigned arrays;        /**< arrays the kernel touches (each of the measured size) */
    unsigned program_bytes; /**< bytes per element the code reads + writes */
    unsigned bus_bytes;     /**< bytes per element crossing the memory bus */
    /** Runs over n elements of a (and b, c when the kernel has them); returns a checksum. */
    double (*run)(double *a, double *b, double *c, size_t n);
    /** The checksum a correct run over n elements initialised by nprb_stream_init() gives. */
    double (*expected)(size_t n);
};

/** The kernel table row for @p id. */
const struct nprb_kernel *nprb_kernel_get(enum nprb_kernel_id id);

/** Looks a kernel up by name; NULL when unknown. */
const struct nprb_kernel *nprb_kernel_find(const char *name);

/** Writes the values every kernel's validation assumes into a (and b, c when not NULL). */
void nprb_stream_init(double *a, double *b, double *c, size_t n);

/** The instruction-set path the kernels run on this CPU: "avx512f", "avx2" or "sse2". */
const char *nprb_simd_path(void);

#endif
