"""numaprobe-report FILE...: prints what each results file holds, host by host."""

import argparse
import sys

import pandas as pd

from .load import ResultsError, load
from .tables import hosts_table, local_table

EXIT_OK, EXIT_BAD_INPUT = 0, 2


def print_file(results, out):
    a = results.attrs
    out.write(f"== {results.path}\n")
    out.write(f"numaprobe {a.get('software_version')} ({a.get('git_revision')}), schema "
              f"{a.get('schema_version')}, {a.get('start_utc')} .. {a.get('end_utc')}\n")
    out.write(f"{a.get('world_size')} rank(s) on {a.get('host_count')} host(s); "
              f"{a.get('hosts_failed')} failed; complete={a.get('complete')}; "
              f"MPI: {a.get('mpi_library')}\n\n")
    with pd.option_context("display.width", 160, "display.max_columns", 20,
                           "display.max_colwidth", 60):
        out.write("Hosts\n")
        out.write(hosts_table(results).to_string(index=False) + "\n\n")
        out.write("Local memory per NUMA node\n")
        out.write(local_table(results).to_string(index=False, float_format="%.1f") + "\n\n")


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="numaprobe-report",
        description="Print per-host tables from numaprobe results files.",
        epilog="Exit status: 0 ok, 2 unreadable file or unsupported schema.")
    parser.add_argument("files", nargs="+", metavar="FILE", help="numaprobe .h5 results file")
    args = parser.parse_args(argv)
    status = EXIT_OK
    for path in args.files:
        try:
            print_file(load(path), sys.stdout)
        except ResultsError as e:
            print(f"numaprobe-report: {e}", file=sys.stderr)
            status = EXIT_BAD_INPUT
    return status
