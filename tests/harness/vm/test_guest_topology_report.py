# SPDX-License-Identifier: BSD-3-Clause
"""The two topology parts of numaprobe's stdout, as run inside a vm-run guest, against what the
guest itself says: the topology block at the head of each host's block must equal `numactl
--hardware` run in the same guest just before (node list, CPUs, sizes, the distance matrix; free
memory within a tolerance, since it changes between the two instants), with each node's package
as vm-run laid them out; and the class table must hold exactly the pair classes of that layout
with their pair counts and SLIT.

    /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider \\
        tests/harness/vm/test_guest_topology_report.py --results FILE --guest-stdout FILE \\
        --guest-numactl FILE --nodes N [--packages P ...] [--sweep-from-every]

numaprobe-in-vm.sh runs it after a guest run with --numactl; the options are
tests/conftest.py's."""

import re

import pytest

from guest_results import assert_none, guest_of, tables

pytestmark = pytest.mark.needs_options("results", "guest_stdout", "guest_numactl", "nodes")

# numactl reads MemFree a moment before numaprobe does, and numaprobe has started MPI and loaded
# its libraries in between: the two may differ by what that start-up took from a node.
FREE_TOLERANCE_MB = 48

HOST_LINE = re.compile(r"^(\S+) \(rank (\d+)\): ")


def parse_hardware(lines):
    """numactl --hardware's fields (numaprobe writes the same lines, indented, plus packages)."""
    hw = {"available": None, "cpus": {}, "size": {}, "free": {}, "package": {}, "columns": None,
          "distances": {}}
    in_distances = False
    for line in lines:
        s = line.strip()
        m = re.fullmatch(r"available: (\d+) nodes \(([^)]*)\)", s)
        if m:
            hw["available"] = (int(m[1]), m[2])
            continue
        m = re.fullmatch(r"node (\d+) (cpus|size|free|package):(.*)", s)
        if m and not in_distances:
            node, field, value = int(m[1]), m[2], m[3].strip()
            hw[field][node] = value.split() if field == "cpus" else value
            continue
        if s == "node distances:":
            in_distances = True
        elif in_distances and s.startswith("node"):
            hw["columns"] = [int(x) for x in s.split()[1:]]
        elif in_distances and re.fullmatch(r"\d+:.*", s):
            row, values = s.split(":", 1)
            hw["distances"][int(row)] = values.split()
    return hw


def host_blocks(stdout):
    """Each host block's lines, from its header line up to the next host (or the end)."""
    blocks, current = [], None
    for line in stdout.splitlines():
        if HOST_LINE.match(line):
            current = [line]
            blocks.append(current)
        elif current is not None:
            current.append(line)
    return blocks


def topology_lines(block):
    """The topology block: the lines after its heading that numactl's format knows."""
    out = []
    for line in block[2:]:
        if not re.match(r"  (available:|node |\s*\d+:)", line):
            break
        out.append(line)
    return out


def class_rows(block):
    """The class table: class name -> its columns as printed."""
    rows, inside = {}, False
    for line in block:
        if line.startswith("  by pair class:"):
            inside = True
            continue
        if not inside or line.startswith("  class "):
            continue
        fields = line.split()
        if not line.startswith("  ") or not fields or fields[0] not in (
                "local", "same_package", "cross_package", "memory_only"):
            break
        rows[fields[0]] = fields[1:]
    return rows


@pytest.fixture(scope="module")
def guest(pytestconfig):
    return guest_of(pytestconfig)


@pytest.fixture(scope="module")
def stdout(pytestconfig):
    with open(pytestconfig.getoption("guest_stdout"), encoding="utf-8", errors="replace") as f:
        return f.read()


@pytest.fixture(scope="module")
def numactl(pytestconfig, guest):
    path = pytestconfig.getoption("guest_numactl")
    with open(path, encoding="utf-8", errors="replace") as f:
        hw = parse_hardware(f.read().splitlines())
    assert hw["available"] is not None and len(hw["size"]) == guest.nodes, \
        f"{path}: not numactl --hardware output of {guest.nodes} nodes"
    return hw


@pytest.fixture(scope="module")
def block(stdout):
    """The one host's block of the report (the guest is one host)."""
    blocks = host_blocks(stdout)
    assert len(blocks) == 1, f"{len(blocks)} host blocks on stdout, want 1"
    return blocks[0]


@pytest.fixture(scope="module")
def mine(block):
    return parse_hardware(topology_lines(block))


def test_block_opens_with_topology(block):
    assert len(block) > 1 and block[1].startswith("  NUMA topology"), \
        f"{block[0].split()[0]}: the block does not open with the topology: {block[1:2]}"


@pytest.mark.parametrize("field", ["available", "cpus", "size", "columns", "distances"])
def test_topology_is_numactls(mine, numactl, field):
    assert mine[field] == numactl[field], \
        f"{field} {mine[field]}, numactl --hardware says {numactl[field]}"


def test_free_memory(mine, numactl):
    wrong = []
    for node, free in numactl["free"].items():
        got = mine["free"].get(node, "unknown").split()[0]
        want = int(free.split()[0])
        if not (got.isdigit() and abs(int(got) - want) <= FREE_TOLERANCE_MB):
            wrong.append(f"node {node} free {got} MB, numactl --hardware says {want} MB "
                         f"(tolerance {FREE_TOLERANCE_MB} MB)")
    assert_none(wrong)


def test_packages(mine, guest):
    assert_none([f"node {node} package {mine['package'].get(node)}, want "
                 f"{guest.layout.package(node)}" for node in range(guest.nodes)
                 if mine["package"].get(node) != str(guest.layout.package(node))])


def test_class_table(block, guest):
    """Every class of the layout, its pairs and their SLIT, and a latency figure."""
    want = {}
    for i in range(guest.nodes):
        for j in range(guest.nodes):
            cls = guest.layout.pair_class(i, j)
            pairs, slits = want.get(cls, (0, set()))
            want[cls] = (pairs + 1, slits | {guest.layout.distance(i, j)})
    rows = class_rows(block)
    wrong = []
    if list(rows) != [c for c in ("local", "same_package", "cross_package") if c in want]:
        wrong.append(f"classes {list(rows)}, want {list(want)}")
    for cls, (pairs, slits) in want.items():
        row = rows.get(cls, ["?", "?", "?"])
        slit = str(min(slits)) if len(slits) == 1 else f"{min(slits)}-{max(slits)}"
        if row[0] != str(pairs):
            wrong.append(f"{cls}: {row[0]} pairs, want {pairs}")
        if row[1] != slit:
            wrong.append(f"{cls}: SLIT {row[1]}, want {slit}")
        if re.fullmatch(r"\d+\.\d", row[2]) is None:
            wrong.append(f"{cls}: latency '{row[2]}' (no valid cell?)")
    assert_none(wrong)


def test_sweep_from_every(results, stdout, guest):
    """latency_sweep.from=every: a core of each CPU node swept, and the stdout table says
    whose."""
    if not guest.sweep_from_every:
        pytest.skip("--sweep-from-every not given")
    lat = tables(results, "latency")["latency"]
    swept = {int(r["cpu_node"]) for r in lat if r["experiment"] == b"latency_sweep"
             and r["status"] == b"ok"}
    wrong = [] if swept == set(range(guest.nodes)) else \
        [f"latency_sweep from CPU nodes {sorted(swept)}"]
    wrong += [f"stdout: no latency_sweep row of node {node} ('n{node} random')"
              for node in range(guest.nodes)
              if re.search(rf"^n{node} random ", stdout, re.M) is None]
    assert_none(wrong)


def test_free_bytes_recorded(results):
    """The file holds what the block printed."""
    nodes = tables(results, "numa_nodes")["numa_nodes"]
    assert len(nodes) > 0, "/numa_nodes is empty"
    assert_none([f"/numa_nodes node {n['node']}: free_bytes {n['free_bytes']} of "
                 f"{n['memory_bytes']}" for n in nodes
                 if not 0 < int(n["free_bytes"]) <= int(n["memory_bytes"])])
