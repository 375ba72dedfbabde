/* SPDX-License-Identifier: BSD-3-Clause */
/* The binding step's rules without MPI: how a host's CPU nodes are shared out among its ranks,
 * and what widening does to a topology's usable CPUs (synthetic: no process is rebound). */
#include "host/binding.h"
#include "check.h"
#include "plan/plan.h"
#include "host/topo.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { WORDS = NPRB_MAX_NODES / 64 };

static void reach(uint64_t *masks, int rank, int node)
{
    masks[rank * WORDS + node / 64] |= UINT64_C(1) << (node % 64);
}

static void check_sharing(void)
{
    static uint64_t masks[4 * WORDS];
    int owner[4];
    /* The layout: ranks 0 and 1 both bound to node 0, rank 2 to node 1, none to node 2
     * (memory-only), node 3 reached by no rank. */
    memset(masks, 0, sizeof masks);
    reach(masks, 0, 0);
    reach(masks, 1, 0);
    reach(masks, 2, 1);
    nprb_binding_share_nodes(masks, 3, 4, false, owner);
    CHECK(owner[0] == 0 && owner[1] == 2 && owner[2] == -1 && owner[3] == -1);
    /* A widened first rank takes the nodes nobody reaches; a reached node stays its rank's. */
    nprb_binding_share_nodes(masks, 3, 4, true, owner);
    CHECK(owner[0] == 0 && owner[1] == 2 && owner[2] == 0 && owner[3] == 0);
    /* ppr:1:numa: one rank per node, each measures its own. */
    memset(masks, 0, sizeof masks);
    for (int r = 0; r < 4; r++)
        reach(masks, r, r);
    nprb_binding_share_nodes(masks, 4, 4, true, owner);
    for (int n = 0; n < 4; n++)
        CHECK(owner[n] == n);
    /* Node indexes past the first mask word. */
    memset(masks, 0, sizeof masks);
    static uint64_t wide[2 * WORDS];
    reach(wide, 1, 70);
    int far[80];
    nprb_binding_share_nodes(wide, 2, 80, false, far);
    CHECK(far[70] == 1 && far[69] == -1);
}

static void check_widen(void)
{
    struct nprb_topo *t = NULL;
    char err[256];
    if (nprb_topo_create_synthetic(&t, "pack:2 numa:2 core:2 pu:1", err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        check_failures++;
        return;
    }
    CHECK(nprb_topo_widen(t, err, sizeof err) == 0);
    const struct nprb_topo_summary *s = nprb_topo_summary(t);
    CHECK(s->usable_pus == 8 && s->bound_pus == 8);
    for (int i = 0; i < nprb_topo_node_count(t); i++)
        CHECK(nprb_topo_node(t, i)->usable_cores == 2 && nprb_topo_node(t, i)->bound_cores == 2);
    nprb_topo_destroy(t);
}

/* A rank no launcher bound, confined by its cgroup to CPU 0 and the memory of nodes 0-2 of a
 * 4-node host: the cgroup confines it, nothing is widened, and the counts are the cgroup's. */
static void check_cgroup_confined(const char *dir)
{
    char path[1024], err[256];
    snprintf(path, sizeof path, "%s/cgroup-4n.xml", dir);
    struct nprb_topo *t = NULL;
    if (nprb_topo_create(&t, path, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", path, err);
        check_failures++;
        return;
    }
    static uint64_t mine[WORDS];
    nprb_binding_reach(t, mine);
    struct nprb_provenance prov;
    memset(&prov, 0, sizeof prov);
    struct nprb_binding b;
    nprb_binding_settle(t, &prov, mine, 1, 0, false, &b);
    CHECK(b.ok && !b.widened && b.verdict == NPRB_BINDING_OK);
    CHECK_STR_CONTAINS(b.text, "ok: CPUs 0 (1 of 1 allowed) reach 1 of 1 NUMA nodes");
    CHECK_STR_CONTAINS(b.text,
                       "the cgroup allows 1 of 8 CPUs (on 1 of 4 nodes), memory on 3 of 4 nodes");
    CHECK(strstr(b.text, "launcher") == NULL && strstr(b.text, "widened") == NULL);
    nprb_topo_destroy(t);
}

int main(int argc, char **argv)
{
    check_sharing();
    check_widen();
    if (argc > 1)
        check_cgroup_confined(argv[1]);
    else
        CHECK(!"the topologies directory is the first argument");
    return CHECK_DONE();
}
