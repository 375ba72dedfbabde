/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file report_grid.h
 * A table of figures for the stdout report, laid out like the textbook's sweep tables: one row
 * per pattern or kernel, named by text; one column per working-set size, stride or thread count,
 * kept sorted; ns or GB/s in the cells, "-" where nothing was measured. The sweep experiments
 * print their sections with it (their descriptors' report, plan/descriptor.h); the bandwidth
 * sweeps' whole section is one call here, from their /bandwidth rows.
 */
#ifndef NPRB_REPORT_GRID_H
#define NPRB_REPORT_GRID_H

#include "results/results.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct nprb_grid;

/** What the column numbers are: sizes in bytes (printed 4KiB, 2MiB) or plain counts. */
enum nprb_grid_columns { NPRB_GRID_SIZES, NPRB_GRID_COUNTS };

/** An empty grid. @return it (free with nprb_grid_destroy()), or NULL when out of memory. */
struct nprb_grid *nprb_grid_create(void);

void nprb_grid_destroy(struct nprb_grid *g);

/** Sets the cell of row @p row and column @p col (added when new; past 256 rows or 64 columns
 * the cell is dropped). */
void nprb_grid_put(struct nprb_grid *g, const char *row, uint64_t col, double value);

/**
 * Prints @p title, then the grid in blocks of 10 columns, @p corner above the row names and
 * @p decimals digits in the cells. @return whether it printed anything (nothing when the grid
 * has no row).
 */
bool nprb_grid_print(FILE *out, const char *title, const char *corner, const struct nprb_grid *g,
                     enum nprb_grid_columns columns, int decimals);

/**
 * The stdout section of a bandwidth sweep: the measured /bandwidth rows of @p experiment in
 * @p rows as a grid, one row per kernel (per stride for read_strided), GB/s (best) by size per
 * array (the thread count then goes in the title), or by thread count when @p by_threads; titled
 * "EXPERIMENT on HOST: @p what". @return whether it printed anything.
 */
bool nprb_bandwidth_report(FILE *out, const struct nprb_results *rows,
                           enum nprb_experiment_id experiment, bool by_threads, const char *what);

#endif
