# SPDX-License-Identifier: BSD-3-Clause
"""Node types and headline metrics: one value per host and metric, summarised per node type.

A host's value of a metric is the median over its ranks and over the node pairs the metric
covers (e.g. every local pair of a 2-socket host). Only rows with status `ok` count."""

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .noise import NOISY_PCT, is_noisy, row_spread_pct  # noqa: F401 (read from here too)
from .nodetypes import assign_types, node_rows, values_text


@dataclass(frozen=True)
class Metric:
    name: str       # column-safe key, e.g. latency_local_ns
    label: str      # what a person reads
    unit: str
    better: str     # "lower" or "higher"
    judged: bool = True  # used for outliers and compare (penalties near 0 are not)


def ok_rows(frame, **where):
    """The rows with status ok and each column of @p where equal to its value, selected in one
    pass: a fleet's table has millions of rows, and each selection copies what it keeps."""
    if not len(frame):
        return frame
    keep = frame.status == "ok"
    for column, value in where.items():
        keep &= frame[column] == value
    return frame[keep]


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


def _per_host(rows, value, metric, out):
    """A host's value (median over its rows) and its spread (the largest of its rows')."""
    if len(rows) == 0:
        return
    rows = rows.assign(_spread=row_spread_pct(rows, value))
    grouped = rows.groupby("host")
    med = grouped[value].median().dropna()
    spread = grouped["_spread"].max().reindex(med.index)
    out.extend(zip(med.index, [metric] * len(med), med.astype(float), spread.astype(float)))


def _matrix_metrics(fleet, out, catalogue):
    lat = ok_rows(fleet["latency"], experiment="latency_matrix", mem_policy="bind")
    local = lat.cpu_node == lat.mem_node
    for where, rows in (("local", lat[local]), ("remote", lat[~local])):
        m = Metric(f"latency_{where}_ns", f"idle latency {where}", "ns", "lower")
        catalogue[m.name] = m
        _per_host(rows, "latency_ns_median", m.name, out)
    bw = ok_rows(fleet["bandwidth"], experiment="bandwidth_matrix", mem_policy="bind")
    for kernel in sorted(bw.kernel.unique()):
        k = bw[bw.kernel == kernel]
        local = k.cpu_node == k.mem_node
        for where, rows in (("local", k[local]), ("remote", k[~local])):
            m = Metric(f"bw_{kernel}_{where}_gbs", f"bandwidth {kernel} {where}", "GB/s",
                       "higher")
            catalogue[m.name] = m
            _per_host(rows, "gbs_best", m.name, out)


CACHE_LEVELS = (("L1", "l1d_bytes"), ("L2", "l2_bytes"), ("L3", "l3_bytes"))
LINE = 64


def lines_touched(rows):
    """Bytes of cache lines a chase touches: one 64 B line per slot, so a random chase with its
    256 B slots over 128 KiB occupies 32 KiB of cache. Caches are compared with this, not with
    the chase's span (size_bytes)."""
    if "slot_bytes" not in rows.columns:
        return rows.size_bytes
    return rows.size_bytes * LINE // np.maximum(rows.slot_bytes, LINE)


def measured_levels(fleet):
    """Per host and cache level (1, 2, 3) as `/cache_levels` judged it: hwloc's size, the
    measured size (0: no step found, or not judged), and the latency before the step (NaN
    where no step was measured). Medians over the host's ranks; empty without the table."""
    cl = fleet["cache_levels"]
    cols = ["host", "level", "hwloc_bytes", "measured_bytes", "latency_ns"]
    if cl.empty or "host" not in cl.columns:
        return pd.DataFrame(columns=cols)
    cl = cl.assign(latency_ns=np.where(cl.measured_bytes > 0, cl.latency_ns_below, np.nan),
                   measured=np.where(cl.measured_bytes > 0, cl.measured_bytes, np.nan))
    out = cl.groupby(["host", "level"]).agg(hwloc_bytes=("hwloc_bytes", "max"),
                                            measured_bytes=("measured", "median"),
                                            latency_ns=("latency_ns", "median")).reset_index()
    out["measured_bytes"] = out.measured_bytes.fillna(0).astype(np.uint64)
    return out[cols]


def cache_curves(fleet):
    """The ok rows of the random chase over local memory in latency_sweep, one curve per host:
    its first sweeping node's (with from: every, each node sweeps)."""
    sweep = ok_rows(fleet["latency"], experiment="latency_sweep", pattern="random")
    sweep = sweep[sweep.cpu_node == sweep.mem_node] if len(sweep) else sweep
    if len(sweep):
        sweep = sweep[sweep.cpu_node == sweep.groupby("host").cpu_node.transform("min")]
    return sweep


def _cache_metrics(fleet, hosts, out, catalogue):
    """Latency at each cache level: from `/cache_levels`, the random chase's latency at the
    last sweep point before the level's measured step (`latency_ns_below`); NaN where the level
    was not judged or no step was found there, so a sweep that never reached the L3, or an L3
    hwloc misreports, claims no L3 latency. Memory: the random chase at the largest swept point
    whose lines touched are at least the last level's size (measured where a step was found,
    else hwloc's), so the chase has left every cache."""
    sweep = cache_curves(fleet)
    if not len(sweep):  # /cache_levels is judged on the sweep: no ok sweep rows, no level
        return
    # Every host at once, one level at a time: a loop over hosts costs seconds per thousand.
    curves = (sweep.assign(lines=lines_touched(sweep)).groupby(["host", "lines"])
              .latency_ns_median.median())
    deepest = curves.groupby(level=0).tail(1)  # each host's point of the most lines
    swept = pd.Index(deepest.index.get_level_values(0), name="host")
    levels = measured_levels(fleet).set_index(["host", "level"])
    sizes = hosts.drop_duplicates("host").set_index("host")
    last = np.zeros(len(swept), dtype=np.int64)  # bytes of the last level claimed so far
    position = np.arange(len(swept))
    entries = []  # (host position, level number, host, metric, value)
    for n, (level, col) in enumerate(CACHE_LEVELS, 1):
        hw = (sizes[col].reindex(swept).fillna(0).astype(np.int64).to_numpy()
              if col in sizes.columns else np.zeros(len(swept), dtype=np.int64))
        judged = (levels.xs(n, level="level").reindex(swept)
                  if n in levels.index.get_level_values("level")
                  else pd.DataFrame(index=swept, columns=levels.columns, dtype=float))
        found = judged.hwloc_bytes.notna().to_numpy()
        measured = judged.measured_bytes.fillna(0).astype(np.int64).to_numpy()
        reported = judged.hwloc_bytes.fillna(0).astype(np.int64).to_numpy()
        size = np.where(measured > 0, measured, np.where(reported > 0, reported, hw))
        value = np.where(found, judged.latency_ns.astype(float).to_numpy(), np.nan)
        claimed = found | (hw > 0)  # hwloc reports the level even where nothing judged it
        last = np.where(found, size, np.where(hw > 0, hw, last))
        if claimed.any():
            m = Metric(f"latency_{level}_ns", f"latency {level}", "ns", "lower")
            catalogue[m.name] = m
            entries.extend(zip(position[claimed], [n] * int(claimed.sum()), swept[claimed],
                               [m.name] * int(claimed.sum()), value[claimed]))
    beyond = deepest.index.get_level_values(1).to_numpy() >= np.maximum(last, 1)
    if beyond.any():
        m = Metric("latency_memory_ns", "latency memory (lines >= last cache)", "ns", "lower")
        catalogue[m.name] = m
        entries.extend(zip(position[beyond], [len(CACHE_LEVELS) + 1] * int(beyond.sum()),
                           swept[beyond], [m.name] * int(beyond.sum()),
                           deepest.to_numpy()[beyond]))
    entries.sort(key=lambda e: (e[0], e[1]))
    out.extend((host, name, float(value), np.nan) for _, _, host, name, value in entries)


def first_touch_modes(bandwidth):
    """The first_touch rows that ran, with a `mode` column: serial@N, threaded, mismatched,
    interleave, bind (the config's names; files before schema 0.10.0 wrote `bound`)."""
    ft = bandwidth[(bandwidth.experiment == "first_touch")
                   & bandwidth.status.isin(["ok", "invalid"])] if len(bandwidth) else bandwidth
    if ft.empty:
        return ft
    ft = ft.copy()
    init = ft.init_mode.replace("bound", "bind")
    ft["mode"] = np.where(init == "serial", "serial@" + ft.mem_node.astype(str),
                          np.where(ft.mem_policy == "interleave", "interleave", init))
    return ft


def _first_touch_metrics(fleet, out, catalogue):
    """Penalty of each first-touch mode: read bandwidth lost against threaded first touch."""
    ft = first_touch_modes(ok_rows(fleet["bandwidth"]))
    if ft.empty:
        return
    ft = ft.assign(kind=ft["mode"].str.replace(r"@.*", "", regex=True))
    # Medians per host and kind in one pass (a loop over hosts costs seconds per thousand).
    med = ft.groupby(["host", "kind"]).gbs_best.median().unstack("kind")
    if "threaded" not in med.columns:
        return
    ref = med.pop("threaded")
    med = med[ref > 0]
    ref = ref[ref > 0]
    for kind in sorted(med.columns):
        m = Metric(f"first_touch_penalty_{kind}_pct", f"first-touch penalty {kind}", "%",
                   "lower", judged=False)
        penalty = (100 * (1 - med[kind] / ref)).dropna()
        if len(penalty):
            catalogue[m.name] = m
        out.extend((host, m.name, float(x), np.nan) for host, x in penalty.items())


def _mlp_pair(rows):
    """The columns that name one node pair of one run's rank (the file, where the frame has it:
    a host measured on two days is two pairs)."""
    return [c for c in ("file", "host", "rank", "cpu_node", "mem_node") if c in rows.columns]


def mlp_in_flight(latency):
    """mlp's ok rows with `in_flight`: lines in flight by Little's law, the pair's 1-chain
    latency (the idle latency) over its ns per load with N chains. A pair without a 1-chain row
    has none."""
    rows = ok_rows(latency, experiment="mlp") if len(latency) else latency
    if rows.empty or "chains" not in rows.columns:
        return rows.iloc[0:0].assign(in_flight=pd.Series(dtype=float))
    pair = _mlp_pair(rows)
    rows = rows.assign(_u=row_spread_pct(rows, "latency_ns_median"))
    ones = rows[rows.chains == 1].groupby(pair)
    idle = pd.concat([ones.latency_ns_median.median().rename("_idle"),
                      ones._u.max().rename("_idle_u")], axis=1)
    rows = rows.join(idle, on=pair)
    # A ratio's relative uncertainty: its two figures' added.
    return rows.assign(in_flight=rows._idle / rows.latency_ns_median,
                       in_flight_u=rows._idle_u + rows._u).drop(columns=["_idle", "_idle_u",
                                                                         "_u"])


def _mlp_metrics(fleet, out, catalogue):
    """The most lines in flight one core sustained (its best chain count), local and remote:
    a core's miss buffers and the path to the memory, not the memory's speed alone. The best
    is taken over the chain counts whose figure is not noisy (a noisy one is shown in the
    curve, and judges nothing, not even which count is best), over all of them where every one
    is; its uncertainty is its ratio's."""
    rows = mlp_in_flight(fleet["latency"]).dropna(subset=["in_flight"])
    if rows.empty:
        return
    pair = _mlp_pair(rows)
    quiet = ~is_noisy(rows.in_flight_u)
    has_quiet = quiet.groupby([rows[c] for c in pair]).transform("any")
    rows = rows[quiet | ~has_quiet]
    best = rows.loc[rows.groupby(pair).in_flight.idxmax()]
    local = best.cpu_node == best.mem_node
    for where, part in (("local", best[local]), ("remote", best[~local])):
        m = Metric(f"mlp_lines_{where}", f"lines in flight per core {where}", "lines", "higher",
                   judged=False)
        grouped = part.groupby("host")
        med = grouped.in_flight.median().dropna()
        spread = grouped.in_flight_u.max().reindex(med.index)
        if len(med):
            catalogue[m.name] = m
        out.extend(zip(med.index, [m.name] * len(med), med.astype(float), spread.astype(float)))


# The node-type comparison's core-to-core classes: within an L3 (a CCX), between L3s of one
# package (other CCXs, other nodes), and between packages.
C2C_GROUPS = (("intra_l3", "within an L3", ("same_l2", "same_l3")),
              ("inter_l3", "between L3s of a package", ("same_node", "same_package")),
              ("cross_package", "between packages", ("cross_package",)))


def _c2c_metrics(fleet, out, catalogue):
    """Core-to-core latency (hitm, one way) per host: the median over its pairs of a class
    group of each pair's median. Shown, not judged: a figure of the fabric's topology as much as
    of its health, and one pair per node or cache is few to judge a host by."""
    try:
        rows = ok_rows(fleet["c2c_latency"], transfer="hitm")
    except KeyError:  # files of a schema before the table
        return
    if not len(rows):
        return
    for key, words, classes in C2C_GROUPS:
        part = rows[rows.pair_class.isin(classes)]
        if not len(part):
            continue
        m = Metric(f"c2c_{key}_ns", f"core-to-core latency {words}", "ns", "lower", judged=False)
        catalogue[m.name] = m
        _per_host(part, "latency_ns_median", m.name, out)


def injection_rows(bandwidth):
    """injection's ok rows, bound to one node, with `where`: local or remote."""
    rows = (ok_rows(bandwidth, experiment="injection", mem_policy="bind") if len(bandwidth)
            else bandwidth)
    if rows.empty:
        return rows.assign(where=pd.Series(dtype=str))
    return rows.assign(where=np.where(rows.cpu_node == rows.mem_node, "local", "remote"))


def _injection_metrics(fleet, out, catalogue):
    """Per host and mix, local and remote: the median over its pairs of each pair's best bus
    GB/s. Shown, not judged: the bandwidth matrix's read and triad judge the memory already;
    the mixes show what its writes cost."""
    rows = injection_rows(fleet["bandwidth"])
    if rows.empty:
        return
    for (kernel, where), part in rows.groupby(["kernel", "where"], sort=False):
        med = part.groupby("host").bus_gbs_best.median().dropna()
        if not len(med):
            continue
        m = Metric(f"injection_{kernel}_{where}", f"injection {kernel} {where}, bus", "GB/s",
                   "higher", judged=False)
        catalogue[m.name] = m
        out.extend((host, m.name, float(x), np.nan) for host, x in med.items())


def max_bandwidth_rows(bandwidth):
    """max_bandwidth's ok whole-run rows (every node's cores at once), with `layout`: local
    (each node its own memory) or link (node i on node (i + N/2) mod N's)."""
    rows = ok_rows(bandwidth, experiment="max_bandwidth") if len(bandwidth) else bandwidth
    if rows.empty:
        return rows.assign(layout=pd.Series(dtype=str))
    rows = rows[rows.cpu_node < 0]
    return rows.assign(layout=np.where(rows.pair_class == "local", "local", "link"))


def _max_bandwidth_metrics(fleet, out, catalogue):
    """Per host, kernel and layout: the whole run's best GB/s (the median where several files
    hold the host). Shown, not judged, as the mixes are: the matrix judges each node's memory."""
    rows = max_bandwidth_rows(fleet["bandwidth"])
    if rows.empty:
        return
    for (kernel, layout), part in rows.groupby(["kernel", "layout"], sort=False):
        m = Metric(f"max_bandwidth_{kernel}_{layout}",
                   f"max bandwidth {kernel}, every node at once, {layout}", "GB/s", "higher",
                   judged=False)
        catalogue[m.name] = m
        _per_host(part, "gbs_best", m.name, out)


def host_metrics(fleet, hosts):
    """Long frame host, type, metric, value, spread_pct, noisy; and the catalogue of metrics
    found (in order). noisy: noise.is_noisy(spread_pct). value is NaN for a cache level
    not judged on the host (no measured step): shown as such, never judged or compared."""
    out, catalogue = [], {}
    _matrix_metrics(fleet, out, catalogue)
    _cache_metrics(fleet, hosts, out, catalogue)
    _first_touch_metrics(fleet, out, catalogue)
    _mlp_metrics(fleet, out, catalogue)
    _c2c_metrics(fleet, out, catalogue)
    _injection_metrics(fleet, out, catalogue)
    _max_bandwidth_metrics(fleet, out, catalogue)
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
