/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file host_row.h
 * The /hosts row: what one rank's host is (topology summary, provenance, the binding check, the
 * theoretical peak) and how its measurements ended, and the row rank 0 writes for a rank it gave
 * up as hung. Nothing here talks MPI or writes a file: the job and the collector place the rows.
 */
#ifndef NPRB_HOST_ROW_H
#define NPRB_HOST_ROW_H

#include "fleet/fleet.h"
#include "host/binding.h"
#include "host/provenance.h"
#include "host/topo.h"
#include "results/results.h"

#include <stdint.h>

/** What a rank's /hosts row is built from. */
struct nprb_host_facts {
    const struct nprb_fleet *fleet;
    const struct nprb_topo *topo;
    const struct nprb_provenance *prov;
    const struct nprb_binding *binding;
    int dimm_speed_mts;  /**< from the config, 0: what the firmware says */
    int memory_channels; /**< from the config, 0: one per memory module */
    uint64_t start_ns;   /**< the job's start on this rank, for elapsed_s */
};

/** This rank's /hosts row as it stands: @p status is "running" in checkpoints, then ok/failed
 * (or "hung", for rank 0's own). */
void nprb_host_row_fill(struct nprb_host_row *h, const struct nprb_host_facts *facts,
                        const char *status);

/** Rank 0: the /hosts row of @p rank, given up as hung for @p why (its checkpoint keeps what it
 * measured). */
void nprb_host_row_hung(struct nprb_host_row *h, const struct nprb_fleet *fleet, int rank,
                        const char *why);

#endif
