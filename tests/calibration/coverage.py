#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Calibration of the headline figures' uncertainty on the machine the tests run on: five runs
back to back, and for each headline figure of each run (the bound matrix cells measured in
passes apart in time), whether its own uncertainty_pct covers its distance from the median of
the five runs, or the figure is flagged noisy (uncertainty above the analysis's limit). At least
80% of the cases must be one or the other. Prints every figure and the coverage; asserts
coverage, never a timing.

    /usr/bin/python3 tests/calibration/coverage.py NUMAPROBE OUTDIR [--runs 5] [--config quick]
        [--set KEY=VALUE ...]
"""

import argparse
import os
import statistics
import subprocess
import sys

import h5py
import numpy as np

NOISY_PCT = 25.0  # analysis/numaprobe_analysis/metrics.py
WANT = 0.80
HEADLINE = {"latency": "latency_ns_median", "bandwidth": "gbs_best"}


def figures(path):
    """{(table, cell key): (value, uncertainty_pct)} of the rows measured in passes."""
    out = {}
    with h5py.File(path, "r") as f:
        for table, value in HEADLINE.items():
            for r in f[table][()]:
                if int(r["passes"]) < 2 or r["status"] != b"ok":
                    continue
                kind = r["kernel"] if table == "bandwidth" else r["pattern"]
                key = (table, r["experiment"].decode(), int(r["cpu_node"]), int(r["mem_node"]),
                       kind.decode())
                out[key] = (float(r[value]), float(r["uncertainty_pct"]))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("exe")
    ap.add_argument("outdir")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--config", default="quick")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="passed to numaprobe (repeatable)")
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    runs = []
    for i in range(args.runs):
        path = os.path.join(args.outdir, f"run{i}.h5")
        sets = [a for kv in args.set for a in ("--set", kv)]
        proc = subprocess.run([args.exe, "-c", args.config, "-o", path, "--force", "--quiet",
                               *sets], capture_output=True, text=True)
        if proc.returncode != 0:
            print(proc.stdout + proc.stderr)
            sys.exit(f"run {i} exited {proc.returncode}")
        runs.append(figures(path))
    keys = sorted(set.intersection(*(set(r) for r in runs)))
    if not keys:
        sys.exit("no figure was measured in passes in every run: nothing to calibrate")
    covered = cases = 0
    print(f"{'figure':58s} {'median':>9s}  per run: value (uncertainty%) distance% verdict")
    for key in keys:
        values = [r[key][0] for r in runs]
        median = statistics.median(values)
        line = []
        for r in runs:
            v, u = r[key]
            dist = 100 * abs(v - median) / v
            noisy = u > NOISY_PCT
            ok = noisy or (np.isfinite(u) and dist <= u)
            covered += ok
            cases += 1
            line.append(f"{v:.4g} ({u:.1f}%) {dist:.1f}% {'noisy' if noisy else 'ok' if ok else 'MISS'}")
        name = " ".join(str(k) for k in key)
        print(f"{name:58s} {median:9.4g}  " + "; ".join(line))
    coverage = covered / cases
    spread = {k: 100 * np.std([r[k][0] for r in runs]) / statistics.mean([r[k][0] for r in runs])
              for k in keys}
    print(f"run-to-run CV per figure: " + ", ".join(f"{' '.join(map(str, k[:1] + k[4:]))} "
                                                    f"{cv:.1f}%" for k, cv in spread.items()))
    print(f"coverage: {covered} of {cases} figures covered by their uncertainty or flagged "
          f"noisy ({100 * coverage:.0f}%; at least {100 * WANT:.0f}% wanted)")
    if coverage < WANT:
        sys.exit(1)


if __name__ == "__main__":
    main()
