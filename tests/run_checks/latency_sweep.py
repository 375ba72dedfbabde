# SPDX-License-Identifier: BSD-3-Clause
"""latency_sweep's rows in a whole run's file (collected by tests/test_run_results.py)."""

from collections import defaultdict

from .common import assert_none, text


def test_cache_levels_after_latency_sweep(tables):
    """The job records /cache_levels after latency_sweep's last item (its descriptor's
    after_last_item): a rank whose random-chase curve has three points or more on its first
    sweeping node's own memory has one row for each cache level hwloc reports on its host (L1d,
    L2, L3), and any other rank none."""
    points, node = defaultdict(int), {}
    for row in tables["latency"]:
        rank, cpu = int(row["rank"]), int(row["cpu_node"])
        if (text(row["experiment"]) == "latency_sweep" and text(row["pattern"]) == "random"
                and text(row["status"]) == "ok" and cpu == int(row["mem_node"])
                and node.setdefault(rank, cpu) == cpu):
            points[rank] += 1
    levels = defaultdict(int)
    for row in tables.get("cache_levels", ()):
        levels[int(row["rank"])] += 1
    wrong = []
    for host in tables["hosts"]:
        rank = int(host["rank"])
        reported = sum(int(host[c]) > 0 for c in ("l1d_bytes", "l2_bytes", "l3_bytes"))
        want = reported if points[rank] >= 3 else 0
        if levels[rank] != want:
            wrong.append(f"rank {rank}: {levels[rank]} /cache_levels row(s), expected {want} "
                         f"({points[rank]} random-chase point(s), {reported} level(s) from hwloc)")
    assert_none(wrong)
