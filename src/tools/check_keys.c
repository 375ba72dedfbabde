/* SPDX-License-Identifier: BSD-3-Clause */
/* The (rank, measurement) index of numaprobe check: a sorted array searched by bisection. */
#include "tools/check_keys.h"

#include <stdlib.h>

int nprb_check_keys_add(struct nprb_check_keys *k, struct nprb_check_key key)
{
    if (k->count == k->capacity) {
        size_t capacity = k->capacity ? 2 * k->capacity : 256;
        struct nprb_check_key *items = realloc(k->items, capacity * sizeof *items);
        if (items == NULL)
            return -1;
        k->items = items;
        k->capacity = capacity;
    }
    k->items[k->count++] = key;
    return 0;
}

static int by_key(const void *a, const void *b)
{
    const struct nprb_check_key *x = a, *y = b;
    if (x->rank != y->rank)
        return (x->rank > y->rank) - (x->rank < y->rank);
    if (x->measurement != y->measurement)
        return (x->measurement > y->measurement) - (x->measurement < y->measurement);
    return (x->table > y->table) - (x->table < y->table);
}

void nprb_check_keys_sort(struct nprb_check_keys *k)
{
    if (k->count > 0) /* an empty table leaves items NULL, which qsort must not see */
        qsort(k->items, k->count, sizeof *k->items, by_key);
}

const struct nprb_check_key *nprb_check_keys_find(const struct nprb_check_keys *k, int32_t rank,
                                                  int32_t measurement)
{
    struct nprb_check_key probe = {.rank = rank, .measurement = measurement, .table = -1};
    size_t lo = 0, hi = k->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (by_key(&k->items[mid], &probe) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < k->count && k->items[lo].rank == rank && k->items[lo].measurement == measurement
               ? &k->items[lo]
               : NULL;
}
