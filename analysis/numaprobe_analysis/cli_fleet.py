# SPDX-License-Identifier: BSD-3-Clause
"""The commands for watching a fleet over time:

  numaprobe-report history RESULTS...            trends and drift across runs (exit 1: drift)
  numaprobe-report openmetrics RESULTS... --out DIR   node_exporter textfile files, HOST.prom
"""

import argparse
import os
import sys

from . import compare as cmp
from . import historyreport
from .fleet import load_fleet
from .fleetview import view
from .history import DriftRule, judge, load_history
from .openmetrics import write_dir
from .options import number, tolerance
from .runs import config_groups
from .verdicts import history_doc, write_json

EXIT_OK, EXIT_FINDINGS, EXIT_BAD_INPUT = 0, 1, 2
# Longer would reach before year 1, where the date arithmetic of the last night overflows.
RECENT_HOURS_MAX = 876000
HISTORY_EXIT = ("Exit status: 0 no drift; 1 drift: a host's figure worse than its own recent "
                "median or its node type's by more than the tolerance (with --fail-on-vanished "
                "also a vanished host); 2 unusable input: unreadable file, runs of different "
                "measurement configs, usage error or unwritable output.")


def history_parser():
    p = argparse.ArgumentParser(
        prog="numaprobe-report history",
        description="Many runs of a fleet over time (e.g. a nightly job's files): per-host "
                    "trend lines of the headline metrics (history.html) and drift: a host "
                    "whose latest figure moved beyond the tolerance against the median of its "
                    "own previous runs, or against its node type.", epilog=HISTORY_EXIT)
    p.add_argument("files", nargs="+", metavar="RESULTS", help="numaprobe .h5 results files, "
                   "one per run, in any order (ordered by start time)")
    p.add_argument("--tolerance", default=[], action="append", metavar="PCT|METRIC=PCT",
                   type=tolerance(plain=True),
                   help="change in percent that counts as drift (default 10); METRIC=PCT for "
                        "one metric (repeatable)")
    p.add_argument("--window", type=number(int, 1), default=7, metavar="N",
                   help="a host's latest run is judged against the median of its N previous "
                        "runs (default 7)")
    p.add_argument("--min-runs", type=number(int, 1), default=3, metavar="N",
                   help="previous runs a host needs before its own history judges it (default 3)")
    p.add_argument("--min-hosts", type=number(int, 1), default=3, metavar="N",
                   help="hosts a node type needs before its median judges them (default 3)")
    p.add_argument("--recent-hours", type=number(float, 0, RECENT_HOURS_MAX, low_open=True),
                   default=20.0, metavar="H",
                   help="the last night: runs within H hours of the newest run; a host in "
                        f"none of them has vanished (default 20; at most {RECENT_HOURS_MAX}: 100 "
                        "years)")
    p.add_argument("--fail-on-vanished", action="store_true",
                   help="exit 1 when a host vanished")
    p.add_argument("--allow-mixed-configs", action="store_true",
                   help="judge runs of each measurement config separately instead of "
                        "refusing them (exit 2)")
    p.add_argument("-o", "--output", metavar="DIR",
                   help="report directory (default: history-report beside the newest file)")
    p.add_argument("--no-report", action="store_true", help="print the verdicts only")
    p.add_argument("--json", metavar="FILE", help="also write the verdicts as JSON "
                   "(docs/report.schema.json)")
    return p


def _rule(args, catalogue):
    overall = 10.0
    for key, pct in args.tolerance:
        if key is None:
            overall = pct
    per_metric = cmp.parse_tolerances([t for t in args.tolerance if t[0] is not None], catalogue)
    return DriftRule(tolerance_pct=overall, window=args.window, min_runs=args.min_runs,
                     min_hosts=args.min_hosts, recent_hours=args.recent_hours,
                     tolerances=per_metric)


def cmd_history(args):
    history = load_history(args.files, allow_mixed=args.allow_mixed_configs)
    rule = _rule(args, history.catalogue)
    drift, gone, notes = judge(history, rule)
    worse = drift[drift.verdict == "worse"]
    status = EXIT_FINDINGS if len(worse) or (args.fail_on_vanished and len(gone)) else EXIT_OK
    sys.stdout.write(historyreport.text(history, drift, gone, notes))
    if not args.no_report:
        newest = history.runs.path.iloc[-1]
        outdir = args.output or os.path.join(os.path.dirname(newest) or ".", "history-report")
        path = historyreport.write_all(history, drift, gone, notes, outdir)
        print(f"\nReport: {path} (also history.csv, drift.csv, vanished.csv, runs.csv, "
              f"trend_*.png in {outdir})")
    if args.json:
        runs = [_RunRow(r) for r in history.runs.itertuples(index=False)]
        write_json(history_doc(history, runs, drift, gone, notes, status), args.json)
    if len(worse):
        print(f"\n{len(worse)} figure(s) drifted on {worse.host.nunique()} host(s)",
              file=sys.stderr)
    return status


class _RunRow:
    """A runs-frame row as the run records verdicts.py writes."""

    def __init__(self, r):
        self.path, self.run_id, self.fingerprint, self.start_utc = (r.path, r.run_id, r.config,
                                                                    r.start_utc)


def openmetrics_parser():
    p = argparse.ArgumentParser(
        prog="numaprobe-report openmetrics",
        description="One node_exporter textfile-collector file per host (HOST.prom, written "
                    "atomically): numaprobe_latency_seconds, "
                    "numaprobe_bandwidth_bytes_per_second and more, from each host's latest "
                    "run among RESULTS.",
        epilog="Exit status: 0 written; 2 unusable input (as the report) or an unwritable "
               "directory.")
    p.add_argument("files", nargs="+", metavar="RESULTS", help="numaprobe .h5 results file")
    p.add_argument("--out", required=True, metavar="DIR",
                   help="the textfile collector's directory (node_exporter "
                        "--collector.textfile.directory)")
    p.add_argument("--allow-mixed-configs", action="store_true",
                   help="accept runs of different measurement configs (each host's latest run "
                        "per config) instead of refusing them (exit 2)")
    return p


def cmd_openmetrics(args):
    # Several runs of a host: history's drift verdicts on its latest, by the same rules. Judged
    # first, a run at a time, so that its reading never meets the fleet's rows.
    drift = None
    if len(args.files) > 1:
        history = load_history(args.files, allow_mixed=args.allow_mixed_configs)
        drift, _, _ = judge(history, DriftRule())
        del history
    fleet = load_fleet(args.files, allow_mixed=args.allow_mixed_configs)
    v = view(fleet)
    paths = write_dir(v, args.out, drift)
    configs = len(config_groups(fleet.runs))
    print(f"{len(paths)} file(s) written to {args.out} ({len(fleet.runs)} run(s), "
          f"{configs} config(s))")
    for line in fleet.notes:
        print(f"note: {line}")
    return EXIT_OK


COMMANDS = {"history": (history_parser, cmd_history),
            "openmetrics": (openmetrics_parser, cmd_openmetrics)}
