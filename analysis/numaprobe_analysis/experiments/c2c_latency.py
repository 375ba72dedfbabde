# SPDX-License-Identifier: BSD-3-Clause
"""c2c_latency: a cache line handed between two CPUs (/c2c_latency), Modified (hitm) and clean
(hit) in its owner's cache. Shown, not judged: the one-way latency within an L3, between L3s
and between packages, and the CPU x CPU matrix per node type."""

import pandas as pd

from ..names import CorePairClass as C
from ..plotting import heat, ok_rows_by_type, plt
from ..rows import Metric, ok_rows, per_host
from .experiment import Experiment, Figure

# The node-type comparison's core-to-core classes: within an L3 (a CCX), between L3s of one
# package (other CCXs, other nodes), and between packages.
C2C_GROUPS = (("intra_l3", "within an L3", (C.SAME_L2, C.SAME_L3)),
              ("inter_l3", "between L3s of a package", (C.SAME_NODE, C.SAME_PACKAGE)),
              ("cross_package", "between packages", (C.CROSS_PACKAGE,)))


def metrics(fleet, hosts, out, catalogue):
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
        per_host(part, "latency_ns_median", m.name, out)


C2C_LABELS = 24  # CPUs of a matrix above which its cells carry no figures, only colour


def _panel(ax, rows, title):
    """One transfer's CPU x CPU matrix, both halves filled (a pair is measured one way)."""
    both = pd.concat([rows, rows.rename(columns={"cpu_a": "cpu_b", "cpu_b": "cpu_a"})])
    m = both.groupby(["cpu_a", "cpu_b"]).latency_ns_median.median().unstack()
    if len(m.index) <= C2C_LABELS:
        heat(ax, m, title, "{:.0f}", "viridis_r")
    else:
        image = ax.imshow(m.to_numpy(dtype=float), cmap="viridis_r")
        ax.figure.colorbar(image, ax=ax, shrink=0.8)
        ax.set_title(title, fontsize=9)
    ax.set_xlabel("CPU reading the line")
    ax.set_ylabel("CPU owning the line")


def c2c_heatmap(v):
    """One-way ns of a cache line between two CPUs, per node type (the median over its hosts),
    Modified (hitm) and clean (hit) in the owner's cache."""
    types = ok_rows_by_type(v, "c2c_latency")
    fig, axes = plt.subplots(len(types), 2, figsize=(12, 5 * len(types)), squeeze=False)
    for row, (typ, rows) in zip(axes, types):
        for ax, transfer, words in zip(row, ("hitm", "hit"), ("Modified there", "clean there")):
            part = rows[rows.transfer == transfer]
            if len(part):
                _panel(ax, part, f"{typ}\ncore-to-core latency, ns one way ({transfer}: "
                       f"{words})")
            else:
                ax.set_axis_off()
                ax.text(0.5, 0.5, f"no {transfer} rows", ha="center")
    fig.tight_layout()
    return fig


DOC = (
    ("core-to-core latency within an L3 / between L3s of a package / between packages (ns)",
     "`/c2c_latency`, `hitm` rows: per host, the median over its pairs of each pair's "
     "`latency_ns_median`, for the classes `same_l2` and `same_l3`; `same_node` and "
     "`same_package`; `cross_package` (SMT pairs in none); shown, not judged (a figure of the "
     "fabric's layout as much as of its health, and `per_node` gives few pairs)"),
)


EXPERIMENT = Experiment("c2c_latency", doc=DOC, metrics=metrics, figures=(
    Figure("c2c_heatmap", "Core-to-core latency: a cache line between two CPUs", c2c_heatmap),))
