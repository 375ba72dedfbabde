/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file place.h
 * Placement: memory allocated under an explicit NUMA policy, and threads pinned to one PU with
 * the previous binding restored afterwards. The one place where numaprobe's policy enum is
 * mapped to Linux's mbind() modes.
 */
#ifndef NPRB_PLACE_H
#define NPRB_PLACE_H

#include "host/topo.h"
#include "results/row_ids.h" /* the policy and first-touch enums, which rows carry */
#include "util/names.h"

#include <hwloc.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** What page size to ask for every measurement buffer. */
enum nprb_thp_mode {
    NPRB_THP_SYSTEM,  /**< leave the system's THP policy alone (no madvise) */
    NPRB_THP_ON,      /**< madvise(MADV_HUGEPAGE) */
    NPRB_THP_OFF,     /**< madvise(MADV_NOHUGEPAGE): 4 KiB placement granularity */
    NPRB_THP_HUGETLB, /**< MAP_HUGETLB 2 MiB pages from the hugetlbfs pool; fails when empty */
};

/** "system", "on", "off", "hugetlb". */
const char *nprb_thp_name(enum nprb_thp_mode mode);

/**
 * Parses a page-size mode, ignoring case.
 * @return 0, or -1 with "expected one of system, on, off, hugetlb, got 'x'" in @p why.
 */
int nprb_thp_parse(const char *text, enum nprb_thp_mode *mode, char *why, size_t len);

/** The page-size modes' names, as nprb_thp_parse() reads them (the huge_pages key). */
extern const struct nprb_name_table nprb_thp_names;

/** Room in a buffer for its user's record of what it left there (a chain's walker). */
#define NPRB_BUFFER_CONTENT_BYTES 384

struct nprb_buffer {
    void *addr;     /**< start, 2 MiB aligned so huge pages can back it */
    size_t bytes;   /**< usable length */
    void *map_addr; /**< what mmap returned, for munmap */
    size_t map_bytes;
    size_t page_bytes; /**< base page of the mapping: 4 KiB, or 2 MiB for hugetlbfs */
    /* What the mapping was made for: the policy bound over it, and the key by which a kept one
     * is handed back only to a request of the same placement (nprb_buffer_keep_begin). */
    size_t capacity; /**< mapped and placed length from addr (>= bytes) */
    size_t touched;  /**< the most bytes handed out from addr so far (all touched by their user) */
    enum nprb_mem_policy policy;
    enum nprb_thp_mode thp;
    unsigned long node_mask[NPRB_MAX_NODES / (8 * sizeof(unsigned long))];
    /* What its user left in the mapping for a later user of the same key (a chain, and the
     * user's record of where it starts): building it again would cost as much as the
     * measurement. 0: nothing another user may count on (nprb_buffer_alloc_holding). */
    uint64_t content_key;
    _Alignas(8) unsigned char content[NPRB_BUFFER_CONTENT_BYTES];
};

/**
 * Maps @p bytes of anonymous memory, applies @p thp and the policy over @p nodes (os indexes).
 * NPRB_THP_HUGETLB takes 2 MiB pages from the hugetlbfs pool and fails (errno ENOMEM) when the
 * pool cannot serve the request: never a silent fallback to small pages.
 * Pages are not touched: the caller's first touch decides placement under NPRB_MEM_FIRST_TOUCH.
 * Refuses (NPRB_ERR_NOMEM-like -1, errno ENOMEM) when the nodes lack free memory, instead of
 * letting the OOM killer decide; the message names node, size and what is free. The pages of
 * mappings kept for reuse (nprb_buffer_keep_begin()) are free memory to this check: when the
 * nodes lack room without them, the kept mappings with pages there are unmapped first, so that
 * no buffer is refused, or spills to another node, for memory numaprobe holds itself.
 * @return 0, or -1 with a message in @p err.
 */
int nprb_buffer_alloc(struct nprb_buffer *buf, size_t bytes, enum nprb_mem_policy policy,
                      const unsigned *nodes, int node_count, enum nprb_thp_mode thp, char *err,
                      size_t errlen);

/**
 * As nprb_buffer_alloc(), but a kept mapping whose content_key is @p key (not 0) comes first:
 * then buf->content_key is @p key and the mapping still holds what its last user left, at the
 * same addresses, bound to the same nodes. Otherwise buf->content_key is 0 and the caller builds
 * its content, and sets content_key (and content) before nprb_buffer_free() to offer it again.
 * Plain nprb_buffer_alloc() takes a mapping holding content only when no other fits, and clears
 * its key, since its user may overwrite it.
 */
int nprb_buffer_alloc_holding(struct nprb_buffer *buf, uint64_t key, size_t bytes,
                              enum nprb_mem_policy policy, const unsigned *nodes, int node_count,
                              enum nprb_thp_mode thp, char *err, size_t errlen);

/** Unmaps the buffer, or keeps its mapping for the next request between the calls below. */
void nprb_buffer_free(struct nprb_buffer *buf);

/**
 * A sweep's buffers mapped and first touched once, not once per point. Until
 * nprb_buffer_keep_end(), nprb_buffer_free() keeps up to four mappings instead of unmapping
 * them, and nprb_buffer_alloc() hands a kept one back to a request of the same policy, nodes
 * and page mode that fits in it; new mappings are made @p capacity bytes long (the sweep's
 * largest request; pages never touched cost nothing). A sweep taken in ascending size then pays
 * the page faults of its largest point once, where it paid those of every point (the sum of a
 * geometric series of sizes, twice to three times the largest, per pattern or kernel); a
 * 1 GiB quick.yaml sweep on a machine that faults pages in at 0.3 GB/s spent most of its time
 * there. The pages a point uses were placed by the same policy as fresh ones would be, and its
 * census reads them back as before; smaps' huge-page count stays the point's own as long as the
 * sizes ascend (a kept mapping is never touched beyond the largest point so far).
 * Not for hugetlbfs pages (reserved whole at mmap), nor where fresh pages are what is measured
 * (first touch, balancing, page sizes): only the experiments whose descriptor says keeps_buffers
 * (the sweeps, bandwidth_matrix, thread_scaling and loaded_latency) call it. First-touch
 * mappings are never kept (their key does not say who touched them). A kept mapping stays only
 * as long as no request of another placement needs its room (nprb_buffer_alloc()).
 */
void nprb_buffer_keep_begin(size_t capacity);

/** Unmaps every kept mapping and ends keeping. */
void nprb_buffer_keep_end(void);

/**
 * How fast this host hands out new memory: @p bytes mapped with @p thp (hugetlbfs pages are
 * taken as the system's default), first touched by one thread (nprb_populate(), then stores), in
 * bytes per second; 0 when the memory cannot be had. Page faults cost from a few GB/s on bare metal
 * to a tenth of that in some virtual machines, and every measurement's setup pays them: the time
 * estimate measures them rather than assuming.
 */
double nprb_first_touch_bps(size_t bytes, enum nprb_thp_mode thp);

/** Free 2 MiB pages of node @p node's hugetlbfs pool (0 when unreadable). */
uint64_t nprb_node_free_hugepages(unsigned node);

/**
 * Binds [addr, addr + bytes) (page-aligned, untouched) to node @p node with MPOL_BIND: explicit
 * placement of one thread's part of a buffer. @return 0, or -1 with errno.
 */
int nprb_bind_range(void *addr, size_t bytes, unsigned node);

/** Fraction of the buffer backed by transparent huge pages (from /proc/self/smaps), or -1. */
double nprb_buffer_huge_fraction(const struct nprb_buffer *buf);

/** Free memory on a node in bytes (MemFree plus reclaimable file pages), or 0 when unknown. */
uint64_t nprb_node_free_bytes(unsigned node);

/** MemFree of a node in bytes, what `numactl --hardware` calls free; 0 when unknown. */
uint64_t nprb_node_memfree_bytes(unsigned node);

/** A thread's binding, saved by nprb_pin_thread() and put back by nprb_unpin_thread(). */
struct nprb_pin {
    hwloc_topology_t hw;
    hwloc_bitmap_t saved;
    unsigned pu;
};

/** Binds the calling thread to PU @p pu (os index), saving its binding. @return 0 or -1/errno. */
int nprb_pin_thread(struct nprb_pin *pin, hwloc_topology_t hw, unsigned pu);

/** Whether the calling thread is running on the PU it was pinned to (sched_getcpu). */
bool nprb_pin_holds(const struct nprb_pin *pin);

/** Restores the binding saved by nprb_pin_thread(). */
void nprb_unpin_thread(struct nprb_pin *pin);

#define NPRB_MAX_CPUS 4096

/** The CPUs a measurement's threads were found on (a set, filled from any thread). */
struct nprb_cpus_seen {
    uint64_t bits[NPRB_MAX_CPUS / 64];
};

/** Adds the CPU the calling thread runs on now (sched_getcpu); thread-safe. */
void nprb_cpus_seen_here(struct nprb_cpus_seen *seen);

/**
 * Writes the set as a Linux cpulist ("0-3,8,10-11"); a list longer than @p len ends in "...".
 * An empty set writes "".
 */
void nprb_cpus_seen_format(const struct nprb_cpus_seen *seen, char *buf, size_t len);

#endif
