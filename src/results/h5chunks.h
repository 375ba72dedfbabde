/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file h5chunks.h
 * Reading a table's rows chunk by chunk, decoded here rather than by HDF5 (internal to
 * results/: h5in.c's fast path). HDF5 would inflate each chunk into a growing buffer, unshuffle
 * it a byte at a time, copy it through its chunk cache and a conversion buffer and convert each
 * row column by column; a fleet's file of tens of millions of rows spends most of its reading
 * there. This reads the chunk as stored (H5Dread_chunk), inflates it in one call, unshuffles it
 * and copies each row's columns into its struct, and keeps the last chunk for the next block.
 *
 * It takes only the layouts numaprobe writes: one dimension, chunked, filtered by shuffle and
 * deflate (either, both or none, with the parameters HDF5's filters accept), every column of the
 * row type of the file's own type. Anything else, and any chunk that is not exactly what those
 * filters make (missing, a filter skipped, a stream that does not end where the chunk does, a
 * wrong checksum), is left to HDF5, which then reads it or fails as it always did: the rows and
 * the verdicts are HDF5's either way. HDF5 also checks a table as a whole on every read (its
 * fill value, the conversion of its type): h5in.c reads a table's first block through HDF5 and
 * decodes the rest here only when that read succeeds.
 */
#ifndef NPRB_H5CHUNKS_H
#define NPRB_H5CHUNKS_H

#include <hdf5.h>
#include <stddef.h>

struct nprb_h5chunks;

/**
 * A reader of dataset @p ds into rows of @p mem_type (@p row_bytes each), or NULL when its
 * layout is not one it decodes (or memory ran out): the caller reads through H5Dread. @p ds
 * stays the caller's and must outlive the reader.
 */
struct nprb_h5chunks *nprb_h5chunks_open(hid_t ds, hid_t mem_type, size_t row_bytes);

/** Frees @p c (NULL is fine). */
void nprb_h5chunks_close(struct nprb_h5chunks *c);

/**
 * Reads rows [@p start, @p start + @p count) into @p rows, writing only the bytes of the row
 * type's columns.
 * @return 0, or -1 when a chunk is not one it decodes: the caller reads the rows through HDF5.
 */
int nprb_h5chunks_read(struct nprb_h5chunks *c, size_t start, size_t count, void *rows);

#endif
