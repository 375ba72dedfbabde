/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file check_hosts.h
 * What numaprobe check keeps of /hosts once a row is checked (the few columns the checks over
 * the whole table and the other tables read: a 100,000-host file's rows are 230 MB), and the
 * searches over those rows, sorted by rank.
 */
#ifndef NPRB_CHECK_HOSTS_H
#define NPRB_CHECK_HOSTS_H

#include "results/results.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** A checked /hosts row, as far as check reads it again. */
struct nprb_check_host {
    int32_t rank, host_index, ranks_on_host, numa_nodes;
    char status[sizeof((struct nprb_host_row *)0)->status];
};

/** qsort() order of struct nprb_check_host: by rank. */
int nprb_check_host_by_rank(const void *a, const void *b);

/** Index of @p rank's row in @p hosts (@p n rows sorted by rank), or -1. */
long nprb_check_host_find(const struct nprb_check_host *hosts, size_t n, int32_t rank);

/** Ranks 0..@p world_size-1 without a row, as "3,7" (what merge writes in ranks_missing), cut
 * to @p len bytes. */
void nprb_check_missing_ranks(const struct nprb_check_host *hosts, size_t n, int64_t world_size,
                              char *buf, size_t len);

/** Whether @p listed names exactly the ranks nprb_check_missing_ranks() finds, in order, however
 * many. */
bool nprb_check_lists_missing(const struct nprb_check_host *hosts, size_t n, int64_t world_size,
                              const char *listed);

/** How many of the sorted @p v equal @p x. */
size_t nprb_check_count_equal(const int32_t *v, size_t n, int32_t x);

#endif
