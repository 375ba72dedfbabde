# SPDX-License-Identifier: BSD-3-Clause
"""numa_balancing: threads moved to another node, their pages followed (or not) by the kernel's
automatic NUMA balancing, off and on (/balancing). A plot."""

from ..plotting import ok_rows_by_type, plt, some_hosts
from .experiment import Experiment, Figure


def balancing_series(v):
    types = ok_rows_by_type(v, "balancing")
    fig, axes = plt.subplots(2, len(types), figsize=(6 * len(types), 6.5), squeeze=False,
                             sharex="col")
    for col, (typ, rows) in enumerate(types):
        for setting, series in rows.groupby("numa_balancing"):
            style = "-" if setting else "--"
            label = f"numa_balancing={setting}"
            for i, (_host, h) in enumerate(some_hosts(series)):
                h = h.sort_values("t_s")
                axes[0, col].plot(h.t_s, 100 * h.frac_on_to, style, color=f"C{setting}",
                                  alpha=0.6, label=label if i == 0 else None)
                axes[1, col].plot(h.t_s, h.read_gbs, style, color=f"C{setting}", alpha=0.6,
                                  label=label if i == 0 else None)
        axes[0, col].set_title(f"{typ}: threads moved to another node", fontsize=9)
        axes[0, col].set_ylabel("pages on the threads' node (%)")
        axes[1, col].set_ylabel("read GB/s")
        axes[1, col].set_xlabel("seconds since the move")
        axes[0, col].legend(fontsize=8)
    fig.tight_layout()
    return fig


EXPERIMENT = Experiment("numa_balancing", figures=(
    Figure("balancing_series", "Automatic NUMA balancing over time", balancing_series),))
