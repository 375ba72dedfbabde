/* SPDX-License-Identifier: BSD-3-Clause */
/* Which CPU pairs c2c_latency takes, and what each pair shares, on synthetic hosts whose PUs
 * are numbered in order: 2 packages x 2 nodes x 2 L3 x 2 cores x 2 PUs (PUs 0-1 a core, 0-3 an
 * L3, 0-7 a node, 0-15 a package), one with L2s shared by two cores, and one whose L3s are split
 * among two nodes each. */
#include "check.h"
#include "host/core_pairs.h"

#include <stdlib.h>

static struct nprb_topo *synthetic(const char *description)
{
    struct nprb_topo *t = NULL;
    char err[256];
    if (nprb_topo_create_synthetic(&t, description, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", description, err);
        check_failures++;
        return NULL;
    }
    return t;
}

static const struct nprb_core_pair *find(const struct nprb_core_pair *p, size_t n, unsigned a,
                                         unsigned b)
{
    for (size_t i = 0; i < n; i++)
        if (p[i].pu_a == a && p[i].pu_b == b)
            return &p[i];
    return NULL;
}

static size_t count_class(const struct nprb_core_pair *p, size_t n, enum nprb_core_class cls)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        count += p[i].cls == cls;
    return count;
}

static void check_classes(struct nprb_topo *t)
{
    CHECK(nprb_core_pair_class(t, 0, 1) == NPRB_CORE_SMT);
    CHECK(nprb_core_pair_class(t, 0, 2) == NPRB_CORE_SAME_L3);
    CHECK(nprb_core_pair_class(t, 0, 4) == NPRB_CORE_SAME_NODE);
    CHECK(nprb_core_pair_class(t, 0, 8) == NPRB_CORE_SAME_PACKAGE);
    CHECK(nprb_core_pair_class(t, 0, 16) == NPRB_CORE_CROSS_PACKAGE);
    CHECK(nprb_core_pair_class(t, 31, 16) == NPRB_CORE_SAME_PACKAGE);
    CHECK(nprb_core_pair_class(t, 31, 24) == NPRB_CORE_SAME_NODE);
}

static void check_per_node(struct nprb_topo *t)
{
    struct nprb_core_pair p[64];
    size_t n = nprb_core_pairs_list(t, NPRB_CORE_PAIRS_PER_NODE, p, 64);
    CHECK(n == 4 + 6); /* a second core in each node, then every two nodes */
    CHECK(nprb_core_pairs_list(t, NPRB_CORE_PAIRS_PER_NODE, NULL, 0) == n);
    CHECK(find(p, n, 0, 2) && find(p, n, 24, 26));
    CHECK(find(p, n, 0, 8) && find(p, n, 16, 24) && find(p, n, 8, 24));
    CHECK(count_class(p, n, NPRB_CORE_SAME_L3) == 4);
    CHECK(count_class(p, n, NPRB_CORE_SAME_PACKAGE) == 2);
    CHECK(count_class(p, n, NPRB_CORE_CROSS_PACKAGE) == 4);
    for (size_t i = 0; i < n; i++)
        CHECK(p[i].pu_a < p[i].pu_b);
}

static void check_per_cache(struct nprb_topo *t)
{
    struct nprb_core_pair p[64];
    size_t n = nprb_core_pairs_list(t, NPRB_CORE_PAIRS_PER_CACHE, p, 64);
    CHECK(n == 1 + 8 + 28); /* an SMT pair, a second core per L3, every two L3s */
    CHECK(n > 0 && p[0].pu_a == 0 && p[0].pu_b == 1 && p[0].cls == NPRB_CORE_SMT);
    CHECK(count_class(p, n, NPRB_CORE_SAME_L3) == 8);
    CHECK(count_class(p, n, NPRB_CORE_SAME_NODE) == 4);      /* the two L3s of each node */
    CHECK(count_class(p, n, NPRB_CORE_SAME_PACKAGE) == 8);   /* 2 x 2 L3s per package */
    CHECK(count_class(p, n, NPRB_CORE_CROSS_PACKAGE) == 16); /* 4 x 4 */
    /* A list too short for them all: filled, and the count says how many there are. */
    struct nprb_core_pair few[5];
    CHECK(nprb_core_pairs_list(t, NPRB_CORE_PAIRS_PER_CACHE, few, 5) == n);
    CHECK(few[4].pu_a == p[4].pu_a && few[4].pu_b == p[4].pu_b);
}

static void check_all(struct nprb_topo *t)
{
    size_t n = nprb_core_pairs_list(t, NPRB_CORE_PAIRS_ALL, NULL, 0);
    CHECK(n == 32 * 31 / 2);
    struct nprb_core_pair *p = calloc(n, sizeof *p);
    CHECK(p != NULL);
    if (p == NULL)
        return;
    nprb_core_pairs_list(t, NPRB_CORE_PAIRS_ALL, p, n);
    CHECK(count_class(p, n, NPRB_CORE_SMT) == 16);
    CHECK(count_class(p, n, NPRB_CORE_CROSS_PACKAGE) == 16 * 16);
    free(p);
}

static void check_l2(void)
{
    struct nprb_topo *t = synthetic("pack:1 numa:1 l3:1 l2:2 core:2 pu:1");
    if (t == NULL)
        return;
    CHECK(nprb_core_pair_class(t, 0, 1) == NPRB_CORE_SAME_L2);
    CHECK(nprb_core_pair_class(t, 0, 2) == NPRB_CORE_SAME_L3);
    struct nprb_core_pair p[8];
    /* No L3 of its own per pair of L2s: per_cache groups by the L3, one for the host. */
    CHECK(nprb_core_pairs_list(t, NPRB_CORE_PAIRS_PER_CACHE, p, 8) == 1);
    CHECK(p[0].pu_a == 0 && p[0].pu_b == 1 && p[0].cls == NPRB_CORE_SAME_L2);
    nprb_topo_destroy(t);
}

/* An L3 split among two nodes (sub-NUMA clusters): the nodes, not the cache, class the pairs, and
 * per_cache falls back to one representative per node. */
static void check_split_l3(void)
{
    struct nprb_topo *t = synthetic("pack:2 l3:1 numa:2 core:2 pu:1");
    if (t == NULL)
        return;
    CHECK(nprb_core_pair_class(t, 0, 1) == NPRB_CORE_SAME_NODE);
    CHECK(nprb_core_pair_class(t, 0, 2) == NPRB_CORE_SAME_PACKAGE);
    CHECK(nprb_core_pair_class(t, 0, 4) == NPRB_CORE_CROSS_PACKAGE);
    struct nprb_core_pair p[16];
    CHECK(nprb_core_pairs_list(t, NPRB_CORE_PAIRS_PER_CACHE, p, 16) == 4 + 6);
    CHECK(count_class(p, 10, NPRB_CORE_SAME_NODE) == 4);
    nprb_topo_destroy(t);
}

static void check_names(void)
{
    enum nprb_core_pairs pairs;
    char why[128] = "";
    CHECK(nprb_core_pairs_parse("per_cache", &pairs, why, sizeof why) == 0 &&
          pairs == NPRB_CORE_PAIRS_PER_CACHE);
    CHECK(nprb_core_pairs_parse("per_core", &pairs, why, sizeof why) == -1);
    CHECK_STR_CONTAINS(why, "per_node");
    for (int c = 0; c < NPRB_N_CORE_CLASSES; c++)
        CHECK((int)nprb_core_class_parse(nprb_core_class_name((enum nprb_core_class)c)) == c);
    CHECK(nprb_core_class_parse("local") == NPRB_N_CORE_CLASSES);
}

int main(void)
{
    struct nprb_topo *t = synthetic("pack:2 numa:2 l3:2 core:2 pu:2");
    if (t != NULL) {
        check_classes(t);
        check_per_node(t);
        check_per_cache(t);
        check_all(t);
        nprb_topo_destroy(t);
    }
    check_l2();
    check_split_l3();
    check_names();
    return CHECK_DONE();
}
