/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file file_kind.h
 * What kind of file a path is, in words, for refusing anything but a regular file before it is
 * opened: opening a FIFO for reading blocks until a writer comes, and HDF5 or a config parser
 * reading a device or a socket never ends or reads nonsense.
 */
#ifndef NPRB_FILE_KIND_H
#define NPRB_FILE_KIND_H

#include <sys/types.h>

/**
 * @return NULL for a regular file, otherwise what @p mode (st_mode from stat) names: "a FIFO
 * (named pipe)", "a directory", "a character device", "a block device", "a socket", "a symbolic
 * link" or "not a regular file". A static string.
 */
const char *nprb_file_kind(mode_t mode);

#endif
