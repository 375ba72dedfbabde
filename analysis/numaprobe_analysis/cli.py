# SPDX-License-Identifier: BSD-3-Clause
"""numaprobe-report: tables, outlier hosts, plots and reports from numaprobe results files.

  numaprobe-report [report] FILE...   per-host and per-node-type tables, outliers, report
  numaprobe-report compare BASE NEW   regressions and improvements since a baseline
  numaprobe-report history RESULTS... trends and drift over many runs (cli_fleet.py)
  numaprobe-report openmetrics RESULTS... --out DIR   Prometheus textfile files (cli_fleet.py)
  numaprobe-report references FILES... -o REF   references per node type (cli_refs.py)
  numaprobe-report health --references REF FILE   a host against them (cli_refs.py)

The entry point. Exit status 1 means a finding and nothing else, since cron jobs and CI gates
alert on it; anything that keeps the command from judging is 2 with one line on stderr: bad
input, a dependency missing, or a defect of the command itself (never a traceback, which exits
1 and would read as a finding). The commands are imported here, not at the top, so that a
missing package is caught too.
"""

import sys

EXIT_CANNOT_JUDGE = 2


def _fail(text, argv):
    print(f"numaprobe-report: {' '.join(str(text).split())}", file=sys.stderr)
    # health's wrapper reads its last line of stdout whatever happened (health.py): this one
    # cannot import health.py, which may be what failed.
    if argv[:1] == ["health"]:
        print("numaprobe: not judged: numaprobe-report cannot run (see its stderr)")
    return EXIT_CANNOT_JUDGE


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    command = argv[:1]
    try:
        from .cli_report import dispatch
    except ImportError as e:
        return _fail(f"cannot start: {e} (Debian: python3-h5py python3-pandas python3-numpy "
                     f"python3-matplotlib python3-scipy)", command)
    try:
        return dispatch(argv)
    except Exception as e:  # any defect: "cannot judge" (2), never a finding (1)
        return _fail(f"internal error, nothing judged: {type(e).__name__}: {e}", command)
