# SPDX-License-Identifier: BSD-3-Clause
"""bandwidth_sweep: the first node's cores streaming by bytes per array, per kernel (STREAM's
and likwid-bench's view: where each cache level ends). A plot, of each host's points the loader
keeps (reducers.kernel_points), not of the rows."""

import pandas as pd
from matplotlib.ticker import FuncFormatter

from ..plotting import bytes_label, kernel_panels
from ..reducers import BW_SWEEP
from .experiment import Experiment, Figure


def bandwidth_vs_working_set(v):
    """GB/s against bytes per array, one panel per kernel, GB/s from zero."""
    points = v.fleet.reduced.get(BW_SWEEP)
    fig, axes = kernel_panels(v, "bandwidth_sweep", "size_bytes",
                              points if points is not None else pd.DataFrame())
    for ax, kernel in axes:
        ax.set_xscale("log", base=2)
        ax.xaxis.set_major_formatter(FuncFormatter(bytes_label))
        ax.set_ylim(bottom=0)
        ax.tick_params(axis="x", labelrotation=30, labelsize=8)
        ax.set_xlabel("bytes per array (log2)")
        ax.set_ylabel("GB/s (best)")
        ax.set_title(f"{kernel}: bandwidth vs working set, first node's cores", fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


EXPERIMENT = Experiment(
    "bandwidth_sweep",
    figures=(Figure("bandwidth_vs_working_set", "Bandwidth vs working set, per kernel",
                    bandwidth_vs_working_set),))
