# SPDX-License-Identifier: BSD-3-Clause
"""latency_sweep: a chase's latency by working set, from the L1 to memory. Shown, not judged:
the latency at each cache level and in memory (from `/cache_levels`, the steps the binary found
in the sweep), the curves per node type, and the first host of each type's curves as a table."""

import numpy as np
import pandas as pd
from matplotlib.ticker import FuncFormatter

from .. import reducers
from ..fleet import rows_of
from ..names import Status
from ..plotting import Skipped, by_type, bytes_label, colour, plt
from ..rows import Metric
from .experiment import Experiment, Figure

CACHE_LEVELS = (("L1", "l1d_bytes"), ("L2", "l2_bytes"), ("L3", "l3_bytes"))


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
    """Each host's curve of the random chase over local memory in latency_sweep, its first
    sweeping node's (with from: every, each node sweeps): the median ns of its ok rows by lines
    touched (reducers.lines_touched), a Series indexed by host and lines, sorted; made by the
    loader from whole hosts' rows (reducers.sweep_reduction)."""
    curves = fleet.reduced.get(reducers.SWEEP_CURVES)
    if curves is None or not len(curves):
        return pd.Series(dtype=float, index=pd.MultiIndex.from_arrays([[], []],
                                                                      names=["host", "lines"]))
    return curves.set_index(["host", "lines"]).latency_ns_median.sort_index()


def swept_sizes(fleet, which):
    """The sizes swept over every host, sorted: of the hosts' curves (@p which "curve") or of
    their ok rows with a latency ("table")."""
    sizes = fleet.reduced.get(reducers.SWEEP_SIZES)
    if sizes is None:
        return []
    return sorted(set().union(*dict.fromkeys(sizes[which])))


def metrics(fleet, hosts, out, catalogue):
    """Latency at each cache level: from `/cache_levels`, the random chase's latency at the
    last sweep point before the level's measured step (`latency_ns_below`); NaN where the level
    was not judged or no step was found there, so a sweep that never reached the L3, or an L3
    hwloc misreports, claims no L3 latency. Memory: the random chase at the largest swept point
    whose lines touched are at least the last level's size (measured where a step was found,
    else hwloc's), so the chase has left every cache."""
    curves = cache_curves(fleet)
    if not len(curves):  # /cache_levels is judged on the sweep: no ok sweep rows, no level
        return
    # Every host at once, one level at a time: a loop over hosts costs seconds per thousand.
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


def latency_vs_working_set(v):
    curves = cache_curves(v.fleet)
    if curves.empty or len(swept_sizes(v.fleet, "curve")) < 2:
        raise Skipped("no latency_sweep rows (pattern random) over two or more working sets")
    levels = measured_levels(v.fleet)
    fig, ax = plt.subplots(figsize=(9, 5))
    for typ, rows in by_type(v, curves.reset_index()):
        per_host = rows.set_index(["host", "lines"]).latency_ns_median.unstack(0)
        q = per_host.quantile([0.25, 0.5, 0.75], axis=1).T
        c = colour(v, typ)
        ax.plot(q.index, q[0.5], marker="o", ms=3, color=c,
                label=f"{typ} (median of {per_host.shape[1]} host(s))")
        ax.fill_between(q.index, q[0.25], q[0.75], color=c, alpha=0.25, lw=0)
        caches = v.hosts[v.hosts["type"] == typ].iloc[0]
        for level, col in CACHE_LEVELS:
            size = int(caches.get(col, 0) or 0)
            if size > 0:
                ax.axvline(size, color=c, ls=":", lw=1)
                ax.annotate(level, (size, 1), xycoords=("data", "axes fraction"),
                            xytext=(2, -12), textcoords="offset points", color=c,
                            fontsize=8)
        judged = levels[levels.host.isin(v.type_hosts(typ)) & (levels.measured_bytes > 0)]
        for level, m in judged.groupby("level").measured_bytes.median().items():
            ax.axvline(m, color=c, ls="--", lw=1)
            ax.annotate(f"L{level} measured", (m, 0), xycoords=("data", "axes fraction"),
                        xytext=(2, 4), textcoords="offset points", color=c, fontsize=7,
                        rotation=90)
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_formatter(FuncFormatter(bytes_label))
    ax.set_yscale("log")
    ax.set_xlabel("cache lines the chase touches (log2; one 64 B line per slot)")
    ax.set_ylabel("ns per dependent load (median)")
    ax.set_title("Latency vs working set, random chase, local memory\nband = IQR over hosts, "
                 "dotted = hwloc's cache sizes, dashed = measured steps (/cache_levels)",
                 fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    return fig


def sweep_table(fleet, hosts):
    """latency_sweep curves (median ns by working set) of @p hosts, one row per host, CPU node
    (whose core swept), memory node and pattern; a column for every size swept with a latency
    on any host of the fleet."""
    sizes = swept_sizes(fleet, "table")
    if not sizes:
        return pd.DataFrame()
    keys = ["host", "cpu_node", "mem_node", "pattern"]
    rows = rows_of(fleet, "latency", hosts, [*keys[1:], "experiment", "status", "size_bytes",
                                            "latency_ns_median"])
    rows = rows[(rows.experiment == "latency_sweep") & (rows.status == Status.OK)]
    wide = rows.pivot_table(index=keys, columns="size_bytes", values="latency_ns_median") \
        if len(rows) else pd.DataFrame(index=pd.MultiIndex.from_arrays([[]] * 4, names=keys))
    wide = wide.reindex(columns=sizes)
    wide.columns = [_size(c) for c in wide.columns]
    return wide.reset_index().rename(columns={"cpu_node": "CPU node", "mem_node": "memory node"})


def _size(n):
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift}{unit}"
    return f"{n}B"


def tables(v):
    """The first host of each node type's curves (latency_sweep.csv)."""
    first_hosts = v.hosts.groupby("type").host.first()
    sweeps = sweep_table(v.fleet, set(first_hosts))
    if not len(sweeps.columns):
        return {}
    return {"latency_sweep": ("latency_sweep: ns per access (median) by working set, first "
                              "host of each node type, by the node whose core swept", sweeps)}


DOC = (
    ("latency L1, L2, L3 (ns)",
     "`/cache_levels`: `latency_ns_below`, the random chase's latency at the last sweep point "
     "before the level's measured step, where a step was measured (`measured_bytes` > 0); "
     "**NaN** where the level was not judged (`agrees` -1: the sweep's lines do not span it, "
     "e.g. a sweep that never reached the L3, or an L3 of 260 MiB that a virtual machine's hwloc "
     "reports) or no step of 1.3x was found near it. A level measured away from hwloc's size is "
     "read where it was measured. Only hosts with `latency_sweep` rows `ok`; a file without "
     "`/cache_levels` has NaN for every level"),
    ("latency memory (ns)",
     "`latency_sweep`, pattern `random`, local: the largest point whose lines touched "
     "(`size_bytes x 64 / slot_bytes`: one 64 B line per 256 B slot) are at least the last "
     "level's size (its measured size, else hwloc's), where swept that far"),
)


EXPERIMENT = Experiment(
    "latency_sweep", doc=DOC, metrics=metrics, tables=tables,
    figures=(Figure("latency_vs_working_set", "Latency vs working set", latency_vs_working_set),))
