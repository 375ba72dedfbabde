# SPDX-License-Identifier: BSD-3-Clause
"""injection: each node pair streamed with read:write mixes, pages bound to the memory node.
Shown, not judged: each mix's bus GB/s, local and remote (the matrix's read and triad judge
the memory already; the mixes show what its writes cost)."""

import numpy as np
import pandas as pd

from ..names import MemPolicy
from ..plotting import Skipped, by_type, plt, skip_reason
from ..rows import LOCAL, REMOTE, Metric, is_local, ok_rows
from .experiment import Experiment, Figure


def injection_rows(bandwidth):
    """injection's ok rows, bound to one node, with `where`: local or remote."""
    rows = (ok_rows(bandwidth, experiment="injection", mem_policy=MemPolicy.BIND)
            if len(bandwidth) else bandwidth)
    if rows.empty:
        return rows.assign(where=pd.Series(dtype=str))
    return rows.assign(where=np.where(is_local(rows), LOCAL, REMOTE))


def metrics(fleet, hosts, out, catalogue):
    """Per host and mix, local and remote: the median over its pairs of each pair's best bus
    GB/s."""
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


def injection_mixes(v):
    """Bus GB/s per read:write mix, local beside remote, per node type (the median over its
    hosts' pairs)."""
    rows = injection_rows(v.fleet["bandwidth"])
    if rows.empty:
        raise Skipped(skip_reason(v.fleet["bandwidth"], "injection",
                                  "no injection rows with status ok"))
    types = list(by_type(v, rows))
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


DOC = (
    ("injection MIX local / remote, bus (GB/s)",
     "`/bandwidth`, `injection`, policy `bind`: per host and mix (kernel), the median over its "
     "local (CPU node = memory node) or remote pairs of `bus_gbs_best`; shown, not judged (the "
     "bandwidth matrix's read and triad judge the memory already; the mixes show what its writes "
     "cost)"),
)


EXPERIMENT = Experiment("injection", doc=DOC, metrics=metrics, figures=(
    Figure("injection_mixes", "Bandwidth by read:write mix, local and remote", injection_mixes),))
