# SPDX-License-Identifier: BSD-3-Clause
"""Node types and headline metrics: one value per host and metric, summarised per node type.

A host's value of a metric is the median over its ranks and over the node pairs the metric
covers (e.g. every local pair of a 2-socket host). Only rows with status `ok` count. Each
experiment's metrics are its module's (experiments/); host_metrics gathers them in the order of
experiments.EXPERIMENTS."""

import numpy as np
import pandas as pd

from .experiments import EXPERIMENTS
from .noise import is_noisy
from .nodetypes import assign_types, node_rows, values_text


def hosts_frame(fleet):
    """One row per host: its node type (type_key and label, nodetypes.py) and hardware."""
    hosts = fleet["hosts"].sort_values(["file", "rank"])
    cols = ["host", "fingerprint", "node_type", "cpu_model", "simd_path", "packages",
            "numa_nodes", "cores", "memory_bytes", "l1d_bytes", "l2_bytes", "l3_bytes", "kernel",
            "thp_mode", "numa_balancing", "governor", "boost", "dimms", "dimm_speed_mts",
            "status", "config", "peak_gbs"]
    cols = [c for c in cols if c in hosts.columns]
    per_host = hosts.groupby("host", sort=True)[cols[1:]].first().reset_index()
    per_host["ranks"] = hosts.groupby("host", sort=True).size().values
    if "restored" in hosts.columns:
        per_host["restored"] = restored_texts(hosts).reindex(per_host.host).fillna("").values
    # The type is the hardware the host is meant to have, not its fingerprint (which hashes
    # memory): a host that lost a DIMM stays in its type, as a degraded member (nodetypes.py).
    assign_types(per_host, node_rows(fleet))
    # Runs of different measurement configs (--allow-mixed-configs) never share a type.
    if "config" in per_host.columns and per_host.config.nunique() > 1:
        per_host["type"] = [f"{t} (config {c[:6]})" for t, c in zip(per_host.type,
                                                                     per_host.config)]
    return per_host


def restored_texts(hosts):
    """host -> the non-empty `restored` texts of its ranks, each once, joined by "; ": only the
    rank that found a setting a killed run left changed writes it, so `.first()` would miss it."""
    texts = hosts.restored.fillna("").astype(str).str.strip()
    texts = texts[texts != ""]
    return texts.groupby(hosts.host[texts.index], sort=True).agg(
        lambda t: "; ".join(dict.fromkeys(t)))


def node_types_frame(hosts):
    """One row per node type: label, fingerprint, how many hosts, what hardware."""
    agg = {"type_key": "first", "fingerprint": "first", "host": "count"}
    for c in ("cpu_model", "simd_path", "packages", "numa_nodes", "cores", "memory_bytes",
              "l1d_bytes", "l2_bytes", "l3_bytes"):
        if c in hosts.columns:
            # Memory is no part of the type: its usual amount, whatever a degraded host has;
            # the SIMD path is the binary's, which may differ between hosts of one type.
            agg[c] = ("median" if c == "memory_bytes" else "max" if c == "cores"
                      else values_text if c == "simd_path" else "first")
    types = hosts.groupby("type").agg(agg).rename(columns={"host": "hosts"}).reset_index()
    if "memory_bytes" in types:
        types["memory_GiB"] = (types.pop("memory_bytes") / 2**30).round(1)
    for c in ("l1d_bytes", "l2_bytes", "l3_bytes"):
        if c in types:
            types[c.replace("_bytes", "_KiB")] = (types.pop(c) // 1024).astype(int)
    return types


def host_metrics(fleet, hosts, experiments=EXPERIMENTS):
    """Long frame host, type, metric, value, spread_pct, noisy; and the catalogue of metrics
    found (in order) of @p experiments. noisy: noise.is_noisy(spread_pct). value is NaN for a
    cache level not judged on the host (no measured step): shown as such, never judged or
    compared."""
    out, catalogue = [], {}
    for e in experiments:
        if e.metrics is not None:
            e.metrics(fleet, hosts, out, catalogue)
    frame = pd.DataFrame(out, columns=["host", "metric", "value", "spread_pct"])
    frame["noisy"] = is_noisy(frame.spread_pct)
    frame = frame.merge(hosts[["host", "type"]], on="host", how="left")
    present = set(frame.metric)
    catalogue = {k: m for k, m in catalogue.items() if k in present}
    return frame[["type", "host", "metric", "value", "spread_pct", "noisy"]], catalogue


SUMMARY_COLUMNS = ["type", "metric", "unit", "hosts", "median", "q25", "q75", "IQR", "min",
                   "max", "noisy", "key"]


def summary_frame(values, catalogue):
    """Per node type and metric: median, IQR (q25..q75), min, max over the figures that are not
    noisy; `hosts`, how many figures that is, and `noisy`, how many were left out as noisy (a
    median of noisy figures would carry their noise into the comparison, unmarked)."""
    rows = []
    for (typ, metric), v in values.groupby(["type", "metric"], sort=False):
        noisy = is_noisy(v.spread_pct) if "spread_pct" in v.columns \
            else pd.Series(False, index=v.index)
        x = v[~noisy].value.dropna().to_numpy()  # NaN: a cache level not judged on that host
        q25, q50, q75 = np.percentile(x, [25, 50, 75]) if len(x) else (np.nan,) * 3
        m = catalogue[metric]
        rows.append({"type": typ, "metric": m.label, "unit": m.unit,
                     "hosts": len(x),
                     "median": q50, "q25": q25, "q75": q75, "IQR": q75 - q25,
                     "min": x.min() if len(x) else np.nan,
                     "max": x.max() if len(x) else np.nan,
                     "noisy": int(np.sum(noisy)), "key": metric})
    order = {k: i for i, k in enumerate(catalogue)}
    frame = pd.DataFrame(rows, columns=SUMMARY_COLUMNS)
    if frame.empty:
        return frame
    frame["_o"] = frame.key.map(order)
    return frame.sort_values(["type", "_o"]).drop(columns="_o").reset_index(drop=True)
