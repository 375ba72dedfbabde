# SPDX-License-Identifier: BSD-3-Clause
"""analysis-doc.py ROOT [--write]: the table of headline metrics in ROOT/docs/ANALYSIS.md is made
from the analysis's experiment modules, each one's `doc` rows (metric, from) in the order of
NAMES (analysis/numaprobe_analysis/experiments/), so that a new experiment documents its
figures in its own module and the document cannot drift from them.

The table sits between the lines "<!-- begin: numaprobe_analysis experiments doc -->" and
"<!-- end: numaprobe_analysis experiments doc -->", indented as they are; the prose around it is
written by hand. Without --write the document is compared with the table the modules make, and
a difference fails (exit 1); --write puts the modules' table in place."""

import os
import sys

from generated_doc import settle

BEGIN = "<!-- begin: numaprobe_analysis experiments doc -->"
END = "<!-- end: numaprobe_analysis experiments doc -->"


def table(experiments, indent):
    """The block between the markers: a blank line on each side keeps the markers out of the
    table in every Markdown reader."""
    rows = ["| metric | from |", "|---|---|"]
    rows += [f"| {metric} | {source} |" for e in experiments for metric, source in e.doc]
    return [""] + [indent + r for r in rows] + [""]


def render(lines, experiments):
    """The document with its block made anew, or None without one pair of markers."""
    starts = [i for i, line in enumerate(lines) if line.strip() == BEGIN]
    ends = [i for i, line in enumerate(lines) if line.strip() == END]
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        return None
    begin, end = starts[0], ends[0]
    indent = lines[begin][:len(lines[begin]) - len(lines[begin].lstrip())]
    return lines[:begin + 1] + table(experiments, indent) + lines[end:]


def main(argv):
    if len(argv) not in (2, 3) or (len(argv) == 3 and argv[2] != "--write"):
        print("usage: analysis-doc.py ROOT [--write]", file=sys.stderr)
        return 2
    root = argv[1]
    sys.path.insert(0, os.path.join(root, "analysis"))
    from numaprobe_analysis.experiments import EXPERIMENTS

    path = os.path.join(root, "docs", "ANALYSIS.md")
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    made = render(lines, EXPERIMENTS)
    if made is None:
        print(f"FAIL: {path} must hold the lines {BEGIN} and {END} once each, in that order")
        return 1
    return settle(path, lines, made, len(argv) == 3, "tests/docs/analysis-doc.py . --write",
                  f"{path}: the metrics table is the experiments' doc rows")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
