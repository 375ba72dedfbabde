/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file h5decode.h
 * The two hot loops of decoding a table's chunks (h5chunks.h), in a unit of their own so that
 * their code can be read: the Adler-32 sum a zlib stream ends with, and undoing HDF5's shuffle
 * filter. Each gives exactly what zlib's adler32() and HDF5's filter give, in a fraction of
 * their time.
 */
#ifndef NPRB_H5DECODE_H
#define NPRB_H5DECODE_H

#include <stddef.h>
#include <stdint.h>

/** zlib's adler32(@p adler, @p buf, @p len): the running sum starts at 1. */
uint32_t nprb_adler32(uint32_t adler, const unsigned char *buf, size_t len);

/**
 * Undoes HDF5's shuffle filter on @p elements elements of @p size bytes: @p in holds byte b of
 * element e at b * elements + e, @p out receives it at e * size + b. The buffers do not overlap.
 */
void nprb_unshuffle(unsigned char *out, const unsigned char *in, size_t elements, size_t size);

#endif
