#include "binding.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MASK_WORDS = NPRB_MAX_NODES / 64 };

/* An OMP_THREAD_LIMIT below the cores numaprobe wants caps every parallel region. */
static int omp_thread_limit(void)
{
    const char *v = getenv("OMP_THREAD_LIMIT");
    return v != NULL && *v != '\0' ? atoi(v) : 0;
}

bool nprb_binding_check(const struct nprb_fleet *fleet, const struct nprb_topo *topo,
                        const struct nprb_provenance *prov, char *text, size_t len)
{
    /* Nodes with CPUs this rank reaches, ORed over the host's ranks: with several ranks on a
     * host (--bind-to numa), together they must cover what the cgroup allows. */
    unsigned long long mine[MASK_WORDS] = {0}, host[MASK_WORDS];
    int allowed = 0, allowed_pus = 0, reached = 0, total = 0, usable_cores = 0;
    for (int i = 0; i < nprb_topo_node_count(topo); i++) {
        const struct nprb_node_info *n = nprb_topo_node(topo, i);
        if (n->cpu_count == 0)
            continue;
        total++;
        if (!n->cpus_allowed || !n->mem_allowed)
            continue;
        allowed++;
        allowed_pus += n->cpu_count;
        usable_cores += n->usable_cores;
        if (n->usable_cores > 0)
            mine[n->os_index / 64] |= 1ULL << (n->os_index % 64);
    }
    MPI_Allreduce(mine, host, MASK_WORDS, MPI_UNSIGNED_LONG_LONG, MPI_BOR, fleet->host);
    for (int w = 0; w < MASK_WORDS; w++)
        reached += __builtin_popcountll(host[w]);

    const struct nprb_topo_summary *s = nprb_topo_summary(topo);
    int limit = omp_thread_limit();
    bool alone = fleet->host_size == 1;
    bool nodes_ok = reached == allowed;
    bool cpus_ok = !alone || s->usable_pus >= allowed_pus;
    bool omp_ok = limit <= 0 || limit >= usable_cores;
    bool ok = nodes_ok && cpus_ok && omp_ok;

    int n = snprintf(text, len, "%s: CPUs %.40s (%d of %d allowed) reach %d of %d NUMA nodes",
                     ok ? "ok" : "narrow", s->usable_cpus, s->usable_pus, allowed_pus, reached,
                     allowed);
    if (!alone && n > 0 && (size_t)n < len)
        n += snprintf(text + n, len - (size_t)n, " with the host's %d ranks", fleet->host_size);
    if (allowed < total && n > 0 && (size_t)n < len)
        n += snprintf(text + n, len - (size_t)n, "; the cgroup allows %d of %d nodes", allowed,
                      total);
    if (!omp_ok && n > 0 && (size_t)n < len)
        snprintf(text + n, len - (size_t)n, "; OMP_THREAD_LIMIT=%d caps %d cores", limit,
                 usable_cores);
    else if (prov->omp_env[0] != '\0' && n > 0 && (size_t)n < len)
        snprintf(text + n, len - (size_t)n, "; OMP_* set, numaprobe pins its own threads");
    return ok;
}
