/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file check_keys.h
 * The (rank, measurement) index of numaprobe check: every measurement row's key is kept, so that
 * /placement and /numastat rows can be matched to the measurement they describe, ids used twice
 * found, and ok rows without placement named. Only these keys stay in memory, not the rows: 16
 * bytes a row, some 20 million of them at 100,000 hosts.
 */
#ifndef NPRB_CHECK_KEYS_H
#define NPRB_CHECK_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** A measurement row's join key, and where it came from. */
struct nprb_check_key {
    int32_t rank, measurement;
    uint32_t row;  /**< its row in its table (check refuses a larger measurement table) */
    uint8_t table; /**< enum nprb_table_id of the row's table */
    bool ok;       /**< the row's status is ok */
    bool placed;   /**< a /placement row describes the measurement */
};

/** A growing list of keys; zero-initialised is empty. Free items with free(). */
struct nprb_check_keys {
    size_t count, capacity;
    struct nprb_check_key *items;
};

/** Appends @p key. @return 0, or -1 when memory ran out (the list is unchanged). */
int nprb_check_keys_add(struct nprb_check_keys *keys, struct nprb_check_key key);

/** Sorts by rank, measurement, table: needed before nprb_check_keys_find(). */
void nprb_check_keys_sort(struct nprb_check_keys *keys);

/** The first key of (@p rank, @p measurement) in a sorted list, or NULL. */
struct nprb_check_key *nprb_check_keys_find(const struct nprb_check_keys *keys, int32_t rank,
                                            int32_t measurement);

/** Marks placed every key of @p first's (rank, measurement), @p first one of @p keys (sorted). */
void nprb_check_keys_place(const struct nprb_check_keys *keys, struct nprb_check_key *first);

#endif
