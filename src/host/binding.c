/* SPDX-License-Identifier: BSD-3-Clause */
/* The binding step: what the launcher bound, what numaprobe makes of it, and which rank of a
 * host measures which node. */
#include "host/binding.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MASK_WORDS = NPRB_BINDING_MASK_WORDS };

/* An OMP_THREAD_LIMIT below the cores numaprobe wants caps every parallel region. */
static int omp_thread_limit(void)
{
    const char *v = getenv("OMP_THREAD_LIMIT");
    return v != NULL && *v != '\0' ? atoi(v) : 0;
}

static bool has_node(const uint64_t *mask, int node)
{
    return (mask[node / 64] >> (node % 64)) & 1U;
}

void nprb_binding_share_nodes(const uint64_t *reach, int ranks, int node_count, bool leader_widened,
                              int *owner)
{
    for (int node = 0; node < node_count; node++) {
        owner[node] = leader_widened ? 0 : -1;
        for (int r = 0; r < ranks; r++) {
            if (has_node(reach + (size_t)r * MASK_WORDS, node)) {
                owner[node] = r;
                break;
            }
        }
    }
}

/* Appends to the check's text, as far as it fits. */
static void append(char *text, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void append(char *text, size_t len, const char *fmt, ...)
{
    size_t used = strlen(text);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text + used, len - used, fmt, ap);
    va_end(ap);
}

/* What the launcher's binding reaches, against what the job's cgroup allows: home nodes (CPUs
 * and memory both allowed), and the cgroup's CPU and memory nodes counted against the host's. */
struct reach {
    uint64_t mine[MASK_WORDS]; /* CPU nodes (logical index) with a core in the launcher binding */
    int allowed, total, mine_count;
    int cpu_nodes_allowed;      /* CPU nodes with a CPU in the cgroup's cpuset */
    int mem_allowed, mem_total; /* nodes with memory: in the cgroup's cpuset.mems, and all */
};

static void launcher_reach(const struct nprb_topo *topo, struct reach *r)
{
    memset(r, 0, sizeof *r);
    for (int i = 0; i < nprb_topo_node_count(topo); i++) {
        const struct nprb_node_info *n = nprb_topo_node(topo, i);
        if (n->memory_bytes > 0) {
            r->mem_total++;
            r->mem_allowed += n->mem_allowed;
        }
        if (n->cpu_count == 0)
            continue;
        r->total++;
        r->cpu_nodes_allowed += n->allowed_pus > 0;
        if (!n->cpus_allowed || !n->mem_allowed)
            continue;
        r->allowed++;
        if (n->bound_cores > 0) {
            r->mine[i / 64] |= UINT64_C(1) << (i % 64);
            r->mine_count++;
        }
    }
}

static int usable_cores(const struct nprb_topo *topo)
{
    int cores = 0;
    for (int i = 0; i < nprb_topo_node_count(topo); i++) {
        const struct nprb_node_info *n = nprb_topo_node(topo, i);
        if (n->cpus_allowed && n->mem_allowed)
            cores += n->usable_cores;
    }
    return cores;
}

void nprb_binding_reach(const struct nprb_topo *topo, uint64_t *mine)
{
    struct reach r;
    launcher_reach(topo, &r);
    memcpy(mine, r.mine, sizeof r.mine);
}

void nprb_binding_settle(struct nprb_topo *topo, const struct nprb_provenance *prov,
                         const uint64_t *all, int host_size, int host_rank, bool respect_binding,
                         struct nprb_binding *out)
{
    memset(out, 0, sizeof *out);
    struct reach r;
    launcher_reach(topo, &r);
    /* Every host rank's reach: ORed for the check, and to share the nodes out. */
    uint64_t host[MASK_WORDS] = {0};
    for (int k = 0; k < host_size; k++)
        for (int w = 0; w < MASK_WORDS; w++)
            host[w] |= all[(size_t)k * MASK_WORDS + w];
    int reached = 0;
    for (int w = 0; w < MASK_WORDS; w++)
        reached += __builtin_popcountll(host[w]);

    const struct nprb_topo_summary *s = nprb_topo_summary(topo);
    bool alone = host_size == 1;
    bool nodes_ok = reached == r.allowed;
    bool cpus_ok = !alone || s->bound_pus >= s->allowed_pus;
    /* numaprobe pins its own threads, one per core of the node it measures: a lone rank bound
     * narrower than its cgroup (mpirun --bind-to numa, one rank per host) widens to the cgroup's
     * CPUs and measures every node; the first rank of several widens too when its binding misses
     * a node, for the measurements that span nodes (first touch, balancing) and for nodes no
     * rank of the host reaches. The host's ranks still take turns, so this never competes. */
    bool want_wide = alone ? !nodes_ok || !cpus_ok : host_rank == 0 && r.mine_count < r.allowed;
    char err[160] = "";
    out->widened = want_wide && !respect_binding && nprb_topo_widen(topo, err, sizeof err) == 0 &&
                   s->usable_pus > s->bound_pus;
    nprb_binding_share_nodes(all, host_size, nprb_topo_node_count(topo), out->widened,
                             out->node_owner);

    int limit = omp_thread_limit(), cores = usable_cores(topo);
    bool omp_ok = limit <= 0 || limit >= cores;
    out->ok = nodes_ok && cpus_ok && omp_ok;
    char *text = out->text;
    size_t len = sizeof out->text;
    if (out->widened && alone)
        out->verdict = omp_ok ? NPRB_BINDING_WIDENED : NPRB_BINDING_NARROW;
    else
        out->verdict = out->ok ? NPRB_BINDING_OK : NPRB_BINDING_NARROW;
    if (out->widened && alone) {
        /* OMP_PLACES with one place binds the main thread as a launcher would: name both. */
        const char *binder = prov->omp_binder[0] != '\0' ? prov->omp_binder : "the launcher";
        snprintf(text, len,
                 "%s: %s bound this rank to CPUs %.40s (%d of %d allowed, %d of %d NUMA "
                 "nodes); numaprobe widened it to the cgroup's CPUs %.40s",
                 nprb_binding_verdict_name(out->verdict), binder, s->bound_cpus, s->bound_pus,
                 s->allowed_pus, reached, r.allowed, s->usable_cpus);
    } else {
        snprintf(text, len, "%s: CPUs %.40s (%d of %d allowed) reach %d of %d NUMA nodes",
                 nprb_binding_verdict_name(out->verdict), s->bound_cpus, s->bound_pus,
                 s->allowed_pus, reached, r.allowed);
        if (!alone)
            append(text, len, " with the host's %d ranks", host_size);
        if (out->widened)
            append(text, len, "; widened to CPUs %.40s for cross-node measurements",
                   s->usable_cpus);
    }
    if (err[0] != '\0')
        append(text, len, "; %s", err);
    /* What the cgroup confines, apart from what a launcher bound: the CPUs and memory nodes of
     * the cpuset (/hosts cpuset_cpus and cpuset_mems list them). */
    if (s->allowed_pus < s->pus || r.mem_allowed < r.mem_total)
        append(text, len,
               "; the cgroup allows %d of %d CPUs (on %d of %d nodes), memory on %d of %d nodes",
               s->allowed_pus, s->pus, r.cpu_nodes_allowed, r.total, r.mem_allowed, r.mem_total);
    if (!omp_ok)
        append(text, len, "; OMP_THREAD_LIMIT=%d caps %d cores", limit, cores);
    else if (prov->omp_undone[0] != '\0')
        append(text, len, "; %s", prov->omp_undone);
    else if (prov->omp_env[0] != '\0')
        append(text, len, "; OMP_* set, numaprobe pins its own threads");
}
