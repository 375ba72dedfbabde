# SPDX-License-Identifier: BSD-3-Clause
"""Plots, each a function of a FleetView that returns a figure or raises Skipped(reason).

Rendered with matplotlib's Agg backend (no display needed) and saved as PNG and SVG."""

import os
from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.ticker import FuncFormatter  # noqa: E402

from .fleetview import skip_reason  # noqa: E402
from .metrics import (CACHE_LEVELS, cache_curves, first_touch_modes,  # noqa: E402
                      injection_rows, lines_touched, max_bandwidth_rows, measured_levels, mlp_in_flight, ok_rows)
from .summary import is_host_report  # noqa: E402


class Skipped(Exception):
    """The data does not support this plot; the message says why."""


@dataclass
class Plot:
    name: str
    title: str
    png: str = ""
    svg: str = ""
    skipped: str = ""  # reason, when not drawn


def _colour(v, typ):
    return plt.get_cmap("tab10")(v.type_names().index(typ) % 10)


def _bytes_label(x, _pos=None):
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if x >= scale:
            return f"{x / scale:g} {unit}"
    return f"{x:g} B"


def _by_type(v, frame):
    """(type, rows of that type's hosts) for each type with rows, in the report's type order."""
    for typ in v.type_names():
        rows = frame[frame.host.isin(v.type_hosts(typ))]
        if len(rows):
            yield typ, rows


def latency_vs_working_set(v):
    sweep = cache_curves(v.fleet)
    if sweep.empty or sweep.size_bytes.nunique() < 2:
        raise Skipped("no latency_sweep rows (pattern random) over two or more working sets")
    levels = measured_levels(v.fleet)
    fig, ax = plt.subplots(figsize=(9, 5))
    for typ, rows in _by_type(v, sweep):
        per_host = (rows.assign(lines=lines_touched(rows))
                    .groupby(["host", "lines"]).latency_ns_median.median().unstack(0))
        q = per_host.quantile([0.25, 0.5, 0.75], axis=1).T
        colour = _colour(v, typ)
        ax.plot(q.index, q[0.5], marker="o", ms=3, color=colour,
                label=f"{typ} (median of {per_host.shape[1]} host(s))")
        ax.fill_between(q.index, q[0.25], q[0.75], color=colour, alpha=0.25, lw=0)
        caches = v.hosts[v.hosts["type"] == typ].iloc[0]
        for level, col in CACHE_LEVELS:
            size = int(caches.get(col, 0) or 0)
            if size > 0:
                ax.axvline(size, color=colour, ls=":", lw=1)
                ax.annotate(level, (size, 1), xycoords=("data", "axes fraction"),
                            xytext=(2, -12), textcoords="offset points", color=colour,
                            fontsize=8)
        judged = levels[levels.host.isin(v.type_hosts(typ)) & (levels.measured_bytes > 0)]
        for level, m in judged.groupby("level").measured_bytes.median().items():
            ax.axvline(m, color=colour, ls="--", lw=1)
            ax.annotate(f"L{level} measured", (m, 0), xycoords=("data", "axes fraction"),
                        xytext=(2, 4), textcoords="offset points", color=colour, fontsize=7,
                        rotation=90)
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_formatter(FuncFormatter(_bytes_label))
    ax.set_yscale("log")
    ax.set_xlabel("cache lines the chase touches (log2; one 64 B line per slot)")
    ax.set_ylabel("ns per dependent load (median)")
    ax.set_title("Latency vs working set, random chase, local memory\nband = IQR over hosts, "
                 "dotted = hwloc's cache sizes, dashed = measured steps (/cache_levels)",
                 fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    return fig


def _type_curves(v, ax, rows, x, y):
    """Per node type: the median over its hosts of y by x, with the IQR band."""
    for typ, r in _by_type(v, rows):
        per_host = r.groupby(["host", x])[y].median().unstack(0)
        q = per_host.quantile([0.25, 0.5, 0.75], axis=1).T.sort_index()
        colour = _colour(v, typ)
        ax.plot(q.index, q[0.5], marker="o", ms=3, color=colour,
                label=f"{typ} (median of {per_host.shape[1]} host(s))")
        if per_host.shape[1] > 1:
            ax.fill_between(q.index, q[0.25], q[0.75], color=colour, alpha=0.25, lw=0)


def _kernel_label(rows):
    """The kernel, with the stride of read_strided (one curve per stride)."""
    if "stride_bytes" not in rows.columns:
        return rows.kernel
    strided = ((rows.kernel == "read_strided") & (rows.stride_bytes > 0)).to_numpy()
    label = rows.kernel.to_numpy(copy=True)
    # Only the strided rows are formatted: text built for every row costs seconds in a fleet.
    label[strided] = [f"read_strided:{s}B" for s in rows.stride_bytes.to_numpy()[strided]]
    return label


def _bandwidth_rows(v, experiment):
    rows = ok_rows(v.fleet["bandwidth"], experiment=experiment)
    if rows.empty:
        raise Skipped(skip_reason(v.fleet["bandwidth"], experiment,
                                  f"no {experiment} rows with status ok"))
    return rows.assign(kernel_label=_kernel_label(rows))


def _panels(n):
    cols = min(3, n)
    fig, axes = plt.subplots((n + cols - 1) // cols, cols, figsize=(5.5 * cols, 4.2 *
                                                                     ((n + cols - 1) // cols)),
                             squeeze=False)
    for ax in list(axes.flat)[n:]:
        ax.set_axis_off()
    return fig, list(axes.flat)[:n]


def bandwidth_vs_working_set(v):
    """bandwidth_sweep: GB/s against bytes per array, one panel per kernel (STREAM's and
    likwid-bench's view: where each cache level ends), GB/s from zero."""
    rows = _bandwidth_rows(v, "bandwidth_sweep")
    kernels = sorted(rows.kernel_label.unique())
    fig, axes = _panels(len(kernels))
    for ax, kernel in zip(axes, kernels):
        _type_curves(v, ax, rows[rows.kernel_label == kernel], "size_bytes", "gbs_best")
        ax.set_xscale("log", base=2)
        ax.xaxis.set_major_formatter(FuncFormatter(_bytes_label))
        ax.set_ylim(bottom=0)
        ax.tick_params(axis="x", labelrotation=30, labelsize=8)
        ax.set_xlabel("bytes per array (log2)")
        ax.set_ylabel("GB/s (best)")
        ax.set_title(f"{kernel}: bandwidth vs working set, first node's cores", fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def thread_scaling(v):
    """thread_scaling: GB/s against threads on the first node, one panel per kernel."""
    rows = _bandwidth_rows(v, "thread_scaling")
    kernels = sorted(rows.kernel_label.unique())
    fig, axes = _panels(len(kernels))
    for ax, kernel in zip(axes, kernels):
        _type_curves(v, ax, rows[rows.kernel_label == kernel], "threads", "gbs_best")
        ax.set_ylim(bottom=0)
        ax.set_xlim(left=0)
        ax.set_xlabel("threads (one per core of the first node)")
        ax.set_ylabel("GB/s (best)")
        ax.set_title(f"{kernel}: thread scaling", fontsize=9)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def stride_sweep(v):
    """stride_sweep: ns per load of a sequential chase against its stride (where the
    prefetchers stop helping), ns from zero."""
    rows = ok_rows(v.fleet["latency"], experiment="stride_sweep")
    if rows.empty:
        raise Skipped(skip_reason(v.fleet["latency"], "stride_sweep",
                                  "no stride_sweep rows with status ok"))
    fig, ax = plt.subplots(figsize=(9, 5))
    _type_curves(v, ax, rows, "slot_bytes", "latency_ns_median")
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_formatter(FuncFormatter(_bytes_label))
    ax.set_ylim(bottom=0)
    ax.set_xlabel("stride (log2)")
    ax.set_ylabel("ns per dependent load (median)")
    ax.set_title("Stride sweep: sequential chase, local memory", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    return fig


def _matrix(rows, value):
    return rows.groupby(["cpu_node", "mem_node"])[value].median().unstack()


def _flagged(rows):
    """Cells that any host of the type flagged as implausible (the binary's `flags` column)."""
    if "flags" not in rows:
        return None
    return rows.assign(flagged=rows["flags"].astype(str).str.len() > 0).groupby(
        ["cpu_node", "mem_node"]).flagged.any().unstack()


def _heat(ax, m, title, fmt, cmap, flagged=None):
    data = m.to_numpy(dtype=float)
    ax.imshow(data, cmap=cmap)
    ax.set_xticks(range(len(m.columns)), [str(c) for c in m.columns])
    ax.set_yticks(range(len(m.index)), [str(i) for i in m.index])
    ax.set_xlabel("memory node")
    ax.set_ylabel("CPU node")
    ax.set_title(title, fontsize=9)
    for (i, j), x in np.ndenumerate(data):
        if np.isfinite(x):
            mark = ""
            if flagged is not None and bool(flagged.reindex(index=m.index, columns=m.columns)
                                            .fillna(False).iat[i, j]):
                mark = "?"  # a plausibility flag on some host: see the host's rows
            ax.text(j, i, fmt.format(x) + mark, ha="center", va="center", fontsize=8,
                    bbox={"boxstyle": "round", "fc": "white", "alpha": 0.6, "lw": 0})


def numa_heatmaps(v):
    lat = ok_rows(v.fleet["latency"], experiment="latency_matrix", mem_policy="bind")
    bw = ok_rows(v.fleet["bandwidth"], experiment="bandwidth_matrix", mem_policy="bind",
             kernel="read")
    dist = v.fleet["distances"]
    if lat.empty:
        raise Skipped("no latency_matrix rows (policy bind) with status ok")
    types = [(t, r) for t, r in _by_type(v, lat) if r.mem_node.nunique() >= 2]
    if not types:
        raise Skipped("every node type has a single NUMA node measured: no remote pairs to map")
    fig, axes = plt.subplots(len(types), 3, figsize=(13, 4 * len(types)), squeeze=False)
    for row, (typ, rows) in zip(axes, types):
        hosts = v.type_hosts(typ)
        _heat(row[0], _matrix(rows, "latency_ns_median"),
              f"{typ}\nidle latency, ns (median; ? implausible)", "{:.0f}", "viridis_r",
              _flagged(rows))
        b = bw[bw.host.isin(hosts)]
        if len(b):
            _heat(row[1], _matrix(b, "gbs_best"),
                  f"{typ}\nread bandwidth, GB/s (median; ? implausible)", "{:.1f}", "viridis",
                  _flagged(b))
        else:
            row[1].set_axis_off()
            row[1].text(0.5, 0.5, "no bandwidth_matrix read rows", ha="center")
        d = dist[dist.host.isin(hosts)] if len(dist) else dist
        if len(d) and (d.slit > 0).any():
            slit = d.groupby(["from_node", "to_node"]).slit.median().unstack()
            slit.index.name, slit.columns.name = "cpu_node", "mem_node"
            _heat(row[2], slit, f"{typ}\nfirmware distance (SLIT)", "{:.0f}", "viridis_r")
        else:
            row[2].set_axis_off()
            row[2].text(0.5, 0.5, "firmware gives no SLIT", ha="center")
    fig.tight_layout()
    return fig


STRIP_MIN_PCT = 15.0  # the narrowest strip axis, +-; wider only to hold every host


STRIP_POINTS = 300  # hosts of a type above which its strip is a density, not dots
STRIP_LABELS = 8  # outlier labels per type and panel; the rest are counted


def host_strips(v):
    """Each host's deviation in % from its type's median, per metric. The axis is symmetric and
    never narrower than +-STRIP_MIN_PCT, so a spread of 0.001% stays a flat row of dots and
    only a real deviation leaves the middle; outlier labels stay inside the figure."""
    if is_host_report(v):
        raise Skipped("a single host: no peers to place it among (see the host figures)")
    metrics = [k for k, m in v.catalogue.items() if m.judged]
    if not metrics:
        raise Skipped("no headline metrics measured (no matrix rows with status ok)")
    cols = min(3, len(metrics))
    nrows = (len(metrics) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(5 * cols, 3.6 * nrows), squeeze=False)
    whole = v.outliers[v.outliers.node == ""] if "node" in v.outliers else v.outliers
    flagged = set(zip(whole.host, whole.key))  # a node's row: its host's dot is not off
    types = v.type_names()
    rng = np.random.default_rng(0)  # fixed jitter: the same data draws the same picture
    for ax, key in zip(axes.flat, metrics):
        m = v.catalogue[key]
        vals = v.values[(v.values.metric == key) & v.values.value.notna()]
        med = vals.groupby("type").value.transform("median")
        vals = vals.assign(pct=np.where(med != 0, 100 * (vals.value - med) / med.abs(), 0.0))
        span = max(STRIP_MIN_PCT, float(vals.pct.abs().max()) * 1.25 if len(vals) else 0.0)
        groups = [vals[vals["type"] == t].pct.to_numpy() for t in types]
        ax.boxplot(groups, positions=range(len(types)), widths=0.5, showfliers=False)
        ax.axhline(0, color="grey", lw=0.8)
        for i, t in enumerate(types):
            rows = vals[vals["type"] == t]
            x = i + rng.uniform(-0.15, 0.15, len(rows))
            bad = rows.host.map(lambda h, k=key: (h, k) in flagged).to_numpy(dtype=bool)
            if len(rows) > STRIP_POINTS:
                # Thousands of dots hide each other: the type's density instead, with the
                # outliers still drawn one by one.
                ax.violinplot(rows.pct.to_numpy(), positions=[i], widths=0.7,
                              showextrema=False)
            else:
                ax.scatter(x[~bad], rows.pct[~bad], s=12, color=_colour(v, t), alpha=0.8)
            ax.scatter(x[bad], rows.pct[bad], s=40, color="red", marker="X", zorder=3)
            worst = rows[bad].assign(_x=x[bad]).sort_values("pct", key=abs, ascending=False)
            if len(worst) > STRIP_LABELS:
                ax.annotate(f"+{len(worst) - STRIP_LABELS} more outliers (outliers.csv)",
                            (i, 0), xytext=(0, -30), textcoords="offset points",
                            color="red", fontsize=7, ha="center")
            labelled = zip(worst._x[:STRIP_LABELS], worst.head(STRIP_LABELS).iterrows())
            for k, (xi, (_, r)) in enumerate(labelled):
                # labels point toward the middle, so none leaves the panel, one above the next
                dy = -10 - 9 * k if r.pct > 0 else 4 + 9 * k
                ax.annotate(f"{r.host} ({r.pct:+.0f}%)", (xi, r.pct), xytext=(4, dy),
                            textcoords="offset points", color="red", fontsize=8,
                            annotation_clip=False)
        ax.set_ylim(-span, span)
        ax.set_xlim(-0.6, len(types) - 0.4)
        ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _p: f"{y:+.0f}%"))
        ax.set_xticks(range(len(types)), types, fontsize=7, rotation=10)
        ax.set_title(f"{m.label} ({m.unit}, {m.better} is better)\n% from the type median",
                     fontsize=9)
        ax.grid(True, axis="y", alpha=0.3)
    for ax in list(axes.flat)[len(metrics):]:
        ax.set_axis_off()
    fig.suptitle("Per host, % from its node type's median (red X: outlier host)", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    return fig


MODE_ORDER = ("serial", "threaded", "mismatched", "interleave", "bind")


def _mode_order(mode):
    kind, _, node = mode.partition("@")
    return (MODE_ORDER.index(kind) if kind in MODE_ORDER else len(MODE_ORDER), node)


def first_touch_pages(v):
    ft = first_touch_modes(v.fleet["bandwidth"])
    place = v.fleet["placement"]
    if ft.empty or place.empty:
        raise Skipped(skip_reason(v.fleet["bandwidth"], "first_touch",
                                  "no first_touch rows with status ok"))
    pages = place.merge(ft[["file", "rank", "measurement", "mode", "host"]],
                        on=["file", "rank", "measurement", "host"])
    types = list(_by_type(v, pages))
    if not types:
        raise Skipped("first_touch rows have no page placement rows")
    fig, axes = plt.subplots(1, len(types), figsize=(6 * len(types), 4.5), squeeze=False)
    for ax, (typ, rows) in zip(axes[0], types):
        table = rows.groupby(["mode", "node"]).pages.sum().unstack(fill_value=0)
        table = table.loc[sorted(table.index, key=_mode_order)]
        share = table.div(table.sum(axis=1), axis=0) * 100
        bottom = np.zeros(len(share))
        for node in share.columns:
            ax.bar(share.index, share[node], bottom=bottom, label=f"node {node}")
            bottom += share[node].to_numpy()
        ax.set_ylabel("pages on node (%)")
        ax.set_title(f"{typ}: where first touch put the pages", fontsize=9)
        ax.tick_params(axis="x", labelrotation=20, labelsize=8)
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def _ok_rows_by_type(v, table):
    """[(type, its rows with status ok)], or Skipped with the table's own reason for none."""
    rows = ok_rows(v.fleet[table])
    if rows.empty:
        raise Skipped(skip_reason(v.fleet[table], None, f"no {table} rows with status ok"))
    return list(_by_type(v, rows))


def balancing_series(v):
    types = _ok_rows_by_type(v, "balancing")
    fig, axes = plt.subplots(2, len(types), figsize=(6 * len(types), 6.5), squeeze=False,
                             sharex="col")
    for col, (typ, rows) in enumerate(types):
        for setting, series in rows.groupby("numa_balancing"):
            style = "-" if setting else "--"
            label = f"numa_balancing={setting}"
            for i, (_host, h) in enumerate(_some_hosts(series)):
                h = h.sort_values("t_s")
                axes[0, col].plot(h.t_s, 100 * h.frac_on_to, style, color=f"C{setting}",
                                  alpha=0.6, label=label if i == 0 else None)
                axes[1, col].plot(h.t_s, h.read_gbs, style, color=f"C{setting}", alpha=0.6,
                                  label=label if i == 0 else None)
        axes[0, col].set_title(f"{typ}: threads moved to another node", fontsize=9)
        axes[0, col].set_ylabel("pages on the threads' node (%)")
        axes[1, col].set_ylabel("read GB/s")
        axes[1, col].set_xlabel("seconds since the move")
        axes[0, col].legend(fontsize=8)
    fig.tight_layout()
    return fig


HOST_LINES = 40  # thin per-host lines drawn under a type's median; more add only ink


def _some_hosts(rows):
    """(host, rows) for the first HOST_LINES hosts in name order."""
    hosts = sorted(rows.host.unique())[:HOST_LINES]
    return rows[rows.host.isin(hosts)].groupby("host")


def _curve(rows, by, x, y):
    """Each group of @p by as one point, the median of its x and y, drawn in order of x."""
    values = [c for c in (x, y) if c != by]
    return rows.groupby(by)[values].median().reset_index().sort_values(x)


def _class_curves(ax, rows, by, x, y):
    """Per pair class, a thin line per host and the median over the type's hosts."""
    for i, (pair, p) in enumerate(rows.groupby("pair_class")):
        for _host, h in _some_hosts(p):
            h = _curve(h, by, x, y)
            ax.plot(h[x], h[y], color=f"C{i}", alpha=0.25, lw=1)
        med = _curve(p, by, x, y)
        ax.plot(med[x], med[y], "o-", color=f"C{i}",
                label=f"{pair}: median of {p.host.nunique()} host(s)")


def loaded_latency_curves(v):
    types = _ok_rows_by_type(v, "loaded_latency")
    fig, axes = plt.subplots(1, len(types), figsize=(6 * len(types), 4.5), squeeze=False)
    for ax, (typ, rows) in zip(axes[0], types):
        # by injected load, not by delay
        _class_curves(ax, rows, "delay_spins", "load_gbs", "latency_ns_median")
        ax.set_xlabel("injected load (GB/s)")
        ax.set_ylabel("chase latency, ns (median)")
        ax.set_ylim(bottom=0)
        ax.set_xlim(left=0)
        ax.set_title(f"{typ}: latency under load", fontsize=9)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def mlp_curves(v):
    """mlp: lines in flight (Little's law) against chains chased at once, per node type and
    pair class: where the curve flattens, the core or the path to memory is full."""
    rows = mlp_in_flight(v.fleet["latency"]).dropna(subset=["in_flight"])
    if rows.empty:
        raise Skipped(skip_reason(v.fleet["latency"], "mlp", "no mlp rows with status ok"))
    types = list(_by_type(v, rows))
    fig, axes = plt.subplots(1, len(types), figsize=(6 * len(types), 4.5), squeeze=False)
    for ax, (typ, part) in zip(axes[0], types):
        _class_curves(ax, part, "chains", "chains", "in_flight")
        top = int(part.chains.max())
        ax.plot([1, top], [1, top], ":", color="grey", label="every chain a line in flight")
        ax.set_xlabel("chains chased at once by one core")
        ax.set_ylabel("lines in flight (idle latency / ns per load)")
        ax.set_xlim(left=0)
        ax.set_ylim(bottom=0)
        ax.set_title(f"{typ}: memory-level parallelism", fontsize=9)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


C2C_LABELS = 24  # CPUs of a matrix above which its cells carry no figures, only colour


def _c2c_panel(ax, rows, title):
    """One transfer's CPU x CPU matrix, both halves filled (a pair is measured one way)."""
    both = pd.concat([rows, rows.rename(columns={"cpu_a": "cpu_b", "cpu_b": "cpu_a"})])
    m = both.groupby(["cpu_a", "cpu_b"]).latency_ns_median.median().unstack()
    if len(m.index) <= C2C_LABELS:
        _heat(ax, m, title, "{:.0f}", "viridis_r")
    else:
        image = ax.imshow(m.to_numpy(dtype=float), cmap="viridis_r")
        ax.figure.colorbar(image, ax=ax, shrink=0.8)
        ax.set_title(title, fontsize=9)
    ax.set_xlabel("CPU reading the line")
    ax.set_ylabel("CPU owning the line")


def c2c_heatmap(v):
    """c2c_latency: one-way ns of a cache line between two CPUs, per node type (the median over
    its hosts), Modified (hitm) and clean (hit) in the owner's cache."""
    types = _ok_rows_by_type(v, "c2c_latency")
    fig, axes = plt.subplots(len(types), 2, figsize=(12, 5 * len(types)), squeeze=False)
    for row, (typ, rows) in zip(axes, types):
        for ax, transfer, words in zip(row, ("hitm", "hit"), ("Modified there", "clean there")):
            part = rows[rows.transfer == transfer]
            if len(part):
                _c2c_panel(ax, part, f"{typ}\ncore-to-core latency, ns one way ({transfer}: "
                           f"{words})")
            else:
                ax.set_axis_off()
                ax.text(0.5, 0.5, f"no {transfer} rows", ha="center")
    fig.tight_layout()
    return fig


def injection_mixes(v):
    """injection: bus GB/s per read:write mix, local beside remote, per node type (the median
    over its hosts' pairs)."""
    rows = injection_rows(v.fleet["bandwidth"])
    if rows.empty:
        raise Skipped(skip_reason(v.fleet["bandwidth"], "injection",
                                  "no injection rows with status ok"))
    types = list(_by_type(v, rows))
    fig, axes = plt.subplots(1, len(types), figsize=(7 * len(types), 4.5), squeeze=False)
    for ax, (typ, part) in zip(axes[0], types):
        mixes = list(dict.fromkeys(part.kernel))  # the order the run measured them
        places = sorted(part["where"].unique())
        x = np.arange(len(mixes))
        width = 0.8 / len(places)
        for i, where in enumerate(places):
            med = part[part["where"] == where].groupby("kernel").bus_gbs_best.median()
            ax.bar(x + i * width, [med.get(k, np.nan) for k in mixes], width, label=where,
                   color=f"C{i}")
        ax.set_xticks(x + width * (len(places) - 1) / 2, mixes, rotation=20, fontsize=8)
        ax.set_ylabel("bus GB/s (best of each pair; median)")
        ax.set_title(f"{typ}: bandwidth by read:write mix", fontsize=9)
        ax.grid(True, axis="y", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def max_bandwidth_bars(v):
    """max_bandwidth: every node's cores at once, each on its own memory and across the links,
    per kernel and node type (the median over its hosts), beside the type's theoretical peak."""
    rows = max_bandwidth_rows(v.fleet["bandwidth"])
    if rows.empty:
        raise Skipped(skip_reason(v.fleet["bandwidth"], "max_bandwidth",
                                  "no max_bandwidth whole-run rows with status ok"))
    types = list(_by_type(v, rows))
    fig, axes = plt.subplots(1, len(types), figsize=(6 * len(types), 4.5), squeeze=False)
    for ax, (typ, part) in zip(axes[0], types):
        kernels, layouts = list(dict.fromkeys(part.kernel)), sorted(part.layout.unique())[::-1]
        x, width = np.arange(len(kernels)), 0.8 / len(layouts)
        for i, layout in enumerate(layouts):
            med = part[part.layout == layout].groupby("kernel").gbs_best.median()
            ax.bar(x + i * width, [med.get(k, np.nan) for k in kernels], width, label=layout)
        peak = v.hosts.set_index("host").peak_gbs.reindex(part.host.unique()).median()
        if peak > 0:
            ax.axhline(peak, color="k", linestyle="--", label=f"theoretical peak {peak:.0f}")
        ax.set_xticks(x + width * (len(layouts) - 1) / 2, kernels, fontsize=8)
        ax.set_ylabel("GB/s (best; median over hosts)")
        ax.set_title(f"{typ}: every node's cores at once", fontsize=9)
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


# In the report's reading order.
PLOTS = (
    ("latency_vs_working_set", "Latency vs working set", latency_vs_working_set),
    ("bandwidth_vs_working_set", "Bandwidth vs working set, per kernel",
     bandwidth_vs_working_set),
    ("thread_scaling", "Thread scaling", thread_scaling),
    ("stride_sweep", "Stride sweep", stride_sweep),
    ("numa_heatmaps", "NUMA latency and bandwidth matrices beside firmware distances",
     numa_heatmaps),
    ("host_strips", "Per-host values by node type, % from the type median, outliers labelled",
     host_strips),
    ("loaded_latency_curves", "Loaded latency", loaded_latency_curves),
    ("mlp_curves", "Memory-level parallelism: lines in flight per core", mlp_curves),
    ("c2c_heatmap", "Core-to-core latency: a cache line between two CPUs", c2c_heatmap),
    ("injection_mixes", "Bandwidth by read:write mix, local and remote", injection_mixes),
    ("max_bandwidth_bars", "Every node at once: the host's aggregate and its links",
     max_bandwidth_bars),
    ("first_touch_pages", "First-touch page distribution", first_touch_pages),
    ("balancing_series", "Automatic NUMA balancing over time", balancing_series),
)


def render_all(v, outdir):
    """Draws every plot the data supports into outdir; returns a Plot per entry of PLOTS."""
    os.makedirs(outdir, exist_ok=True)
    done = []
    for name, title, draw in PLOTS:
        try:
            fig = draw(v)
        except Skipped as e:
            done.append(Plot(name, title, skipped=str(e)))
            continue
        png, svg = os.path.join(outdir, f"{name}.png"), os.path.join(outdir, f"{name}.svg")
        fig.savefig(png, dpi=100)
        fig.savefig(svg)
        plt.close(fig)
        done.append(Plot(name, title, png=png, svg=svg))
    return done
