# SPDX-License-Identifier: BSD-3-Clause
"""latency_matrix: the idle latency of each CPU node to each memory node (a dependent chase,
pages bound to the memory node). Headline figures, judged: local and remote latency; its plot
sets the matrix beside the bandwidth matrix's read and the firmware's distances."""

from ..names import MemPolicy
from ..plotting import Skipped, by_type, heat, plt
from ..rows import Metric, by_where, ok_rows, per_host
from .experiment import Experiment, Figure


def metrics(fleet, hosts, out, catalogue):
    lat = ok_rows(fleet["latency"], experiment="latency_matrix", mem_policy=MemPolicy.BIND)
    for where, rows in by_where(lat):
        m = Metric(f"latency_{where}_ns", f"idle latency {where}", "ns", "lower")
        catalogue[m.name] = m
        per_host(rows, "latency_ns_median", m.name, out)


def _matrix(rows, value):
    return rows.groupby(["cpu_node", "mem_node"])[value].median().unstack()


def _flagged(rows):
    """Cells that any host of the type flagged as implausible (the binary's `flags` column)."""
    if "flags" not in rows:
        return None
    return rows.assign(flagged=rows["flags"].astype(str).str.len() > 0).groupby(
        ["cpu_node", "mem_node"]).flagged.any().unstack()


def numa_heatmaps(v):
    lat = ok_rows(v.fleet["latency"], experiment="latency_matrix", mem_policy=MemPolicy.BIND)
    bw = ok_rows(v.fleet["bandwidth"], experiment="bandwidth_matrix", mem_policy=MemPolicy.BIND,
                 kernel="read")
    dist = v.fleet["distances"]
    if lat.empty:
        raise Skipped("no latency_matrix rows (policy bind) with status ok")
    types = [(t, r) for t, r in by_type(v, lat) if r.mem_node.nunique() >= 2]
    if not types:
        raise Skipped("every node type has a single NUMA node measured: no remote pairs to map")
    fig, axes = plt.subplots(len(types), 3, figsize=(13, 4 * len(types)), squeeze=False)
    for row, (typ, rows) in zip(axes, types):
        hosts = v.type_hosts(typ)
        heat(row[0], _matrix(rows, "latency_ns_median"),
             f"{typ}\nidle latency, ns (median; ? implausible)", "{:.0f}", "viridis_r",
             _flagged(rows))
        b = bw[bw.host.isin(hosts)]
        if len(b):
            heat(row[1], _matrix(b, "gbs_best"),
                 f"{typ}\nread bandwidth, GB/s (median; ? implausible)", "{:.1f}", "viridis",
                 _flagged(b))
        else:
            row[1].set_axis_off()
            row[1].text(0.5, 0.5, "no bandwidth_matrix read rows", ha="center")
        d = dist[dist.host.isin(hosts)] if len(dist) else dist
        if len(d) and (d.slit > 0).any():
            slit = d.groupby(["from_node", "to_node"]).slit.median().unstack()
            slit.index.name, slit.columns.name = "cpu_node", "mem_node"
            heat(row[2], slit, f"{typ}\nfirmware distance (SLIT)", "{:.0f}", "viridis_r")
        else:
            row[2].set_axis_off()
            row[2].text(0.5, 0.5, "firmware gives no SLIT", ha="center")
    fig.tight_layout()
    return fig


DOC = (
    ("idle latency local / remote (ns)",
     "`/latency`, `latency_matrix`, policy `bind`, CPU node = / ≠ memory node, "
     "`latency_ns_median`"),
)


EXPERIMENT = Experiment(
    "latency_matrix", doc=DOC, metrics=metrics,
    figures=(Figure("numa_heatmaps",
                    "NUMA latency and bandwidth matrices beside firmware distances",
                    numa_heatmaps),))
