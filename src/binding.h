/**
 * @file binding.h
 * The binding self-check: did the launcher leave this host's ranks the CPUs the plan needs?
 * Open MPI binds jobs of up to 2 ranks to one core by default, srun may bind to whatever its
 * site default says, and OMP_THREAD_LIMIT can cap the threads numaprobe starts; each silently
 * turns a node's bandwidth into one thread's. Nodes the job's cgroup leaves out are the
 * scheduler's allocation, not a binding problem: they are reported, not counted against it.
 */
#ifndef NPRB_BINDING_H
#define NPRB_BINDING_H

#include "fleet.h"
#include "provenance.h"
#include "topo.h"

#include <stdbool.h>
#include <stddef.h>

/**
 * Checks this rank's binding together with the other ranks of its host (collective over the
 * host's communicator). @p text gets "ok: ..." or "narrow: ..." with what was found.
 * @return whether the binding serves the plan.
 */
bool nprb_binding_check(const struct nprb_fleet *fleet, const struct nprb_topo *topo,
                        const struct nprb_provenance *prov, char *text, size_t len);

#endif
