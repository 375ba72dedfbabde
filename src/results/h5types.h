/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file h5types.h
 * The HDF5 types of the result tables, made from the field descriptors of results.h: the one
 * definition the writer (h5out) and the reader (h5in) share, so a column cannot be written one
 * way and read another.
 */
#ifndef NPRB_H5TYPES_H
#define NPRB_H5TYPES_H

#include "results/results.h"

#include <hdf5.h>
#include <stdbool.h>
#include <stddef.h>

/** The native HDF5 type of one column; the caller closes it (H5Tclose). Invalid on failure. */
hid_t nprb_h5_field_type(const struct nprb_field *field);

/**
 * The compound memory type of a table's row: the C struct's layout, members named as the
 * columns. The caller closes it. The file type is this one packed (see h5out.c). @p minor:
 * the schema minor of a file being read, whose later columns are left out (they read as their
 * descriptor says); -1: every column (writing).
 */
hid_t nprb_h5_row_type(const struct nprb_table_desc *desc, int minor);

/** Writes the schema's name of a column's type ("int32", "float64", "str16") into @p buf. */
void nprb_h5_field_type_name(const struct nprb_field *field, char *buf, size_t len);

/**
 * Whether a column found in a file has the type the descriptor gives it: the same class, size
 * and signedness, and for text a fixed-length string no longer than the descriptor's. Writes the
 * found type's name, in the words of nprb_h5_field_type_name(), into @p found.
 */
bool nprb_h5_field_matches(hid_t file_type, const struct nprb_field *field, char *found,
                           size_t len);

#endif
