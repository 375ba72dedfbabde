/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file topo_record.h
 * The host's topology as rows: what each rank records of it before measuring.
 */
#ifndef NPRB_TOPO_RECORD_H
#define NPRB_TOPO_RECORD_H

#include "results/results.h"
#include "host/topo.h"

#include <stdbool.h>

/**
 * Adds this rank's /numa_nodes and /distances rows (HMAT figures included), each node's
 * hugepage pools, and, from the host's first rank (@p host_leader), the whole hwloc topology as
 * XML: what lstopo would show, for questions nobody thought of when the job ran.
 */
void nprb_topo_record(struct nprb_results *results, const struct nprb_topo *topo, int rank,
                      bool host_leader);

#endif
