/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file report_topology.h
 * Two parts of a host's stdout block that read the topology tables: the NUMA layout as
 * `numactl --hardware` prints it (nodes, CPUs, sizes, free memory, packages, SLIT), and the
 * matrices summed up by pair class (local, same package, cross package, memory-only node).
 */
#ifndef NPRB_REPORT_TOPOLOGY_H
#define NPRB_REPORT_TOPOLOGY_H

#include "results/results.h"

#include <stdio.h>

/**
 * The rank's /numa_nodes and /distances rows in `numactl --hardware`'s layout ("available: N
 * nodes (0-7)", "node K cpus: ...", "node K size: X MB", "node K free: Y MB", "node distances:"
 * and the matrix), each line indented by two spaces, plus "node K package: P" after each node's
 * free line. Free memory is what the rank found before measuring. Nothing when the rank has no
 * /numa_nodes rows.
 */
void nprb_report_topology(FILE *out, const struct nprb_results *rows);

/**
 * The latency and bandwidth matrices summed up per pair class: for each class the pairs
 * measured, their SLIT range, the median over pairs of idle latency and of read and triad GB/s
 * (cells bound to one node, status ok only), each beside its ratio to the local class. Nothing
 * when the rank has no matrix cells.
 */
void nprb_report_classes(FILE *out, const struct nprb_results *rows);

#endif
