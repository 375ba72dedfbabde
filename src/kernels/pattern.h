/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file pattern.h
 * Latency access patterns, one row each of a table (like multichase's chases[]): the name users
 * give in configs ("random", "random_full", "index_random", "stride:64"), the slot spacing, how
 * the buffer is prepared and how one timed walk goes through it.
 */
#ifndef NPRB_PATTERN_H
#define NPRB_PATTERN_H

#include "kernels/chase.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum nprb_pattern_kind {
    NPRB_PATTERN_RANDOM,      /**< dependent chase, random within TLB windows (multichase) */
    NPRB_PATTERN_RANDOM_FULL, /**< dependent chase, random over the whole working set */
    NPRB_PATTERN_STRIDE,      /**< dependent chase through consecutive slots stride bytes apart */
    NPRB_PATTERN_INDEX,       /**< independent loads data[idx[i]], idx a random permutation */
    NPRB_PATTERN_PARALLEL,    /**< N random chases interleaved in one thread (multichase's
                                   parallelN): memory-level parallelism */
};

/** What a pattern's name takes after a colon. */
enum nprb_pattern_arg {
    NPRB_PATTERN_ARG_NONE,
    NPRB_PATTERN_ARG_BYTES, /**< "stride:64": the stride, a size */
    NPRB_PATTERN_ARG_COUNT, /**< "parallel:4": the chains, 1 to NPRB_CHASE_MAX_CHAINS */
};

/** Where a walk is: the chase's position, or the index read's arrays and its last sum. */
struct nprb_walker {
    void *position;                     /**< chase: the next slot; NULL for index reads */
    void *heads[NPRB_CHASE_MAX_CHAINS]; /**< parallel chases: each chain's next slot */
    unsigned chains;
    const double *data;
    const uint32_t *index;
    size_t elements;
    double last_sum; /**< index reads: every element is 1.0, so the sum is the step count */
    uint64_t last_steps;
    uint64_t phase_state;                         /**< parallel chases: draws their phases */
    uint64_t window_slots[NPRB_CHASE_MAX_CHAINS]; /**< parallel chases: slots per window of
                                                       each chain; 0: one window, its share */
};

/** What a pattern's build gets: the (faulted-in) buffers and the chain's parameters. */
struct nprb_walk_setup {
    void *data;
    size_t bytes;
    uint32_t *index; /**< bytes / 8 entries, for patterns with indexed set */
    uint64_t slot_bytes;
    uint64_t window_bytes; /**< random within windows of this size (windowed patterns); 0: all */
    uint64_t seed;
    unsigned chains; /**< parallel chases: how many */
};

struct nprb_pattern_desc {
    const char *name;    /**< as in configs; its argument, if it takes one, after a colon */
    uint64_t slot_bytes; /**< spacing of the chain's slots; 0: the stride */
    enum nprb_pattern_arg arg;
    /** Prepares the buffer(s) and @p w. @return 0, or -1 with errno. */
    int (*build)(struct nprb_walker *w, const struct nprb_walk_setup *setup);
    /** Makes about @p steps accesses from where @p w is. @return how many it made. */
    uint64_t (*walk)(struct nprb_walker *w, uint64_t steps);
    /** Called before each timed sample, outside it, where not NULL: see build_parallel(). */
    void (*between_samples)(struct nprb_walker *w);
    /** Where not NULL, one build serves every count of chains: lays a built buffer, left as
     * @p w says, out for @p setup's count instead of building it again. @return 0 or -1/errno. */
    int (*relink)(struct nprb_walker *w, const struct nprb_walk_setup *setup);
    enum nprb_pattern_kind kind;
    bool windowed; /**< honours the TLB window */
    bool indexed;  /**< reads through an index of 4-byte entries, one per 8-byte element */
    bool spread;   /**< a random chain: its slots are checked as one cycle over the set */
};

struct nprb_pattern {
    enum nprb_pattern_kind kind;
    const struct nprb_pattern_desc *desc; /**< its row of the table */
    uint64_t stride_bytes;                /**< NPRB_PATTERN_STRIDE only */
    unsigned chains;                      /**< chains walked at once: 1 but for parallel:N */
    char name[24];                        /**< canonical spelling, e.g. "stride:64" */
};

/**
 * Parses a pattern name. Strides take sizes ("stride:64", "stride:256B", "stride:1KiB") and must
 * be a positive multiple of 8 bytes (one pointer per slot); parallel chases take their count of
 * chains ("parallel:4").
 * @return 0, or -1 with what was expected in @p why.
 */
int nprb_pattern_parse(const char *text, struct nprb_pattern *pattern, char *why, size_t len);

/**
 * The pattern of @p kind with its argument as a number, as nprb_pattern_parse() makes it of
 * "NAME:VALUE" (stride: bytes, parallel: chains), for a planner that has the number: it is
 * carried as one, never written out and read back.
 * @return 0, or -1 with what was expected in @p why (out of range, a kind that takes none).
 */
int nprb_pattern_with_arg(enum nprb_pattern_kind kind, uint64_t value, struct nprb_pattern *pattern,
                          char *why, size_t len);

/** Slot spacing of a pattern: 256 B for random chases, the stride for stride chases. */
uint64_t nprb_pattern_slot_bytes(const struct nprb_pattern *pattern);

#endif
