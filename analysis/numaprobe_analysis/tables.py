# SPDX-License-Identifier: BSD-3-Clause
"""Tables a person reads: one row per host and NUMA node, latency beside bandwidth."""

import pandas as pd

from .names import MemPolicy, Status
from .rows import is_local

HOST_COLUMNS = {
    "hostname": "host",
    "rank": "rank",
    "cpu_node": "node",
    "latency_ns_median": "latency ns (median)",
    "latency_ns_p99": "latency ns (p99)",
    "gbs_best": "read GB/s (best)",
    "gbs_median": "read GB/s (median)",
    "threads": "threads",
    "on_node": "pages on node %",
    "status": "status",
}


def local_table(results):
    """Local (node i -> node i) latency and bandwidth per host and node."""
    lat = results["latency"]
    bw = results["bandwidth"]
    lat = lat[(lat.experiment == "latency_matrix") & (lat.mem_policy == MemPolicy.BIND)
              & is_local(lat)]
    bw = bw[(bw.experiment == "bandwidth_matrix") & (bw.mem_policy == MemPolicy.BIND)
            & (bw.kernel == "read") & is_local(bw)]
    merged = pd.merge(
        lat[["hostname", "rank", "cpu_node", "latency_ns_median", "latency_ns_p99",
             "pages_on_target_frac", "status"]],
        bw[["rank", "cpu_node", "gbs_best", "gbs_median", "threads", "pages_on_target_frac",
            "status"]],
        on=["rank", "cpu_node"], how="outer", suffixes=("_lat", "_bw"))
    merged["on_node"] = 100 * merged[["pages_on_target_frac_lat",
                                      "pages_on_target_frac_bw"]].min(axis=1)
    merged["status"] = [a if a != Status.OK else b
                        for a, b in zip(merged.status_lat.fillna("-"),
                                        merged.status_bw.fillna("-"))]
    table = merged[list(HOST_COLUMNS)].rename(columns=HOST_COLUMNS)
    return table.sort_values(["rank", "node"]).reset_index(drop=True)


def hosts_table(results):
    hosts = results["hosts"]
    cols = {"rank": "rank", "hostname": "host", "node_type": "node type",
            "fingerprint": "fingerprint", "numa_nodes": "NUMA nodes", "cores": "cores",
            "simd_path": "SIMD", "thp_mode": "THP", "binding_check": "binding",
            "status": "status"}
    return hosts[list(cols)].rename(columns=cols).sort_values("rank").reset_index(drop=True)
