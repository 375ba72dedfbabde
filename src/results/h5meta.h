/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file h5meta.h
 * The attributes each table (HDF5 dataset) carries so that the file explains itself, from the
 * contract (contract.h): `description` (a string: what the table holds), and three string arrays
 * with one entry per column in the order of the row's compound members: `columns` (the column
 * names), `units` (each column's unit, "" where it has none) and `column_descriptions`. Beside
 * them, the HDF5 Table specification's (libhdf5_hl's H5TB, version 3.0): `CLASS` "TABLE",
 * `VERSION` "3.0", `TITLE` (the description) and `FIELD_<n>_NAME` (member n's name), fixed-length
 * scalar strings, by which PyTables and HDFView know a table. Written by h5out (every file,
 * checkpoints and merged files included) and verified by h5in for `numaprobe check` on files of
 * schema minor NPRB_TABLE_ATTRS_SINCE_MINOR (the specification's: NPRB_TABLE_SPEC_SINCE_MINOR)
 * and later.
 */
#ifndef NPRB_H5META_H
#define NPRB_H5META_H

#include "results/results.h"

#include <hdf5.h>

/** Receives one problem, as a sentence without the file name. */
typedef void (*nprb_h5meta_problem_fn)(void *ctx, const char *problem);

/**
 * Writes the attributes onto @p ds, the dataset of table @p id.
 * @return 0, or -1 when HDF5 refused one.
 */
int nprb_h5meta_write(hid_t ds, enum nprb_table_id id);

/**
 * Verifies the attributes of table @p ds against its compound type and the contract: each
 * present with its shape (a scalar string; arrays as long as the type has members), `columns`
 * naming the members in order, and the unit of every column the contract knows equal to the
 * contract's. Descriptions are only required to be there: their wording may improve. In a file of
 * schema minor @p minor NPRB_TABLE_SPEC_SINCE_MINOR or later, also the table specification's:
 * `CLASS` "TABLE", `VERSION` "3.0", a `TITLE`, and `FIELD_<n>_NAME` naming member n.
 * @return the number of problems, each passed to @p fn.
 */
int nprb_h5meta_check(hid_t ds, enum nprb_table_id id, int minor, nprb_h5meta_problem_fn fn,
                      void *ctx);

#endif
