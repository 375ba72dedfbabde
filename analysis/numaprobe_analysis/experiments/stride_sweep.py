# SPDX-License-Identifier: BSD-3-Clause
"""stride_sweep: a sequential chase's ns per load by its stride, local memory: where the
prefetchers stop helping. A plot; its counters' prefetch coverage is counters.py's."""

from matplotlib.ticker import FuncFormatter

from ..plotting import Skipped, bytes_label, plt, skip_reason, type_curves
from ..rows import ok_rows
from .experiment import Experiment, Figure


def stride_sweep(v):
    """ns per load of a sequential chase against its stride, ns from zero."""
    rows = ok_rows(v.fleet["latency"], experiment="stride_sweep")
    if rows.empty:
        raise Skipped(skip_reason(v.fleet["latency"], "stride_sweep",
                                  "no stride_sweep rows with status ok"))
    fig, ax = plt.subplots(figsize=(9, 5))
    type_curves(v, ax, rows, "slot_bytes", "latency_ns_median")
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_formatter(FuncFormatter(bytes_label))
    ax.set_ylim(bottom=0)
    ax.set_xlabel("stride (log2)")
    ax.set_ylabel("ns per dependent load (median)")
    ax.set_title("Stride sweep: sequential chase, local memory", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    return fig


EXPERIMENT = Experiment("stride_sweep",
                        figures=(Figure("stride_sweep", "Stride sweep", stride_sweep),))
