/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file h5decode.h
 * The hot loop of decoding an older file's chunks (h5chunks.h), in a unit of its own so that its
 * code can be read: undoing HDF5's shuffle filter, exactly as HDF5's filter does, in a fraction
 * of its time.
 */
#ifndef NPRB_H5DECODE_H
#define NPRB_H5DECODE_H

#include <stddef.h>

/**
 * Undoes HDF5's shuffle filter on @p elements elements of @p size bytes: @p in holds byte b of
 * element e at b * elements + e, @p out receives it at e * size + b. The buffers do not overlap.
 */
void nprb_unshuffle(unsigned char *out, const unsigned char *in, size_t elements, size_t size);

#endif
