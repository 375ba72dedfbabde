# SPDX-License-Identifier: BSD-3-Clause
"""What the checks of a whole run's file share (tests/test_run_results.py and run_checks/)."""

# The least share of a measurement's pages on the node asked for.
PLACED = 0.99


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def cpulist(s):
    """The CPUs of a Linux cpulist ("0-3,8")."""
    cpus = set()
    for part in filter(None, s.split(",")):
        first, _, last = part.partition("-")
        cpus.update(range(int(first), int(last or first) + 1))
    return cpus


def node_cpus(tables):
    """(rank, node) -> the CPUs of that node as the rank saw them (/numa_nodes)."""
    return {(int(n["rank"]), int(n["node"])): cpulist(text(n["cpu_list"]))
            for n in tables["numa_nodes"]}


def assert_none(wrong):
    assert not wrong, f"{len(wrong)} problem(s):\n" + "\n".join(wrong[:40])
