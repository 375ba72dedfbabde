/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file report.h
 * The human-readable summary rank 0 prints on stdout, one host block at a time as the rows
 * arrive from the gather (no second pass over the file).
 */
#ifndef NPRB_REPORT_H
#define NPRB_REPORT_H

#include "results/results.h"

#include <stdio.h>

/** Column headings. */
void nprb_report_header(FILE *out);

/**
 * The block of one rank opens with its host line and topology (head); the experiments' parts
 * of every host's block follow (the matrices: experiments/registry.h), then the pair classes,
 * the peak, the counters and the notes of rows that are not ok (tail).
 */
void nprb_report_rank_head(FILE *out, const struct nprb_results *rows);
void nprb_report_rank_tail(FILE *out, const struct nprb_results *rows);

/**
 * One line for one rank, for fleets too large for a block each: status, and the medians of its
 * local idle latency and local read bandwidth (valid matrix cells only), or why there are none.
 */
void nprb_report_rank_line(FILE *out, const struct nprb_results *rows);

/** What the figures mean (units, byte counting) and where the file is. */
void nprb_report_footer(FILE *out, const char *path, int hosts, int ranks, int failed_hosts);

#endif
