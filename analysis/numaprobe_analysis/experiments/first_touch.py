# SPDX-License-Identifier: BSD-3-Clause
"""first_touch: read bandwidth of a buffer first written serially from one node, by every
thread, by threads of the wrong node, interleaved or bound. Shown, not judged: each mode's
penalty against threaded first touch, and where each mode put the pages (/placement)."""

import numpy as np

from ..names import MemPolicy, Status
from ..plotting import Skipped, by_type, plt, skip_reason
from ..rows import Metric, ok_rows
from .experiment import Experiment, Figure


def first_touch_modes(bandwidth):
    """The first_touch rows that ran, with a `mode` column: serial@N, threaded, mismatched,
    interleave, bind (the config's names; files before schema 0.10.0 wrote `bound`)."""
    ft = bandwidth[(bandwidth.experiment == "first_touch")
                   & bandwidth.status.isin([Status.OK, Status.INVALID])] \
        if len(bandwidth) else bandwidth
    if ft.empty:
        return ft
    ft = ft.copy()
    init = ft.init_mode.replace("bound", "bind")
    ft["mode"] = np.where(init == "serial", "serial@" + ft.mem_node.astype(str),
                          np.where(ft.mem_policy == MemPolicy.INTERLEAVE, "interleave", init))
    return ft


def metrics(fleet, hosts, out, catalogue):
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
    types = list(by_type(v, pages))
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


DOC = (
    ("first-touch penalty MODE (%)",
     "`first_touch` rows: read bandwidth lost against threaded first touch, `100 * (1 - "
     "GB/s(mode) / GB/s(threaded))`, for serial (median over the writing nodes), mismatched, "
     "interleave, bind"),
)


EXPERIMENT = Experiment(
    "first_touch", doc=DOC, metrics=metrics,
    figures=(Figure("first_touch_pages", "First-touch page distribution", first_touch_pages),))
