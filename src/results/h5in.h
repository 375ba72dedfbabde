/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file h5in.h
 * Reading a results file back: its root attributes, the layout of each table compared with the
 * row descriptors of results.h, and its rows into the same structs the writer wrote them from.
 * Used by `numaprobe check` and `numaprobe merge`; serial, no MPI. HDF5's own error printing is
 * silenced: a damaged file is reported by the caller in its own words.
 */
#ifndef NPRB_H5IN_H
#define NPRB_H5IN_H

#include "results/contract.h"
#include "results/results.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nprb_h5in;

/** One root attribute. */
struct nprb_attr {
    char name[64];
    enum nprb_attr_type type;
    int64_t value; /**< NPRB_ATTR_INT */
    char *text;    /**< NPRB_ATTR_TEXT: owned, NUL-terminated; NULL otherwise */
};

/** Every root attribute of a file, in name order. */
struct nprb_attrs {
    size_t count;
    struct nprb_attr *items;
};

/** Receives one problem of a table's layout, as a sentence without the file name. */
typedef void (*nprb_h5in_problem_fn)(void *ctx, const char *problem);

/**
 * Opens @p path read-only.
 * @return 0, or -1 with the reason in @p err ("not an HDF5 file or damaged beyond reading").
 */
int nprb_h5in_open(struct nprb_h5in **out, const char *path, char *err, size_t errlen);

/** Closes the file and frees @p in (NULL is fine). */
void nprb_h5in_close(struct nprb_h5in *in);

/**
 * Reads every root attribute. It also notes the file's schema_version: a file of an older minor
 * version of this major may then lack the columns added since (nprb_h5in_table() allows them,
 * nprb_h5in_read() leaves them 0); before this call every column is required.
 * @return 0, or -1 (memory, or the file refused): @p attrs empty.
 */
int nprb_h5in_attrs(struct nprb_h5in *in, struct nprb_attrs *attrs);

/** The attribute called @p name, or NULL. */
const struct nprb_attr *nprb_attrs_find(const struct nprb_attrs *attrs, const char *name);

/** The text of attribute @p name, or NULL when it is missing or not text. */
const char *nprb_attrs_text(const struct nprb_attrs *attrs, const char *name);

/** The value of integer attribute @p name, or @p fallback when it is missing or not an integer. */
int64_t nprb_attrs_int(const struct nprb_attrs *attrs, const char *name, int64_t fallback);

void nprb_attrs_free(struct nprb_attrs *attrs);

/**
 * Opens a table and compares its layout with the table's descriptor: a one-dimensional dataset
 * of a compound type holding every column with the descriptor's type (columns the descriptor
 * does not know are allowed: a newer minor schema version adds them). Each problem goes to
 * @p fn. On success the table stays open for nprb_h5in_read().
 * @return 0 with the row count in @p rows; -1 when the table is missing or cannot be read as
 * the descriptor says (its problems were reported).
 */
int nprb_h5in_table(struct nprb_h5in *in, enum nprb_table_id table, size_t *rows,
                    nprb_h5in_problem_fn fn, void *ctx);

/**
 * Verifies the attributes of a table opened by nprb_h5in_table() (`description`, `columns`,
 * `units`, `column_descriptions`, and from NPRB_TABLE_SPEC_SINCE_MINOR the HDF5 Table
 * specification's: h5meta.h) when the file's schema minor is from
 * NPRB_TABLE_ATTRS_SINCE_MINOR to this binary's; an older file need not have them, and a newer
 * one is not held to this binary's contract (as its added columns are not).
 * @return the number of problems, each passed to @p fn.
 */
int nprb_h5in_table_attrs(struct nprb_h5in *in, enum nprb_table_id table, nprb_h5in_problem_fn fn,
                          void *ctx);

/**
 * Reads rows [@p start, @p start + @p count) of a table opened by nprb_h5in_table() into
 * @p rows (count * row_bytes). Text columns come back NUL-terminated whatever the file holds.
 * @return 0 or -1 (HDF5 could not read them: a damaged file).
 */
int nprb_h5in_read(struct nprb_h5in *in, enum nprb_table_id table, size_t start, size_t count,
                   void *rows);

/**
 * Whether the rows of a table opened by nprb_h5in_table() are decoded by numaprobe itself
 * (h5chunks.h: the layout numaprobe writes) rather than through HDF5's filters. Either way they
 * read the same; this is the fast way a fleet's file is read.
 */
bool nprb_h5in_decodes_chunks(const struct nprb_h5in *in, enum nprb_table_id table);

/**
 * Reads every row of every table into @p results (initialised by the caller, appended to).
 * @return 0, or -1 with what failed in @p err.
 */
int nprb_h5in_read_all(struct nprb_h5in *in, struct nprb_results *results, char *err,
                       size_t errlen);

#endif
