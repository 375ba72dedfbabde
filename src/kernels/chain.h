/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file chain.h
 * Pointer chains for the latency chase: memory cut into slots, the first word of each slot
 * holding the address of the next slot to visit.
 */
#ifndef NPRB_CHAIN_H
#define NPRB_CHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * Links every slot of @p buf (@p bytes long, @p slot_bytes per slot, a multiple of
 * sizeof(void *)) into one random cycle. Slots of 128 bytes or more keep their pointer in a cache
 * line of the slot that rotates from one 4 KiB page to the next (so the chain uses every cache
 * set, evenly). With
 * @p window_bytes > 0 the chain is random within windows of that size and visits the windows in
 * random order (multichase's TLB-locality knob): a window of a few pages keeps TLB misses rare, so
 * the figure is memory latency rather than memory plus page walk. 0 means one window: every load
 * may miss the TLB.
 * @p seed makes the chain repeatable. Needs 4 bytes of scratch per slot, allocated and freed here.
 * @return the slot the cycle starts at, or NULL with errno = ENOMEM (scratch) or EINVAL (bad
 * sizes, fewer than 2 or more than 2^32 slots).
 */
void **nprb_chain_build_random(void *buf, size_t bytes, size_t slot_bytes, size_t window_bytes,
                               uint64_t seed);

/**
 * Cheap integrity check for any chain size: every link points at the start of a slot of the
 * buffer and every slot is pointed at exactly once (so the links form a permutation).
 * One sequential pass plus a bitmap of one bit per slot. @p spread: the chain was built by
 * nprb_chain_build_random() (pointers at hashed lines of their slots); false for sequential.
 * @return 0 when sound, -1 otherwise (errno = EINVAL, or ENOMEM for the bitmap).
 */
int nprb_chain_check_permutation(void *buf, size_t bytes, size_t slot_bytes, bool spread);

/**
 * Full integrity check: walks the chain from @p head and confirms it visits every slot exactly
 * once before coming back. O(slots) dependent loads: meant for tests and small chains.
 * @return 0 when the chain is one cycle over all slots, -1 otherwise.
 */
int nprb_chain_check_cycle(void *buf, size_t bytes, size_t slot_bytes, bool spread, void **head);

/** splitmix64: the generator behind every random choice, so chains repeat across builds. */
uint64_t nprb_random_next(uint64_t *state);

/**
 * Links the slots of @p buf in address order, each to the next and the last back to the first:
 * a sequential chase with a stride of @p slot_bytes (lmbench's lat_mem_rd and the textbook
 * stride tables). @return the first slot, or NULL with errno = EINVAL.
 */
void **nprb_chain_build_sequential(void *buf, size_t bytes, size_t slot_bytes);

#endif
