/* SPDX-License-Identifier: BSD-3-Clause */
/* check's key index sorts by rank, measurement and table whatever order the keys came in: a few
 * sorted runs (one per table, the usual case, merged) or many (qsorted), and every key is kept. */
#include "../unit/check.h"
#include "tools/check_keys.h"

#include <stdint.h>
#include <stdlib.h>

static bool sorted(const struct nprb_check_keys *k)
{
    for (size_t i = 1; i < k->count; i++) {
        const struct nprb_check_key *a = &k->items[i - 1], *b = &k->items[i];
        if (a->rank != b->rank                 ? a->rank > b->rank
            : a->measurement != b->measurement ? a->measurement > b->measurement
                                               : a->table > b->table)
            return false;
    }
    return true;
}

/* @p runs tables of @p per keys, each in its own order; measurement ids shared between tables
 * and repeated within one (a balancing series), as files have them. */
static void fill(struct nprb_check_keys *k, int runs, int per, unsigned seed)
{
    for (int t = 0; t < runs; t++)
        for (int i = 0; i < per; i++) {
            seed = seed * 1103515245u + 12345u;
            /* Ten keys a rank, measurement ids rising by 0, 1 or 2 within it. */
            struct nprb_check_key key = {.rank = i / 10, .table = t, .row = (size_t)i};
            if (i % 10 != 0)
                key.measurement = k->items[k->count - 1].measurement + (int32_t)(seed >> 28) % 3;
            CHECK(nprb_check_keys_add(k, key) == 0);
        }
}

static void sorts(int runs, int per, bool shuffle)
{
    struct nprb_check_keys k = {0};
    fill(&k, runs, per, (unsigned)(runs * 7919 + per));
    unsigned seed = 7;
    if (shuffle)
        for (size_t i = k.count; i > 1; i--) {
            seed = seed * 1103515245u + 12345u; /* a fixed order: the test repeats itself */
            size_t j = (size_t)(seed >> 8) % i;
            struct nprb_check_key t = k.items[i - 1];
            k.items[i - 1] = k.items[j];
            k.items[j] = t;
        }
    /* Every row number once: the sort loses and duplicates nothing. */
    size_t count = k.count, *seen = calloc(count ? count * (size_t)runs : 1, sizeof *seen);
    nprb_check_keys_sort(&k);
    CHECK(k.count == count);
    CHECK(sorted(&k));
    for (size_t i = 0; seen != NULL && i < k.count; i++)
        seen[(size_t)k.items[i].table * (size_t)per + k.items[i].row]++;
    for (size_t i = 0; seen != NULL && i < count; i++)
        CHECK(seen[i] == 1);
    if (k.count > 0)
        CHECK(nprb_check_keys_find(&k, k.items[k.count / 2].rank,
                                   k.items[k.count / 2].measurement) != NULL);
    free(seen);
    free(k.items);
}

int main(void)
{
    sorts(1, 0, false);    /* empty */
    sorts(1, 1000, false); /* already sorted */
    sorts(4, 1000, false); /* one run per table: merged */
    sorts(5, 333, false);  /* an odd number of runs */
    sorts(3, 2000, true);  /* thousands of runs: qsorted */
    return CHECK_DONE();
}
