/* SPDX-License-Identifier: BSD-3-Clause */
/* The host's topology as rows of the results file: /numa_nodes, /distances, hugepage pools and
 * the hwloc XML, recorded once per rank before measuring. */
#include "host/topo_record.h"

#include "host/place.h"
#include "host/provenance.h"

/* The host's whole hwloc topology, from its first rank: what lstopo would show, for questions
 * nobody thought of when the job ran. */
static void record_xml(struct nprb_results *results, const struct nprb_topo *topo, int rank,
                       bool host_leader)
{
    char *xml = NULL;
    int len = 0;
    if (!host_leader || hwloc_topology_export_xmlbuffer(nprb_topo_hwloc(topo), &xml, &len, 0) != 0)
        return;
    if (len > 0)
        nprb_provenance_topology_xml(results, rank, xml, (size_t)len - 1);
    hwloc_free_xmlbuffer(nprb_topo_hwloc(topo), xml);
}

void nprb_topo_record(struct nprb_results *results, const struct nprb_topo *topo, int rank,
                      bool host_leader)
{
    int n = nprb_topo_node_count(topo);
    record_xml(results, topo, rank, host_leader);
    for (int i = 0; i < n; i++) {
        const struct nprb_node_info *node = nprb_topo_node(topo, i);
        /* Read now, before any buffer is allocated: the free memory the job found, for the
         * report's numactl-like topology block. An XML topology is not this host's. */
        uint64_t free_bytes =
            nprb_topo_is_this_system(topo) ? nprb_node_memfree_bytes(node->os_index) : 0;
        struct nprb_numa_node_row row = {.rank = rank,
                                         .node = (int32_t)node->os_index,
                                         .memory_bytes = node->memory_bytes,
                                         .free_bytes = free_bytes,
                                         .cpus = node->cpu_count,
                                         .usable_cores = node->usable_cores,
                                         .package = node->package,
                                         .mem_allowed = node->mem_allowed,
                                         .cpus_allowed = node->cpus_allowed};
        NPRB_SET_TEXT(row.cpu_list, node->cpus);
        nprb_results_add(results, NPRB_TABLE_NUMA_NODES, &row);
        nprb_provenance_hugepages(results, rank, node->os_index);
        for (int j = 0; j < n; j++) {
            struct nprb_distance_row d = {.rank = rank,
                                          .from_node = (int32_t)node->os_index,
                                          .to_node = (int32_t)nprb_topo_node(topo, j)->os_index,
                                          .slit = (int32_t)nprb_topo_distance(topo, i, j)};
            nprb_topo_hmat(topo, i, j, &d.hmat_latency_ns, &d.hmat_bandwidth_mibs);
            nprb_results_add(results, NPRB_TABLE_DISTANCES, &d);
        }
    }
}
