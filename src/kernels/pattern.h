/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file pattern.h
 * Latency access patterns as users name them in configs: "random", "random_full", "stride:64",
 * "index_random".
 */
#ifndef NPRB_PATTERN_H
#define NPRB_PATTERN_H

#include <stddef.h>
#include <stdint.h>

enum nprb_pattern_kind {
    NPRB_PATTERN_RANDOM,      /**< dependent chase, random within TLB windows (multichase) */
    NPRB_PATTERN_RANDOM_FULL, /**< dependent chase, random over the whole working set */
    NPRB_PATTERN_STRIDE,      /**< dependent chase through consecutive slots stride bytes apart */
    NPRB_PATTERN_INDEX,       /**< independent loads data[idx[i]], idx a random permutation */
};

struct nprb_pattern {
    enum nprb_pattern_kind kind;
    uint64_t stride_bytes; /**< NPRB_PATTERN_STRIDE only */
    char name[24];         /**< canonical spelling, e.g. "stride:64" */
};

/**
 * Parses a pattern name. Strides take sizes ("stride:64", "stride:256B", "stride:1KiB") and must
 * be a positive multiple of 8 bytes (one pointer per slot).
 * @return 0, or -1 with what was expected in @p why.
 */
int nprb_pattern_parse(const char *text, struct nprb_pattern *pattern, char *why, size_t len);

#endif
