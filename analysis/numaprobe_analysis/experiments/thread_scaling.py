# SPDX-License-Identifier: BSD-3-Clause
"""thread_scaling: the first node's bandwidth by threads, one per core added. A plot."""

from ..plotting import kernel_panels
from .experiment import Experiment, Figure


def thread_scaling(v):
    """GB/s against threads on the first node, one panel per kernel."""
    fig, axes = kernel_panels(v, "thread_scaling", "threads")
    for ax, kernel in axes:
        ax.set_ylim(bottom=0)
        ax.set_xlim(left=0)
        ax.set_xlabel("threads (one per core of the first node)")
        ax.set_ylabel("GB/s (best)")
        ax.set_title(f"{kernel}: thread scaling", fontsize=9)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


EXPERIMENT = Experiment("thread_scaling",
                        figures=(Figure("thread_scaling", "Thread scaling", thread_scaling),))
