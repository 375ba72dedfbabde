# SPDX-License-Identifier: BSD-3-Clause
"""What the hosts are made of and what it costs: each host's NUMA layout as `numactl --hardware`
prints it, and the matrices summed up per pair class (local, same package, cross package,
memory-only node)."""

import pandas as pd

from .names import MemPolicy, PairClass, Status

CLASSES = (PairClass.LOCAL, PairClass.SAME_PACKAGE, PairClass.CROSS_PACKAGE,
           PairClass.MEMORY_ONLY)


def first_rank_rows(frame, column, value):
    """The rows of the first rank whose `column` is `value` (a host's first rank)."""
    if frame.empty:
        return frame
    rows = frame[frame[column] == value]
    return rows[rows["rank"] == rows["rank"].min()] if len(rows) else rows


def _cpus_spelled_out(cpu_list):
    out = []
    for part in filter(None, str(cpu_list).split(",")):
        first, _, last = part.partition("-")
        out += [str(c) for c in range(int(first), int(last or first) + 1)]
    return " ".join(out)


def _node_ranges(ids):
    parts, i = [], 0
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        parts.append(str(ids[i]) if i == j else f"{ids[i]}-{ids[j]}")
        i = j + 1
    return ",".join(parts)


def numactl_lines(nodes, dist):
    """One rank's /numa_nodes and /distances rows in numactl --hardware's layout, plus each
    node's package (free memory as it was when the run started)."""
    if nodes.empty:
        return []
    nodes = nodes.sort_values("node")
    ids = [int(n) for n in nodes.node]
    lines = [f"available: {len(ids)} nodes ({_node_ranges(ids)})"]
    for n in nodes.itertuples(index=False):
        free = getattr(n, "free_bytes", 0)
        lines += [f"node {n.node} cpus: {_cpus_spelled_out(n.cpu_list)}".rstrip(),
                  f"node {n.node} size: {int(n.memory_bytes) >> 20} MB",
                  f"node {n.node} free: " + (f"{int(free) >> 20} MB" if free else "unknown"),
                  f"node {n.node} package: " + (str(n.package) if n.package >= 0 else "none")]
    if len(dist):
        slit = dist.pivot_table(index="from_node", columns="to_node", values="slit")
        lines.append("node distances:")
        lines.append("node " + "".join(f" {i:3d}" for i in ids))
        for i in ids:
            cells = [int(slit.at[i, j]) if i in slit.index and j in slit.columns else 0
                     for j in ids]
            lines.append(f"{i:3d}:" + "".join(f" {c:3d}" if c > 0 else "   -" for c in cells))
    return lines


def _slit_range(values):
    values = sorted({int(v) for v in values if v > 0})
    if not values:
        return "-"
    return str(values[0]) if len(values) == 1 else f"{values[0]}-{values[-1]}"


def class_table(fleet, hosts):
    """Per node type and pair class: pairs per host, SLIT range, and the median over the type's
    hosts and pairs of idle latency and of read and triad GB/s (matrix cells bound to one node,
    status ok), each beside its ratio to the type's local figure."""
    lat, bw = fleet["latency"], fleet["bandwidth"]
    if lat.empty and bw.empty:
        return pd.DataFrame()
    types = hosts.set_index("host")["type"]
    cells = []
    if len(lat):
        rows = lat[(lat.experiment == "latency_matrix") & (lat.mem_policy == MemPolicy.BIND)]
        cells.append(rows.assign(metric="latency", value=rows.latency_ns_median))
    if len(bw):
        rows = bw[(bw.experiment == "bandwidth_matrix") & (bw.mem_policy == MemPolicy.BIND)
                  & bw.kernel.isin(["read", "triad"])]
        cells.append(rows.assign(metric=rows.kernel, value=rows.gbs_best))
    cells = pd.concat(cells, ignore_index=True)
    cells = cells[(cells.status != Status.NOT_APPLICABLE) & cells.pair_class.isin(CLASSES)]
    if cells.empty:
        return pd.DataFrame()
    cells = cells.assign(type=cells.host.map(types))
    ok = cells[cells.status == Status.OK]
    out = []
    for (typ, cls), group in cells.groupby(["type", "pair_class"], sort=False):
        per_metric = group.groupby(["metric", "host"]).size()
        row = {"type": typ, "class": cls, "hosts": group.host.nunique(),
               "pairs per host": int(per_metric.groupby("metric").median().max()),
               "SLIT": _slit_range(group.slit)}
        for metric, label in (("latency", "latency ns"), ("read", "read GB/s"),
                              ("triad", "triad GB/s")):
            values = ok[(ok.type == typ) & (ok.pair_class == cls) & (ok.metric == metric)].value
            row[label] = values.median() if len(values) else float("nan")
        out.append(row)
    table = pd.DataFrame(out)
    table["order"] = table["class"].map(CLASSES.index)
    table = table.sort_values(["type", "order"]).drop(columns="order").reset_index(drop=True)
    for label in ("latency ns", "read GB/s", "triad GB/s"):
        local = table[table["class"] == PairClass.LOCAL].set_index("type")[label]
        table.insert(table.columns.get_loc(label) + 1, f"{label.split()[0]} / local",
                     table[label] / table["type"].map(local))
    return table

