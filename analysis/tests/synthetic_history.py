#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writes a synthetic history: RUNS nightly runs of the synthetic fleet (synthetic_fleet.py),
one file a day, each with its own noise, start time and run id.

  synthetic_history.py OUTDIR [--runs 10] [--hosts 20] [--drop HOST:KIND:FACTOR:RUNS]
                              [--vanish HOST:RUNS]

--drop multiplies HOST's KIND figures by FACTOR in the last RUNS runs, the factor reached
step by step (a failing DIMM: 0.6 over 3 runs is 0.87, 0.73, 0.6); --vanish leaves HOST out of
the last RUNS runs. Files: OUTDIR/YYYY-MM-DD/numaprobe-N.h5, as jobs/nightly keeps them."""

import argparse
import os
import sys
from datetime import date, timedelta

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synthetic_fleet  # noqa: E402


def write_history(outdir, runs=10, hosts=20, drops=(), vanish=(), first=date(2026, 1, 1)):
    """drops: [(host, kind, factor, last_runs)]; vanish: [(host, last_runs)]. Returns paths."""
    paths = []
    for i in range(runs):
        day = first + timedelta(days=i)
        factors = {}
        for host, kind, factor, last in drops:
            k = i - (runs - last) + 1  # 1 .. last within the dropping runs
            if k > 0:
                factors.setdefault(host, {})[kind] = 1 - (1 - factor) * k / last
        gone = {h for h, last in vanish if i >= runs - last}
        d = os.path.join(outdir, day.isoformat())
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, f"numaprobe-{1000 + i}.h5")
        synthetic_fleet.write_fleet(path, hosts, seed=100 + i, factors=factors,
                                    start_utc=f"{day.isoformat()}T02:00:00Z", skip=gone)
        paths.append(path)
    return paths


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("outdir")
    p.add_argument("--runs", type=int, default=10)
    p.add_argument("--hosts", type=int, default=20)
    p.add_argument("--drop", action="append", default=[], metavar="HOST:KIND:FACTOR:RUNS")
    p.add_argument("--vanish", action="append", default=[], metavar="HOST:RUNS")
    a = p.parse_args(argv)
    drops = [(h, k, float(f), int(n)) for h, k, f, n in (d.split(":") for d in a.drop)]
    vanish = [(h, int(n)) for h, n in (v.split(":") for v in a.vanish)]
    for path in write_history(a.outdir, a.runs, a.hosts, drops, vanish):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
