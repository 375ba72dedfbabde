/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file topo.h
 * The host's topology through hwloc: NUMA nodes (memory-only ones included), the CPUs this process
 * may use on each, caches, firmware distances, and a node-type fingerprint.
 * Lifecycle: nprb_topo_create() / nprb_topo_destroy(); everything returned points into the handle.
 */
#ifndef NPRB_TOPO_H
#define NPRB_TOPO_H

#include "host/dimms.h"
#include "results/row_ids.h"

#include <hwloc.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** Highest NUMA node os index numaprobe handles (Linux's own limit is 1024). */
#define NPRB_MAX_NODES 1024
/** Most PUs one measurement pins threads to (one node, or every node for spanning experiments). */
#define NPRB_MAX_PUS 4096

struct nprb_node_info {
    unsigned os_index;     /**< Linux node id (sparse ids are normal) */
    uint64_t memory_bytes; /**< memory attached to the node */
    int cpu_count;         /**< PUs local to the node (0: memory-only node) */
    int allowed_pus;       /**< those of its PUs the job's cgroup cpuset allows */
    int usable_cores;      /**< cores with a PU numaprobe runs threads on (see nprb_topo_widen) */
    int bound_cores;       /**< cores with a PU in the launcher's binding of this process */
    int package;           /**< os index of its package, -1 when it spans none or several */
    char cpus[128];        /**< local PUs as a list, e.g. "0-15,32-47" (truncated if longer) */
    bool mem_allowed;      /**< in this job's cpuset.mems (a Slurm cgroup may leave nodes out) */
    bool cpus_allowed;     /**< some of its CPUs are in this job's cpuset.cpus (or it has none) */
};

/** Memory numaprobe may bind to: the node has some, and the job's cpuset lets us allocate it. */
static inline bool nprb_node_memory_usable(const struct nprb_node_info *n)
{
    return n->memory_bytes > 0 && n->mem_allowed;
}

/** A home node: cores this rank may run on and local memory it may allocate. */
static inline bool nprb_node_is_home(const struct nprb_node_info *n)
{
    return n->usable_cores > 0 && nprb_node_memory_usable(n);
}

struct nprb_topo_summary {
    char cpu_model[64];
    int packages, numa_nodes, cores, pus;
    uint64_t memory_bytes;
    uint64_t l1d_bytes, l2_bytes, l3_bytes; /**< first cache of each level; 0 when absent */
    char fingerprint[17];                   /**< 16 hex digits; same hardware, same value */
    char label[64];                         /**< short human name of the node type */
    char usable_cpus[128];                  /**< PUs numaprobe runs threads on, as a list */
    int usable_pus;                         /**< how many PUs that is */
    int allowed_pus;         /**< PUs the job's cgroup cpuset allows (hwloc's allowed cpuset) */
    char bound_cpus[128];    /**< PUs the launcher bound this process to (before any widening) */
    int bound_pus;           /**< how many PUs that is */
    struct nprb_dimms dimms; /**< memory modules (this system only) */
};

/**
 * Memory rounded for the fingerprint and label: to 1/8 of its power of two (192 GiB stays 192,
 * 187.6 GiB becomes 192; 1/16 GiB steps below 1 GiB), so firmware reserving a little more on one
 * node than another does not split a node type.
 */
uint64_t nprb_topo_round_memory(uint64_t bytes);

struct nprb_topo;

/**
 * Discovers the topology of this host, or reads it from an hwloc XML file when @p xml_path is
 * not NULL (tests use synthetic shapes of real machines). The usable CPUs are the process's
 * binding at this moment (what the launcher gave us), all PUs for XML input. Nodes outside the
 * job's cgroup cpuset are kept (so the hardware, and its fingerprint, look the same in every
 * job) and marked not allowed.
 * @return 0, or -1 with a message in @p err.
 */
int nprb_topo_create(struct nprb_topo **topo, const char *xml_path, char *err, size_t errlen);

/** Same as nprb_topo_create() from an hwloc synthetic description ("pack:2 numa:1 core:4"). */
int nprb_topo_create_synthetic(struct nprb_topo **topo, const char *description, char *err,
                               size_t errlen);

void nprb_topo_destroy(struct nprb_topo *topo);

/**
 * Widens this process's CPU binding to every CPU the job's cgroup allows (hwloc's allowed
 * cpuset), as a rank started with --bind-to none would have it, and makes those CPUs usable:
 * usable_cores and usable_cpus follow; bound_cores and bound_cpus keep the launcher's binding.
 * Call before starting threads. For XML and synthetic topologies only the usable set changes.
 * @return 0, or -1 with a message in @p err (the binding is left as it was).
 */
int nprb_topo_widen(struct nprb_topo *topo, char *err, size_t errlen);

/** Binds the process back to the launcher's CPUs after nprb_topo_widen() (else does nothing). */
void nprb_topo_restore_binding(struct nprb_topo *topo);

/** The hwloc handle, for binding. Owned by @p topo. */
hwloc_topology_t nprb_topo_hwloc(const struct nprb_topo *topo);

int nprb_topo_node_count(const struct nprb_topo *topo);

/** Node by logical index 0..count-1 (ascending os index). */
const struct nprb_node_info *nprb_topo_node(const struct nprb_topo *topo, int index);

/** Logical index of the node with this os index, or -1. */
int nprb_topo_node_index(const struct nprb_topo *topo, unsigned os_index);

/**
 * One PU (os index) per usable core of node @p index, in core order: where to pin threads.
 * @return how many were written (at most @p max).
 */
int nprb_topo_node_pus(const struct nprb_topo *topo, int index, unsigned *pus, int max);

/** The PUs numaprobe runs threads on (os indexes). Owned by @p topo. */
hwloc_const_bitmap_t nprb_topo_usable(const struct nprb_topo *topo);

/** Logical index of the node PU @p pu (os index) is local to, or -1. */
int nprb_topo_pu_node(const struct nprb_topo *topo, unsigned pu);

/**
 * How CPUs of node @p from reach memory of node @p to, by logical index: NPRB_PAIR_LOCAL,
 * NPRB_PAIR_SAME_PACKAGE, NPRB_PAIR_CROSS_PACKAGE, or NPRB_PAIR_MEMORY_ONLY when @p to has no CPUs
 * of its own; NPRB_PAIR_UNKNOWN for an index the topology does not have. Its text for a row:
 * nprb_pair_class_name() (results/row_ids.h).
 */
enum nprb_pair_class nprb_topo_pair_class(const struct nprb_topo *topo, int from, int to);

/** Firmware (SLIT) distance between nodes by logical index; 0 when the firmware gave none. */
unsigned nprb_topo_distance(const struct nprb_topo *topo, int from, int to);

/**
 * ACPI HMAT figures from CPUs of node @p from to memory of node @p to (logical indexes), as hwloc
 * reads them: latency in ns, bandwidth in MiB/s; 0 where the platform publishes none.
 */
void nprb_topo_hmat(const struct nprb_topo *topo, int from, int to, uint64_t *latency_ns,
                    uint64_t *bandwidth_mibs);

const struct nprb_topo_summary *nprb_topo_summary(const struct nprb_topo *topo);

/** Whether the topology is this machine's (binding works) rather than XML or synthetic. */
bool nprb_topo_is_this_system(const struct nprb_topo *topo);

/**
 * Whether threads can be pinned and memory bound by @p topo here: hwloc calls it this system's
 * (HWLOC_XMLFILE, HWLOC_SYNTHETIC, HWLOC_FSROOT make it another's) and it agrees with the
 * kernel (every CPU this process may run on is a PU of it; its PUs and NUMA nodes exist in
 * sysfs), which catches a foreign XML file that HWLOC_THISSYSTEM=1 vouches for.
 * @return 0, or -1 with the reason and the HWLOC_* variables set in @p err.
 */
int nprb_topo_check_here(const struct nprb_topo *topo, char *err, size_t errlen);

/** --version's line for hwloc: the version built against and the API loaded at run time. */
void nprb_topo_print_version(FILE *out);

#endif
