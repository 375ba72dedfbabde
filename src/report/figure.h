/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file figure.h
 * A headline figure as the stdout report writes it: the value, its relative uncertainty (`+-3%`,
 * in ASCII since job logs are read anywhere) and, where the uncertainty is above the noise limit
 * (results/contract.h), the noisy mark. A measured figure is always shown, noisy or not: the mark
 * says it is judged by no verdict, as the analysis says it. Also which rows the headline figures
 * come from: the one rule the report, the summary and the OpenMetrics file all read.
 */
#ifndef NPRB_REPORT_FIGURE_H
#define NPRB_REPORT_FIGURE_H

#include "results/results.h"

#include <stdbool.h>
#include <stddef.h>

/** The mark of a noisy figure, in matrices and lines alike. */
#define NPRB_NOISY_MARK '~'

/**
 * Writes "VALUE UNIT +-U%" into @p buf (@p decimals after the point; @p unit may be "" for none),
 * and " ~noisy" after it where @p uncertainty_pct is noisy; "+-?" where the uncertainty is
 * unknown (NaN). @return @p buf.
 */
char *nprb_figure_text(char *buf, size_t len, double value, int decimals, const char *unit,
                       double uncertainty_pct);

/** Whether @p l is a cell of the latency matrix of bound memory (one CPU node, one memory node),
 * whatever its status. */
bool nprb_latency_matrix_cell(const struct nprb_latency_row *l);

/** The same of the bandwidth matrix, whatever the kernel and status. */
bool nprb_bandwidth_matrix_cell(const struct nprb_bandwidth_row *b);

/** Whether @p l is a headline cell: a latency matrix cell that measured ok. A host's headline
 * figures are taken from these alone (the analysis: metrics.py's matrix metrics). */
bool nprb_latency_headline(const struct nprb_latency_row *l);

/** The same of the bandwidth matrix. */
bool nprb_bandwidth_headline(const struct nprb_bandwidth_row *b);

/** "+-U%" of @p uncertainty_pct alone ("+-?" for NaN, ">999%" beyond), into @p buf. */
char *nprb_uncertainty_text(char *buf, size_t len, double uncertainty_pct);

#endif
