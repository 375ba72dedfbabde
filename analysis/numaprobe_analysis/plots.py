# SPDX-License-Identifier: BSD-3-Clause
"""The report's plots: each experiment's figures (experiments/) and the fleet's own, the hosts'
strips by node type, drawn in READING_ORDER with matplotlib's Agg backend (plotting.py) and
saved as PNG and SVG."""

import os
from dataclasses import dataclass

import numpy as np
from matplotlib.ticker import FuncFormatter

from .experiments import EXPERIMENTS
from .experiments.experiment import Figure
from .plotting import Skipped, colour, plt
from .summary import is_host_report


@dataclass
class Plot:
    name: str
    title: str
    png: str = ""
    svg: str = ""
    skipped: str = ""  # reason, when not drawn


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
                ax.scatter(x[~bad], rows.pct[~bad], s=12, color=colour(v, t), alpha=0.8)
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


# The report's reading order: the working-set curves, the matrices, the hosts against their
# type, then the figures under load and of placement. A figure not named here comes after these,
# in the order of experiments.EXPERIMENTS.
READING_ORDER = ("latency_vs_working_set", "bandwidth_vs_working_set", "thread_scaling",
                 "stride_sweep", "numa_heatmaps", "host_strips", "loaded_latency_curves",
                 "mlp_curves", "c2c_heatmap", "injection_mixes", "max_bandwidth_bars",
                 "first_touch_pages", "balancing_series")

# Every figure (name, title, draw), in the report's reading order.
PLOTS = tuple(sorted(
    (Figure("host_strips",
            "Per-host values by node type, % from the type median, outliers labelled",
            host_strips),
     *(f for e in EXPERIMENTS for f in e.figures)),
    key=lambda f: READING_ORDER.index(f.name) if f.name in READING_ORDER
    else len(READING_ORDER)))


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
