#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Calibration of the headline figures' uncertainty on the machine the tests run on: several runs
back to back (or files already written), and for each headline figure (a row measured in passes:
the bound matrix cells, mlp, c2c_latency, max_bandwidth, the host-wide peak) two properties:

- calibrated: its own uncertainty_pct covers its distance from the median of the runs, or it
  is flagged noisy (above the analysis's limit, so no verdict uses it), in at least 80% of the
  cases;
- sharp: the median uncertainty of a figure is at most 3 times its run-to-run CV (a figure
  whose runs agree within 1% is held to 1%: no rule resolves less than the timer and the pages
  a run gets), in the median figure, and the figures are not withheld as noisy in more than one
  run of five.

Prints every figure, the runs' values, uncertainties and verdicts; asserts the statistics of
the uncertainty, never a timing. Exit 1 when either property fails.

    /usr/bin/python3 tests/calibration/coverage.py NUMAPROBE OUTDIR [--runs 5] [--config quick]
        [--set KEY=VALUE ...]
    /usr/bin/python3 tests/calibration/coverage.py --files RUN.h5 RUN.h5 ...
"""

import argparse
import os
import statistics
import subprocess
import sys

import h5py
import numpy as np

NOISY_PCT = 25.0  # analysis/numaprobe_analysis/metrics.py
COVERAGE_WANTED = 0.80
SHARPNESS_LIMIT = 3.0  # median uncertainty over run-to-run CV
CV_RESOLUTION_PCT = 1.0  # run-to-run spreads below this are held to it
HEADLINE = {"latency": "latency_ns_median", "bandwidth": "gbs_best",
            "c2c_latency": "latency_ns_median"}


def kind_of(table, row):
    if table == "bandwidth":
        return row["kernel"].decode()
    if table == "c2c_latency":
        return f"{row['transfer'].decode()} {int(row['cpu_a'])}-{int(row['cpu_b'])}"
    return f"{row['pattern'].decode()} {row['mem_policy'].decode()}"


def figures(path):
    """{(table, cell key): (value, uncertainty_pct)} of the rows measured in passes."""
    out = {}
    with h5py.File(path, "r") as f:
        for table, value in HEADLINE.items():
            if table not in f:
                continue
            for r in f[table][()]:
                if "passes" not in r.dtype.names or int(r["passes"]) < 2 or r["status"] != b"ok":
                    continue
                nodes = ((int(r["node_a"]), int(r["node_b"])) if table == "c2c_latency"
                         else (int(r["cpu_node"]), int(r["mem_node"])))
                key = (table, r["experiment"].decode(), *nodes, kind_of(table, r),
                       int(r["size_bytes"]) if "size_bytes" in r.dtype.names else 0)
                out[key] = (float(r[value]), float(r["uncertainty_pct"]))
    return out


def run(args):
    os.makedirs(args.outdir, exist_ok=True)
    paths = []
    for i in range(args.runs):
        path = os.path.join(args.outdir, f"run{i}.h5")
        sets = [a for kv in args.set for a in ("--set", kv)]
        proc = subprocess.run([args.exe, "-c", args.config, "-o", path, "--force", "--quiet",
                               *sets], capture_output=True, text=True)
        if proc.returncode != 0:
            print(proc.stdout + proc.stderr)
            sys.exit(f"run {i} exited {proc.returncode}")
        paths.append(path)
    return paths


def judge(paths):
    runs = [figures(p) for p in paths]
    keys = sorted(set.intersection(*(set(r) for r in runs)))
    if not keys:
        sys.exit("no figure was measured in passes in every run: nothing to calibrate")
    covered = cases = 0
    ratios, withheld_cells = [], []
    print(f"{'figure':64s} {'median':>9s} {'CV%':>5s} {'u%':>5s}  per run: value (u%) dist% verdict")
    for key in keys:
        values = np.array([r[key][0] for r in runs])
        us = np.array([r[key][1] for r in runs])
        median = statistics.median(values)
        cv = 100 * values.std() / values.mean()
        line, noisy_runs = [], 0
        for v, u in zip(values, us):
            dist = 100 * abs(v - median) / v
            noisy = u > NOISY_PCT
            ok = noisy or (np.isfinite(u) and dist <= u)
            noisy_runs += noisy
            covered += ok
            cases += 1
            line.append(f"{v:.4g} ({u:.1f}) {dist:.1f} {'noisy' if noisy else 'ok' if ok else 'MISS'}")
        median_u = float(np.median(us))
        ratios.append(median_u / max(cv, CV_RESOLUTION_PCT))
        if noisy_runs > len(runs) // 5:
            withheld_cells.append(key)
        name = " ".join(str(k) for k in key)
        print(f"{name:64s} {median:9.4g} {cv:5.1f} {median_u:5.1f}  " + "; ".join(line))
    coverage = covered / cases
    sharpness = float(np.median(ratios))
    print(f"coverage: {covered} of {cases} figures covered by their uncertainty or flagged noisy "
          f"({100 * coverage:.0f}%; at least {100 * COVERAGE_WANTED:.0f}% wanted)")
    print(f"sharpness: median uncertainty over run-to-run CV (CV held to at least "
          f"{CV_RESOLUTION_PCT:g}%), the median figure's: {sharpness:.2f} (at most "
          f"{SHARPNESS_LIMIT:g} wanted); {sum(r <= SHARPNESS_LIMIT for r in ratios)} of "
          f"{len(ratios)} figures within it")
    print(f"withheld as noisy in more than {len(runs) // 5} of {len(runs)} runs: "
          f"{len(withheld_cells)} of {len(keys)} figures")
    failed = []
    if coverage < COVERAGE_WANTED:
        failed.append("coverage")
    if sharpness > SHARPNESS_LIMIT:
        failed.append("sharpness")
    if len(withheld_cells) > len(keys) // 5:
        failed.append("withheld")
    return failed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("exe", nargs="?")
    ap.add_argument("outdir", nargs="?")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--config", default="quick")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="passed to numaprobe (repeatable)")
    ap.add_argument("--files", nargs="+", help="judge these results files instead of running")
    args = ap.parse_args()
    if args.files is None and (args.exe is None or args.outdir is None):
        ap.error("give NUMAPROBE OUTDIR, or --files")
    failed = judge(args.files if args.files else run(args))
    if failed:
        sys.exit("calibration failed: " + ", ".join(failed))


if __name__ == "__main__":
    main()
