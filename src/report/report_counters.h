/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file report_counters.h
 * The part of a host's stdout block that reads /counters: how many measurements had a thread
 * migrated or a chase preempted, the chase's IPC and LLC misses per access where the CPU has a
 * PMU, the memory controllers' bytes over the formula's where the uncore was counted, and for
 * each group this host could not count, the reason, once.
 */
#ifndef NPRB_REPORT_COUNTERS_H
#define NPRB_REPORT_COUNTERS_H

#include "results/results.h"

#include <stdio.h>

/** The counters lines of the rank's block (two spaces in); nothing when /counters is empty. */
void nprb_report_counters(FILE *out, const struct nprb_results *rows);

#endif
