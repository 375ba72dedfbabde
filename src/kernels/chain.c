/* SPDX-License-Identifier: BSD-3-Clause */
#include "kernels/chain.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

uint64_t nprb_random_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A uniform pick in [0, bound) by multiply-and-shift: no division in the shuffle loop, and the
 * bias (bound / 2^64) is far below anything a latency figure can show. */
static uint32_t pick_below(uint64_t *state, uint32_t bound)
{
    return (uint32_t)(((unsigned __int128)nprb_random_next(state) * bound) >> 64);
}

/* Where in its slot a random chain keeps slot k's pointer. At the start of every slot, 256-byte
 * slots would use one cache set in four, quartering the caches the chain can live in (a 4 MiB
 * chain then misses a 32 MiB L3). A line chosen at random per slot is no better: sets then get
 * uneven numbers of lines, the lightly loaded ones keep theirs in L1 and a chain twice the size
 * of L1 reads 10% fast. So the line rotates with each 4 KiB page: every four pages of 256-byte
 * slots use every set exactly once (multichase's "mixer" balances its offsets the same way). */
static size_t slot_offset(size_t k, size_t slot_bytes)
{
    if (slot_bytes < 128 || slot_bytes % 64 != 0)
        return 0;
    return (k * slot_bytes / 4096) % (slot_bytes / 64) * 64;
}

static char *slot_pointer(char *base, size_t k, size_t slot_bytes, bool spread)
{
    return base + k * slot_bytes + (spread ? slot_offset(k, slot_bytes) : 0);
}

static bool valid_geometry(size_t bytes, size_t slot_bytes, size_t *slots)
{
    if (slot_bytes < sizeof(void *) || slot_bytes % sizeof(void *) != 0)
        return false;
    *slots = bytes / slot_bytes;
    return *slots >= 2 && *slots <= UINT32_MAX;
}

static void shuffle(uint32_t *a, size_t n, uint64_t *state)
{
    for (size_t i = n; i > 1; i--) {
        uint32_t j = pick_below(state, (uint32_t)i);
        uint32_t t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

void **nprb_chain_build_random(void *buf, size_t bytes, size_t slot_bytes, size_t window_bytes,
                               uint64_t seed)
{
    size_t n;
    if (!valid_geometry(bytes, slot_bytes, &n)) {
        errno = EINVAL;
        return NULL;
    }
    size_t per_window = window_bytes / slot_bytes;
    if (per_window == 0 || per_window > n)
        per_window = n;
    size_t windows = (n + per_window - 1) / per_window;
    uint32_t *order = malloc(n * sizeof *order);
    uint32_t *window_order = malloc(windows * sizeof *window_order);
    if (order == NULL || window_order == NULL) {
        free(order);
        free(window_order);
        errno = ENOMEM;
        return NULL;
    }
    /* Visit order: the windows in random order, and within each window its slots in random
     * order. Linking that sequence into a ring gives one cycle over every slot by construction;
     * a chain of several short cycles would let the chase stay in cache and under-report. */
    uint64_t state = seed;
    for (size_t i = 0; i < n; i++)
        order[i] = (uint32_t)i;
    for (size_t first = 0; first < n; first += per_window)
        shuffle(order + first, first + per_window <= n ? per_window : n - first, &state);
    for (size_t w = 0; w < windows; w++)
        window_order[w] = (uint32_t)w;
    shuffle(window_order, windows, &state);

    char *base = buf;
    void **head = NULL, **prev = NULL;
    for (size_t w = 0; w < windows; w++) {
        size_t first = (size_t)window_order[w] * per_window;
        size_t count = first + per_window <= n ? per_window : n - first;
        for (size_t i = first; i < first + count; i++) {
            void **slot = (void **)slot_pointer(base, order[i], slot_bytes, true);
            if (prev != NULL)
                *prev = slot;
            else
                head = slot;
            prev = slot;
        }
    }
    if (prev != NULL) /* always: valid_geometry() guarantees 2 or more slots */
        *prev = head;
    free(order);
    free(window_order);
    return head;
}

int nprb_chain_check_permutation(void *buf, size_t bytes, size_t slot_bytes, bool spread)
{
    size_t n;
    if (!valid_geometry(bytes, slot_bytes, &n)) {
        errno = EINVAL;
        return -1;
    }
    uint64_t *seen = calloc((n + 63) / 64, sizeof *seen);
    if (seen == NULL) {
        errno = ENOMEM;
        return -1;
    }
    char *base = buf;
    int rc = 0;
    for (size_t k = 0; k < n && rc == 0; k++) {
        char *next = *(char **)slot_pointer(base, k, slot_bytes, spread);
        size_t t = next >= base ? (size_t)(next - base) / slot_bytes : n;
        if (t >= n || next != slot_pointer(base, t, slot_bytes, spread)) {
            rc = -1;
            break;
        }
        if (seen[t / 64] & (1ULL << (t % 64)))
            rc = -1;
        seen[t / 64] |= 1ULL << (t % 64);
    }
    free(seen);
    if (rc != 0)
        errno = EINVAL;
    return rc;
}

int nprb_chain_check_cycle(void *buf, size_t bytes, size_t slot_bytes, bool spread, void **head)
{
    size_t n;
    if (!valid_geometry(bytes, slot_bytes, &n) ||
        nprb_chain_check_permutation(buf, bytes, slot_bytes, spread) != 0) {
        errno = EINVAL;
        return -1;
    }
    /* With a permutation, coming back to the head after exactly n steps (and not before) means
     * the cycle through the head covers every slot. */
    void **p = head;
    for (size_t step = 1; step <= n; step++) {
        p = (void **)*p;
        if (p == head) {
            if (step == n)
                return 0;
            break;
        }
    }
    errno = EINVAL;
    return -1;
}

void **nprb_chain_build_sequential(void *buf, size_t bytes, size_t slot_bytes)
{
    size_t n;
    if (!valid_geometry(bytes, slot_bytes, &n)) {
        errno = EINVAL;
        return NULL;
    }
    char *base = buf;
    for (size_t k = 0; k < n; k++)
        *(void **)(base + k * slot_bytes) = base + ((k + 1) % n) * slot_bytes;
    return (void **)base;
}
