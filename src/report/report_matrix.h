/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file report_matrix.h
 * The NUMA matrix of the stdout report: CPU nodes down, memory nodes across (bound memory),
 * then one column per spread policy (interleave, preferred, first touch). Each cell carries its
 * figure with its relative uncertainty (`145.3+-3%`), the pair's class letter, '!' when it is not
 * valid, '?' when a plausibility flag is set and '~' when it is noisy (report/figure.h). The
 * matrices' own sections (experiments/latency_matrix.c, bandwidth_matrix.c) fill and print it.
 */
#ifndef NPRB_REPORT_MATRIX_H
#define NPRB_REPORT_MATRIX_H

#include "results/contract.h"
#include "results/results.h"

#include <stdio.h>

struct nprb_matrix;

/** An empty matrix (64 nodes a side at most), or NULL without memory. */
struct nprb_matrix *nprb_matrix_create(void);
void nprb_matrix_destroy(struct nprb_matrix *m);

/** Empties @p m for the next figure. */
void nprb_matrix_clear(struct nprb_matrix *m);

/** Adds one row's figure and its relative uncertainty in percent (NaN: unknown; read it with
 * nprb_latency_uncertainty_pct() or nprb_bandwidth_uncertainty_pct()); rows and columns come in
 * any order, the matrix keeps them sorted. */
void nprb_matrix_put(struct nprb_matrix *m, int cpu, int mem, enum nprb_mem_policy policy,
                     double value, double uncertainty_pct, enum nprb_pair_class pair_class,
                     const char *status, const char *flags);

/** Prints @p m under @p title; nothing when it is empty. */
void nprb_matrix_print(FILE *out, const char *title, const struct nprb_matrix *m);

/** Each row's figures over its local one beside the firmware's (SLIT) ratio, from @p dist. */
void nprb_matrix_print_ratios(FILE *out, const struct nprb_matrix *m, const struct nprb_rows *dist);

#endif
