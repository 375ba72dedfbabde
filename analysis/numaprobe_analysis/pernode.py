# SPDX-License-Identifier: BSD-3-Clause
"""Hosts judged node by node: a host's figure is a median over its NUMA nodes (and node pairs),
and on a host of four nodes that median hides one node at 60%. So each node's local figures
(read and triad bandwidth, latency) and each remote pair class's latency are judged against the
same node, or class, of the host's type, by the outlier rule (outliers.py)."""

import numpy as np
import pandas as pd

from .noise import is_noisy, row_spread_pct
from .outliers import robust_z
from .names import MemPolicy
from .rows import is_local, ok_rows

COLUMNS = ["type", "host", "metric", "node", "value", "key"]


def _quiet(rows, value, keep_noisy=False):
    """The rows whose uncertainty is not noisy (a noisy figure is shown, never judged), each
    with it in `_u`; every row where @p keep_noisy."""
    if not len(rows):
        return rows.assign(_u=pd.Series(dtype=float))
    rows = rows.assign(_u=row_spread_pct(rows, value))
    return rows if keep_noisy else rows[~is_noisy(rows._u)]


def _medians(rows, keys, value):
    """Per group of @p keys: the median of @p value and the largest uncertainty of its rows."""
    return rows.groupby(keys).agg(value=(value, "median"), spread_pct=("_u", "max")).reset_index()


def node_values(fleet, hosts, keep_noisy=False):
    """Long frame type, host, metric (key), node (`node N` or `CLASS pairs`), value,
    spread_pct: per host and NUMA node its local figures, per host and remote pair class its
    latency (medians over the host's ranks and the pairs of that node or class; the largest of
    their uncertainties). Noisy rows are left out (the outlier rule's figures), or kept where
    @p keep_noisy, so that a figure made of them is there to be called noisy (a reference's)."""
    parts = []
    lat = _quiet(ok_rows(fleet["latency"], experiment="latency_matrix",
                         mem_policy=MemPolicy.BIND),
                 "latency_ns_median", keep_noisy)
    if len(lat):
        local = lat[is_local(lat)]
        med = _medians(local, ["host", "cpu_node"], "latency_ns_median")
        parts.append(pd.DataFrame({"host": med.host, "metric": "latency_local_ns",
                                   "node": "node " + med.cpu_node.astype(str),
                                   "value": med.value, "spread_pct": med.spread_pct}))
        remote = lat[~is_local(lat)]
        if "pair_class" in remote.columns and len(remote):
            med = _medians(remote, ["host", "pair_class"], "latency_ns_median")
            parts.append(pd.DataFrame({"host": med.host, "metric": "latency_remote_ns",
                                       "node": med.pair_class.astype(str) + " pairs",
                                       "value": med.value, "spread_pct": med.spread_pct}))
    bw = _quiet(ok_rows(fleet["bandwidth"], experiment="bandwidth_matrix",
                        mem_policy=MemPolicy.BIND),
                "gbs_best", keep_noisy)
    if len(bw):
        local = bw[is_local(bw)]
        med = _medians(local, ["host", "kernel", "cpu_node"], "gbs_best")
        parts.append(pd.DataFrame({"host": med.host,
                                   "metric": "bw_" + med.kernel.astype(str) + "_local_gbs",
                                   "node": "node " + med.cpu_node.astype(str),
                                   "value": med.value, "spread_pct": med.spread_pct}))
    columns = ["type", "host", "metric", "node", "value", "spread_pct"]
    if not parts:
        return pd.DataFrame(columns=columns)
    frame = pd.concat(parts, ignore_index=True)
    frame = frame[frame.value.notna()].merge(hosts[["host", "type"]], on="host", how="left")
    return frame[columns]


def node_outliers(values, catalogue, rule, too_small, host_outliers):
    """The outlier rows (outliers.py's columns, with `node`) of each node and pair class judged
    against the same node or class of its type's hosts. Where every node (or class) of a host
    is off on a metric and the host is flagged on it as a whole, the whole-host row says it:
    the node rows are left out."""
    rows = []
    for (typ, key, node), v in values.groupby(["type", "metric", "node"], sort=True):
        m = catalogue.get(key)
        if m is None or typ in too_small or len(v) < rule.min_hosts:
            continue
        x = v.value.to_numpy(dtype=float)
        med = float(np.median(x))
        z = robust_z(x)
        dev = (x - med) / abs(med) * 100 if med != 0 else np.full(len(x), np.inf)
        # Widened by each figure's own uncertainty, as outliers.py does for whole hosts.
        own = v.spread_pct.fillna(0).clip(lower=0).to_numpy() if "spread_pct" in v.columns \
            else np.zeros(len(x))
        for host, xi, zi, di, ui in zip(v.host, x, z, dev, own):
            if abs(zi) > rule.z_limit and abs(di) > rule.pct_limit + ui:
                worse = (di > 0) == (m.better == "lower")
                rows.append({"type": typ, "host": host, "metric": f"{m.label}, {node}",
                             "node": node, "unit": m.unit, "value": xi, "type_median": med,
                             "deviation_pct": di, "robust_z": zi,
                             "verdict": "worse" if worse else "better", "key": key})
    frame = pd.DataFrame(rows)
    if frame.empty:
        return frame
    parts = values.groupby(["host", "metric"]).node.nunique()
    flagged = frame.groupby(["host", "key"]).node.nunique()
    whole = set(zip(host_outliers.host, host_outliers.key))
    covered = [(h, k) in whole and n == parts.get((h, k), 0) for (h, k), n in flagged.items()]
    drop = {hk for hk, c in zip(flagged.index, covered) if c}
    return frame[[(h, k) not in drop for h, k in zip(frame.host, frame.key)]]
