/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file report_sweeps.h
 * The sweep tables on stdout, laid out like the textbook ones: one row per pattern or kernel,
 * one column per working-set size (or stride, or thread count), ns or GB/s in the cells.
 */
#ifndef NPRB_REPORT_SWEEPS_H
#define NPRB_REPORT_SWEEPS_H

#include "results/results.h"

#include <stdio.h>

/** Prints every sweep table one rank's rows hold (nothing when it has no sweep rows). */
void nprb_report_sweeps(FILE *out, const struct nprb_results *rows);

/** Whether one rank's rows hold any sweep measurement. */
int nprb_report_has_sweeps(const struct nprb_results *rows);

#endif
