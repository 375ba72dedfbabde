/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file h5out.h
 * The results file writer (rank 0 only). The file is "<path>.tmp-<pid>" (created at once, so an
 * unwritable place is known before measuring; the name cut to NAME_MAX, see output.h) until
 * commit fsyncs it and renames it to <path>, so a killed or failed writer never leaves a
 * truncated final file. HDF5 builds it in memory, where commit writes it out; a file past
 * 16 MiB goes to the temporary file at once and HDF5 writes it there, into room reserved ahead
 * (h5room.h), and commit checks it before the rename.
 * Tables are extendible compound datasets built from the row descriptors of results.h, appended
 * to one rank's rows at a time: memory holds one rank's rows and HDF5's caches, whatever the
 * size of the file.
 */
#ifndef NPRB_H5OUT_H
#define NPRB_H5OUT_H

#include "results/results.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct nprb_h5;

/**
 * Creates the temporary file next to @p path with every table empty. This is also the check
 * that the output path is writable, done before anything is measured.
 * @return 0, or -1 with a message naming the path and the reason in @p err.
 */
int nprb_h5_create(struct nprb_h5 **out, const char *path, char *err, size_t errlen);

/**
 * Appends @p count rows to a table. A failure (HDF5's, or no room on disk) ends the file: later
 * appends do nothing and commit fails, saying why. @return 0 or -1.
 */
int nprb_h5_append(struct nprb_h5 *h5, enum nprb_table_id table, const void *rows, size_t count);

/**
 * Sets a UTF-8 string attribute on the file's root group (replaces an existing one). The name
 * must be a text attribute of the contract (contract.h): any other is refused with a message on
 * stderr and -1, and so for the integer ones below.
 */
int nprb_h5_attr_text(struct nprb_h5 *h5, const char *name, const char *value);

/** Sets a 64-bit integer attribute on the root group (replaces an existing one). */
int nprb_h5_attr_int(struct nprb_h5 *h5, const char *name, int64_t value);

/**
 * Writes the file out (or closes it on disk and checks it: every table's rows and chunks, its
 * length), fsyncs and renames it into place; frees @p h5 whatever happens.
 * @return 0, or -1 with a message naming the OS's reason (ENOSPC, ...) in @p err; the temporary
 * file is then removed.
 */
int nprb_h5_commit(struct nprb_h5 *h5, char *err, size_t errlen);

/** Closes and removes the temporary file; frees @p h5. For runs that end before writing. */
void nprb_h5_discard(struct nprb_h5 *h5);

/** --version's line for HDF5: the library loaded, its flavour, and the one built against. */
void nprb_h5_print_version(FILE *out);

#endif
