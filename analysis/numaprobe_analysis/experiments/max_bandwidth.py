# SPDX-License-Identifier: BSD-3-Clause
"""max_bandwidth: every node's cores at once, each on its own memory (local) and across the
links (node i on node (i + N/2) mod N's). Shown, not judged, as the mixes are: the matrix
judges each node's memory. Plotted beside the type's theoretical peak."""

import numpy as np
import pandas as pd

from ..names import PairClass
from ..plotting import Skipped, by_type, plt, skip_reason
from ..rows import LOCAL, Metric, ok_rows, per_host
from .experiment import Experiment, Figure

LINK = "link"  # the layout across the links


def max_bandwidth_rows(bandwidth):
    """max_bandwidth's ok whole-run rows (every node's cores at once), with `layout`: LOCAL
    (each node its own memory) or LINK."""
    rows = ok_rows(bandwidth, experiment="max_bandwidth") if len(bandwidth) else bandwidth
    if rows.empty:
        return rows.assign(layout=pd.Series(dtype=str))
    rows = rows[rows.cpu_node < 0]
    return rows.assign(layout=np.where(rows.pair_class == PairClass.LOCAL, LOCAL, LINK))


def metrics(fleet, hosts, out, catalogue):
    """Per host, kernel and layout: the whole run's best GB/s (the median where several files
    hold the host)."""
    rows = max_bandwidth_rows(fleet["bandwidth"])
    if rows.empty:
        return
    for (kernel, layout), part in rows.groupby(["kernel", "layout"], sort=False):
        m = Metric(f"max_bandwidth_{kernel}_{layout}",
                   f"max bandwidth {kernel}, every node at once, {layout}", "GB/s", "higher",
                   judged=False)
        catalogue[m.name] = m
        per_host(part, "gbs_best", m.name, out)


def max_bandwidth_bars(v):
    """Per kernel and node type, the median over its hosts of each layout, beside the type's
    theoretical peak."""
    rows = max_bandwidth_rows(v.fleet["bandwidth"])
    if rows.empty:
        raise Skipped(skip_reason(v.fleet["bandwidth"], "max_bandwidth",
                                  "no max_bandwidth whole-run rows with status ok"))
    types = list(by_type(v, rows))
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


DOC = (
    ("max bandwidth KERNEL, every node at once, local / link (GB/s)",
     "`/bandwidth`, `max_bandwidth`, the whole-run rows (`cpu_node` -1): per host and kernel, "
     "`gbs_best` of the run with every node's cores on their own memory (`pair_class` `local`) "
     "and of the run with node i on node (i + N/2) mod N's (`link`); shown, not judged (the "
     "matrix judges each node's memory; the node rows of the same run, in the file, show which "
     "node fell short under full load)"),
)


EXPERIMENT = Experiment("max_bandwidth", doc=DOC, metrics=metrics, figures=(
    Figure("max_bandwidth_bars", "Every node at once: the host's aggregate and its links",
           max_bandwidth_bars),))
