# SPDX-License-Identifier: BSD-3-Clause
"""bandwidth_matrix: each CPU node's cores streaming each memory node's memory, per kernel
(pages bound to the memory node). Headline figures, judged: each kernel's local and remote
GB/s. Its read matrix is drawn beside latency_matrix's (latency_matrix.numa_heatmaps)."""

from ..names import MemPolicy
from ..rows import Metric, by_where, ok_rows, per_host
from .experiment import Experiment


def metrics(fleet, hosts, out, catalogue):
    bw = ok_rows(fleet["bandwidth"], experiment="bandwidth_matrix", mem_policy=MemPolicy.BIND)
    for kernel in sorted(bw.kernel.unique()):
        for where, rows in by_where(bw[bw.kernel == kernel]):
            m = Metric(f"bw_{kernel}_{where}_gbs", f"bandwidth {kernel} {where}", "GB/s",
                       "higher")
            catalogue[m.name] = m
            per_host(rows, "gbs_best", m.name, out)


DOC = (
    ("bandwidth KERNEL local / remote (GB/s)",
     "`/bandwidth`, `bandwidth_matrix`, policy `bind`, per kernel (read, triad by default), "
     "`gbs_best`"),
)


EXPERIMENT = Experiment("bandwidth_matrix", doc=DOC, metrics=metrics)
