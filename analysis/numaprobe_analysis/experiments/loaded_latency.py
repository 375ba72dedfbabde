# SPDX-License-Identifier: BSD-3-Clause
"""loaded_latency: a chase's latency while other cores inject load (/loaded_latency), per pair
class. A plot."""

from ..plotting import class_curves, ok_rows_by_type, plt
from .experiment import Experiment, Figure


def loaded_latency_curves(v):
    types = ok_rows_by_type(v, "loaded_latency")
    fig, axes = plt.subplots(1, len(types), figsize=(6 * len(types), 4.5), squeeze=False)
    for ax, (typ, rows) in zip(axes[0], types):
        # by injected load, not by delay
        class_curves(ax, rows, "delay_spins", "load_gbs", "latency_ns_median")
        ax.set_xlabel("injected load (GB/s)")
        ax.set_ylabel("chase latency, ns (median)")
        ax.set_ylim(bottom=0)
        ax.set_xlim(left=0)
        ax.set_title(f"{typ}: latency under load", fontsize=9)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


EXPERIMENT = Experiment("loaded_latency", figures=(
    Figure("loaded_latency_curves", "Loaded latency", loaded_latency_curves),))
