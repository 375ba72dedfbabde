# SPDX-License-Identifier: BSD-3-Clause
"""mlp: one core chasing N chains at once. Shown, not judged: the lines in flight it sustains
(Little's law), local and remote, and their curve by chains."""

import numpy as np
import pandas as pd

from ..noise import is_noisy, row_spread_pct
from ..plotting import Skipped, by_type, class_curves, plt, skip_reason
from ..rows import Metric, by_where, ok_rows
from .experiment import Experiment, Figure


def _pair(rows):
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
    pair = _pair(rows)
    rows = rows.assign(_u=row_spread_pct(rows, "latency_ns_median"))
    ones = rows[rows.chains == 1].groupby(pair)
    idle = pd.concat([ones.latency_ns_median.median().rename("_idle"),
                      ones._u.max().rename("_idle_u")], axis=1)
    rows = rows.join(idle, on=pair)
    # A ratio's relative uncertainty: its two figures' added.
    return rows.assign(in_flight=rows._idle / rows.latency_ns_median,
                       in_flight_u=rows._idle_u + rows._u).drop(columns=["_idle", "_idle_u",
                                                                         "_u"])


def metrics(fleet, hosts, out, catalogue):
    """The most lines in flight one core sustained (its best chain count), local and remote:
    a core's miss buffers and the path to the memory, not the memory's speed alone. The best
    is taken over the chain counts whose figure is not noisy (a noisy one is shown in the
    curve, and judges nothing, not even which count is best), over all of them where every one
    is; its uncertainty is its ratio's."""
    rows = mlp_in_flight(fleet["latency"]).dropna(subset=["in_flight"])
    if rows.empty:
        return
    pair = _pair(rows)
    quiet = ~is_noisy(rows.in_flight_u)
    has_quiet = quiet.groupby([rows[c] for c in pair]).transform("any")
    rows = rows[quiet | ~has_quiet]
    # Each pair's first row of its most lines in flight (groupby's idxmax, without a Python
    # call per pair: seconds at 10,000 hosts).
    rows = rows.dropna(subset=pair)
    best = rows.assign(_at=np.arange(len(rows))).sort_values(
        [*pair, "in_flight", "_at"], ascending=[*[True] * len(pair), False, True]).drop_duplicates(
        pair).drop(columns="_at")
    for where, part in by_where(best):
        m = Metric(f"mlp_lines_{where}", f"lines in flight per core {where}", "lines", "higher",
                   judged=False)
        grouped = part.groupby("host")
        med = grouped.in_flight.median().dropna()
        spread = grouped.in_flight_u.max().reindex(med.index)
        if len(med):
            catalogue[m.name] = m
        out.extend(zip(med.index, [m.name] * len(med), med.astype(float), spread.astype(float)))


def mlp_curves(v):
    """Lines in flight (Little's law) against chains chased at once, per node type and pair
    class: where the curve flattens, the core or the path to memory is full."""
    rows = mlp_in_flight(v.fleet["latency"]).dropna(subset=["in_flight"])
    if rows.empty:
        raise Skipped(skip_reason(v.fleet["latency"], "mlp", "no mlp rows with status ok"))
    types = list(by_type(v, rows))
    fig, axes = plt.subplots(1, len(types), figsize=(6 * len(types), 4.5), squeeze=False)
    for ax, (typ, part) in zip(axes[0], types):
        class_curves(ax, part, "chains", "chains", "in_flight")
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


DOC = (
    ("lines in flight per core local / remote (lines)",
     "`/latency`, `mlp`: per node pair, the most lines in flight any chain count reached, by "
     "Little's law `latency_ns_median(1 chain) / latency_ns_median(N chains)`; shown, not judged "
     "(a core's miss buffers as much as its memory)"),
)


EXPERIMENT = Experiment("mlp", doc=DOC, metrics=metrics, figures=(
    Figure("mlp_curves", "Memory-level parallelism: lines in flight per core", mlp_curves),))
