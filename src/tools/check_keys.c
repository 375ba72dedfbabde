/* SPDX-License-Identifier: BSD-3-Clause */
/* The (rank, measurement) index of numaprobe check: a sorted array searched by bisection. */
#include "tools/check_keys.h"

#include <stdlib.h>
#include <string.h>

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

/* End of the sorted run of @p v that starts at @p from. */
static size_t run_end(const struct nprb_check_key *v, size_t from, size_t n)
{
    size_t i = from + 1;
    while (i < n && by_key(&v[i - 1], &v[i]) <= 0)
        i++;
    return i;
}

enum { MERGED_RUNS = 64 }; /* more runs than this: keys not in table order, qsort them */

void nprb_check_keys_sort(struct nprb_check_keys *k)
{
    /* Each table's rows come in rank and measurement order, so the keys are a few sorted runs,
     * one per table: merged in a few linear passes, where qsort on millions of keys would compare
     * each of them twenty times over. */
    size_t n = k->count, runs = n > 0;
    for (size_t i = 1; i < n; i++)
        runs += by_key(&k->items[i - 1], &k->items[i]) > 0;
    if (runs <= 1)
        return;
    struct nprb_check_key *tmp = runs <= MERGED_RUNS ? malloc(n * sizeof *tmp) : NULL;
    if (tmp == NULL) {
        qsort(k->items, n, sizeof *k->items, by_key);
        return;
    }
    struct nprb_check_key *src = k->items, *dst = tmp;
    while (runs > 1) {
        runs = 0;
        for (size_t a = 0; a < n; runs++) {
            size_t b = run_end(src, a, n), e = b < n ? run_end(src, b, n) : n;
            size_t i = a, j = b, o = a;
            while (i < b && j < e)
                dst[o++] = by_key(&src[j], &src[i]) < 0 ? src[j++] : src[i++];
            while (i < b)
                dst[o++] = src[i++];
            while (j < e)
                dst[o++] = src[j++];
            a = e;
        }
        struct nprb_check_key *t = src;
        src = dst;
        dst = t;
    }
    if (src != k->items)
        memcpy(k->items, src, n * sizeof *src);
    free(tmp);
}

struct nprb_check_key *nprb_check_keys_find(const struct nprb_check_keys *k, int32_t rank,
                                            int32_t measurement)
{
    struct nprb_check_key probe = {.rank = rank, .measurement = measurement, .table = 0};
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

void nprb_check_keys_place(const struct nprb_check_keys *k, struct nprb_check_key *first)
{
    for (struct nprb_check_key *key = first;
         key < k->items + k->count && key->rank == first->rank &&
         key->measurement == first->measurement;
         key++)
        key->placed = true;
}
