#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks the two topology parts of numaprobe's stdout, as run inside a vm-run guest, against
what the guest itself says: the topology block at the head of each host's block must equal
`numactl --hardware` run in the same guest just before (node list, CPUs, sizes, the distance
matrix; free memory within a tolerance, since it changes between the two instants), with each
node's package as vm-run laid them out; and the class table must hold exactly the pair classes
of that layout with their pair counts and SLIT."""

import argparse
import re
import sys

from check_vm import Layout, layout_options
from guest_results import Failures, tables

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


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("file")
    p.add_argument("--stdout", required=True, help="numaprobe's stdout in the guest")
    p.add_argument("--numactl", required=True, help="numactl --hardware in the same guest")
    p.add_argument("--nodes", type=int, required=True)
    p.add_argument("--cpus", type=int, required=True)
    p.add_argument("--sweep-from-every", action="store_true",
                   help="numaprobe ran with latency_sweep.from=every: every CPU node swept")
    layout_options(p)
    a = p.parse_args()
    layout = Layout(a.nodes, a.packages, a.slit_package, a.slit_cross)
    check = Failures()
    expect = check.expect

    numactl = parse_hardware(open(a.numactl).read().splitlines())
    expect(numactl["available"] is not None and len(numactl["size"]) == a.nodes,
           f"{a.numactl}: not numactl --hardware output of {a.nodes} nodes")
    blocks = host_blocks(open(a.stdout).read())
    expect(len(blocks) == 1, f"{len(blocks)} host blocks on stdout, want 1")
    for block in blocks:
        host = block[0].split()[0]
        expect(len(block) > 1 and block[1].startswith("  NUMA topology"),
               f"{host}: the block does not open with the topology: {block[1:2]}")
        mine = parse_hardware(topology_lines(block))
        for field in ("available", "cpus", "size", "columns", "distances"):
            expect(mine[field] == numactl[field],
                   f"{host}: {field} {mine[field]}, numactl --hardware says {numactl[field]}")
        for node, free in numactl["free"].items():
            got = mine["free"].get(node, "unknown").split()[0]
            want = int(free.split()[0])
            expect(got.isdigit() and abs(int(got) - want) <= FREE_TOLERANCE_MB,
                   f"{host}: node {node} free {got} MB, numactl --hardware says {want} MB "
                   f"(tolerance {FREE_TOLERANCE_MB} MB)")
        for node in range(a.nodes):
            expect(mine["package"].get(node) == str(layout.package(node)),
                   f"{host}: node {node} package {mine['package'].get(node)}, want "
                   f"{layout.package(node)}")

        # The class table: every class of the layout, its pairs and their SLIT, and a figure.
        want = {}
        for i in range(a.nodes):
            for j in range(a.nodes):
                cls = layout.pair_class(i, j)
                pairs, slits = want.get(cls, (0, set()))
                want[cls] = (pairs + 1, slits | {layout.distance(i, j)})
        rows = class_rows(block)
        expect(list(rows) == [c for c in ("local", "same_package", "cross_package")
                              if c in want], f"{host}: classes {list(rows)}, want {list(want)}")
        for cls, (pairs, slits) in want.items():
            row = rows.get(cls, ["?", "?", "?"])
            slit = (str(min(slits)) if len(slits) == 1 else f"{min(slits)}-{max(slits)}")
            expect(row[0] == str(pairs), f"{host}: {cls}: {row[0]} pairs, want {pairs}")
            expect(row[1] == slit, f"{host}: {cls}: SLIT {row[1]}, want {slit}")
            expect(re.fullmatch(r"\d+\.\d", row[2]) is not None,
                   f"{host}: {cls}: latency '{row[2]}' (no valid cell?)")

    # latency_sweep.from=every: a core of each CPU node swept, and the stdout table says whose.
    (nodes, lat) = tables(a.file, "numa_nodes", "latency")
    if a.sweep_from_every:
        swept = {int(r["cpu_node"]) for r in lat if r["experiment"] == b"latency_sweep"
                 and r["status"] == b"ok"}
        expect(swept == set(range(a.nodes)), f"latency_sweep from CPU nodes {sorted(swept)}")
        out = open(a.stdout).read()
        for node in range(a.nodes):
            expect(re.search(rf"^n{node} random ", out, re.M) is not None,
                   f"stdout: no latency_sweep row of node {node} ('n{node} random')")

    # The file holds what the block printed.
    for n in nodes:
        expect(0 < int(n["free_bytes"]) <= int(n["memory_bytes"]),
               f"/numa_nodes node {n['node']}: free_bytes {n['free_bytes']} of "
               f"{n['memory_bytes']}")
    return check.report(a.stdout)


if __name__ == "__main__":
    sys.exit(main())
