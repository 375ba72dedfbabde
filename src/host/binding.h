/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file binding.h
 * The binding step, before planning: did the launcher leave this host's ranks the CPUs the plan
 * needs, what numaprobe does about it, and which rank of the host measures which node.
 * Open MPI binds jobs of up to 2 ranks to one core by default, `--bind-to numa` with one rank per
 * host binds it to one node, srun may bind to whatever its site default says, and
 * OMP_THREAD_LIMIT can cap the threads numaprobe starts; each silently turns a node's bandwidth
 * into one thread's, or leaves nodes out. Nodes the job's cgroup leaves out are the scheduler's
 * allocation, not a binding problem: they are reported, not counted against it.
 */
#ifndef NPRB_BINDING_H
#define NPRB_BINDING_H

#include "host/provenance.h"
#include "host/topo.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** What the binding step found and decided for this rank. */
struct nprb_binding {
    /** The launcher's binding serves the plan: the host's ranks reach every allowed node, a lone
     * rank has all its cgroup's CPUs, OMP_THREAD_LIMIT caps nothing. What --strict judges. */
    bool ok;
    /** numaprobe widened this rank's binding to the cgroup's CPUs (nprb_topo_widen()). */
    bool widened;
    /** What the check says of it, the first word of text: ok, narrow or widened. */
    enum nprb_binding_verdict verdict;
    /** Per logical node: the host rank that measures its row, -1 when none does. */
    int node_owner[NPRB_MAX_NODES];
    /** "ok: ...", "narrow: ..." or "widened: ..." for binding_check in /hosts: what a launcher
     * bound, what numaprobe did, and what the cgroup confines. */
    char text[240];
};

/** Words of one rank's node mask: NPRB_MAX_NODES bits. */
#define NPRB_BINDING_MASK_WORDS (NPRB_MAX_NODES / 64)

/** The CPU nodes (bits by logical index) this rank's launcher binding reaches, into @p mine
 * (NPRB_BINDING_MASK_WORDS words): what every rank of a host shares before nprb_binding_settle().
 */
void nprb_binding_reach(const struct nprb_topo *topo, uint64_t *mine);

/**
 * Checks the launcher's binding of this rank together with the other ranks of its host (@p all:
 * the @p host_size ranks' nprb_binding_reach() masks, in host-rank order), widens it where
 * numaprobe should, and shares the host's CPU nodes out: each node's row goes to the lowest host
 * rank whose launcher binding reaches it. Unless @p respect_binding, a lone rank bound narrower
 * than its cgroup widens to the cgroup's CPUs, and the first of several ranks widens when its
 * binding misses a node (for first touch and balancing, which span nodes, and for nodes no rank
 * of the host reaches, which it then measures). Call before threads start: widening binds the
 * whole process.
 */
void nprb_binding_settle(struct nprb_topo *topo, const struct nprb_provenance *prov,
                         const uint64_t *all, int host_size, int host_rank, bool respect_binding,
                         struct nprb_binding *out);

/**
 * The sharing rule alone: @p reach holds @p ranks masks of NPRB_MAX_NODES bits (the CPU nodes,
 * by logical index, each host rank's launcher binding reaches); node i goes to the lowest rank
 * that reaches it, or to rank 0 when none does and @p leader_widened, else -1.
 */
void nprb_binding_share_nodes(const uint64_t *reach, int ranks, int node_count, bool leader_widened,
                              int *owner);

#endif
