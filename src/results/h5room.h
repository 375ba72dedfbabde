/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file h5room.h
 * Room on disk for a results file that HDF5 writes to directly (h5out.c, once the file has
 * outgrown memory): the temporary file's blocks are allocated ahead of HDF5 (posix_fallocate),
 * so a full file system or a quota is our clean error with errno, before HDF5 could meet it in
 * a write whose failure it may not report; and the closed file is checked before it may be
 * renamed into place. Internal to results/: it names HDF5 types, as h5types.h does.
 */
#ifndef NPRB_H5ROOM_H
#define NPRB_H5ROOM_H

#include "results/results.h"

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct nprb_h5room {
    int fd;         /**< the temporary file, our own descriptor beside HDF5's */
    off_t reserved; /**< bytes of it allocated, from offset 0 */
    off_t wanted;   /**< the length the last reservation asked for */
};

/** Rows of @p d a chunk holds (256 KiB of rows, at least one). */
hsize_t nprb_h5room_chunk_rows(const struct nprb_table_desc *d);

/** The dataset access list every table is opened with: its chunk cache, whose size is a bound
 * of what closing writes. @return the list, or -1. */
hid_t nprb_h5room_dataset_access(void);

/** File access to the temporary file on disk: sec2, without HDF5's own lock (numaprobe holds
 * the output's). @return the list, or -1. */
hid_t nprb_h5room_file_access(void);

/**
 * Makes the room hold what HDF5 has allocated, @p bytes of rows to come, and the close (what
 * the chunk caches and the metadata cache hold): allocated in steps of 8 MiB or an eighth of
 * the file. room->fd is the file (the room starts zeroed).
 * @return 0, or the errno of posix_fallocate (ENOSPC, EDQUOT, EIO).
 */
int nprb_h5room_reserve(struct nprb_h5room *room, hid_t file, size_t bytes);

/** Whether everything HDF5 has allocated in @p file, and so every byte it wrote, lies in the
 * room. */
bool nprb_h5room_holds(const struct nprb_h5room *room, hid_t file);

/**
 * The closed file at @p path, before its rename: it opens, every table has the @p rows HDF5
 * was given and a chunk for each 256 KiB of them (a chunk whose write failed is not indexed),
 * and it ends within the room and within the file's length; the file is then cut to that end.
 * @return 0, or -1 with what is wrong in @p err.
 */
int nprb_h5room_verify(struct nprb_h5room *room, const char *path, const hsize_t *rows, char *err,
                       size_t errlen);

#endif
