# SPDX-License-Identifier: BSD-3-Clause
"""The commands of numaprobe-report that read one fleet (cli.py is the entry point):

  numaprobe-report [report] FILE...   per-host and per-node-type tables, outliers, report
  numaprobe-report compare BASE NEW   regressions and improvements since a baseline
  numaprobe-report compare --references REF NEW   against reference values per node type
  numaprobe-report history RESULTS... trends and drift over many runs (cli_fleet.py)
  numaprobe-report openmetrics RESULTS... --out DIR   Prometheus textfile files (cli_fleet.py)
  numaprobe-report references FILES... -o REF   references per node type (cli_refs.py)
  numaprobe-report health --references REF FILE   a host against them (cli_refs.py)
"""

import argparse
import os
import sys

import pandas as pd

from . import compare as cmp
from . import references, remeasure, report, sitefiles
from .cli_fleet import COMMANDS as FLEET_COMMANDS
from .cli_refs import COMMANDS as REFS_COMMANDS
from .fleet import load_fleet
from .fleetview import view
from .load import ResultsError
from .names import Status
from .noise import NOISY_PCT, is_noisy
from .options import PERCENT, number, tolerance
from .outliers import OutlierRule
from .runs import MixedConfigs, refuse_mixed
from .summary import BadReference, reference_type, still_changed_hosts
from .plots import render_all
from .tables import hosts_table, local_table
from .topology import first_rank_rows, numactl_lines
from .verdicts import compare_doc, report_doc, write_json
from .version import version_text

EXIT_OK, EXIT_FINDINGS, EXIT_BAD_INPUT = 0, 1, 2
EXIT_TEXT = ("Exit status: 0 nothing found; 1 findings, and only findings (compare: a "
             "regression; report: an outlier host, a degraded host or a host a killed run left "
             "with a setting still changed, only with --fail-on-outliers); 2 cannot judge: "
             "hosts not judged (--fail-on-outliers), unreadable file, "
             "unsupported schema, runs of different measurement configs, compare with no host "
             "(or too few) matched, a reference that cannot be evaluated, usage error, "
             "unwritable output or an internal error.")


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
        # A fleet's file would print a line per host: the first ones, and where the rest are.
        for heading, frame in (("Hosts", hosts_table(results)),
                               ("Local memory per NUMA node", local_table(results))):
            shown, note = report.capped(frame, "hosts/host_metrics")
            out.write(f"{heading}\n" + shown.to_string(index=False, float_format="%.1f")
                      + (f"\n{note} (report directory)" if note else "") + "\n\n")
    # The layout of the first host of each node type in the file (numactl --hardware's view).
    hosts = results["hosts"].sort_values("rank").drop_duplicates("fingerprint")
    for h in hosts.itertuples(index=False):
        lines = numactl_lines(first_rank_rows(results["numa_nodes"], "rank", h.rank),
                              first_rank_rows(results["distances"], "rank", h.rank))
        if lines:
            out.write(f"Topology of {h.hostname} ({h.node_type}; free: when the run started)\n")
            out.write("\n".join(f"  {line}" for line in lines) + "\n\n")


def _rule_options(parser):
    g = parser.add_argument_group("outlier rule")
    g.add_argument("--z", type=number(float, 0), default=3.5, metavar="Z",
                   help="robust z-score a host must exceed within its node type (default 3.5)")
    g.add_argument("--pct", type=PERCENT, default=10.0, metavar="PCT",
                   help="and its deviation from the type median, in percent (default 10)")
    g.add_argument("--min-hosts", type=number(int, 1), default=5, metavar="N",
                   help="node types with fewer hosts are not judged (default 5)")


def _runs_options(parser):
    g = parser.add_argument_group("runs")
    g.add_argument("--allow-mixed-configs", action="store_true",
                   help="keep runs of different measurement configs as separate groups "
                        "instead of refusing them (exit 2)")
    g.add_argument("--all-runs", action="store_true",
                   help="show each run of a host measured several times (default: the "
                        "latest run counts)")


def _rule(args):
    return OutlierRule(z_limit=args.z, pct_limit=args.pct, min_hosts=args.min_hosts)


def default_outdir(path):
    stem = path[:-3] if path.endswith(".h5") else path
    return f"{stem}-report"


def cmd_report(args):
    fleet = load_fleet(args.files, all_runs=args.all_runs, allow_mixed=args.allow_mixed_configs)
    for res in fleet.files:
        print_file(res, sys.stdout)
    for line in fleet.notes:
        print(f"note: {line}")
    v = view(fleet, _rule(args))
    try:
        reference = reference_type(v, args.reference_type)
    except BadReference as e:
        raise cmp.UnusableInput(str(e)) from None
    plots = None
    if not args.no_report:
        outdir = args.output or default_outdir(args.files[0])
        plots = render_all(v, outdir)
        html_path = report.write_all(v, plots, outdir, reference)
    sys.stdout.write(report.text(v, plots, reference))
    if plots is not None:
        print(f"\nReport: {html_path} (also report.md, *.csv, *.png, *.svg in {outdir})")
    # A host still running with a setting a killed run changed measures unlike its peers, now
    # and later: the gate cannot judge it, so it fails as an outlier host does; and so does a
    # host short of its type's hardware.
    findings = len(v.outliers) or still_changed_hosts(v) or len(v.degraded)
    status = EXIT_FINDINGS if args.fail_on_outliers and findings else EXIT_OK
    unjudged = not_judged_hosts(v)
    # A gate must not pass what it could not judge: hosts of a type too small for the outlier
    # rule were never compared with peers. Their input (more hosts, --min-hosts) must change.
    if args.fail_on_outliers and unjudged:
        status = EXIT_BAD_INPUT
        shown = ", ".join(unjudged[:10]) + (", ..." if len(unjudged) > 10 else "")
        print(f"numaprobe-report: not judged: {len(unjudged)} host(s) in node types too small "
              f"to judge (fewer than --min-hosts {v.rule.min_hosts} hosts): {shown}",
              file=sys.stderr)
    if args.json:
        from .summary import comparison_frame, drift_frame
        comparison, ref = comparison_frame(v, reference)
        write_json(report_doc(v, fleet.runs, comparison, ref, drift_frame(v), status),
                   args.json)
    line = remeasure_line(v, fleet)
    if line:
        print(line)
    print(verdict_line(v, status, args.fail_on_outliers))
    return status


def remeasure_line(v, fleet):
    """The command that measures again the hosts with a noisy figure of a metric the verdicts
    judge (a figure shown and never judged, as core-to-core latency, asks for no new run) with
    the options their run had (empty when none is noisy); the hosts of the first file's run."""
    values = v.values
    if not values.empty and "spread_pct" in values.columns:
        judged = values.metric.map(lambda k: v.catalogue[k].judged if k in v.catalogue else False)
        values = values[is_noisy(values.spread_pct) & judged.astype(bool)]
    else:
        values = values.iloc[0:0]
    attrs = fleet.files[0].attrs if fleet.files else {}
    return remeasure.remeasure_line(set(values.host) if len(values) else set(), attrs,
                                    report.TABLE_ROWS)


def not_judged_hosts(v):
    """The hosts in node types too small for the outlier rule, by name."""
    small = {t for t, _ in v.too_small}
    return sorted(v.hosts.host[v.hosts.type.isin(small)])


def verdict_line(v, status, gate):
    """The report's last line on stdout: what was found and what the exit status means, where
    a reader (or a job's log tail) looks first."""
    hosts = v.hosts
    not_judged = len(not_judged_hosts(v))
    # Degraded: members short of their type's hardware (nodetypes.py); failed: hosts whose run
    # did not end ok (failed, hung), whose figures are partial.
    degraded = len(v.degraded) if v.degraded is not None else 0
    failed = int((hosts.status.astype(str) != Status.OK).sum()) if "status" in hosts else 0
    noisy = report.noisy_frame(v)
    still = still_changed_hosts(v)
    parts = [f"{len(hosts)} host(s)", f"{len(v.types)} node type(s)",
             f"{v.outliers.host.nunique()} outlier host(s)", f"{degraded} degraded",
             f"{failed} failed", f"{len(noisy)} noisy figure(s)"]
    if not_judged:
        parts.append(f"{not_judged} host(s) not judged (node type too small)")
    if still:
        parts.append(f"{len(still)} host(s) with a setting not restored")
    if status == EXIT_BAD_INPUT:
        meaning = "not judged (--fail-on-outliers: hosts in node types too small to judge)"
    elif status == EXIT_FINDINGS:
        meaning = "findings (--fail-on-outliers)"
    elif len(v.outliers) or still or degraded:
        meaning = "findings reported, not failed on (without --fail-on-outliers)"
    else:
        meaning = "nothing found"
    return f"verdict: {', '.join(parts)}; exit {status}: {meaning}"


def _print_frames(frames):
    for title, frame, cols in frames:
        print(f"\n{title}: {len(frame)}")
        if len(frame):
            print(report.display(frame[cols]).to_string(index=False))


def cmd_references(args, path):
    refs = references.load(args.references)
    new = load_fleet([path])
    nv = view(new)
    frame, matched, notes = references.judge_view(nv, refs)
    print(f"{path} ({new.files[0].attrs.get('start_utc')}) against the references in "
          f"{args.references}; {len(matched)} of {len(nv.hosts)} host(s) matched a reference")
    for line in notes + new.notes:
        print(f"note: {line}")
    if not matched:
        print(f"numaprobe-report compare: no host of {path} matched a node type and metric of "
              f"{args.references}: nothing compared", file=sys.stderr)
        return EXIT_BAD_INPUT
    bad = frame[frame.verdict == "regression"]
    unjudged = frame[frame.verdict == references.NOT_JUDGED]
    cols = ["host", "type", "metric", "unit", "value", "min", "max"]
    _print_frames([("Regressions", bad, cols),
                   ("Not judged", unjudged, ["host", "type", "metric", "reason"])])
    if args.output:
        os.makedirs(args.output, exist_ok=True)
        frame.drop(columns=["key", "why", "bounds"]).to_csv(
            os.path.join(args.output, "references.csv"), index=False)
    # A reference that cannot be evaluated makes the gate's verdict incomplete, whatever else it
    # found: its input must be fixed, so this wins over a regression.
    status = EXIT_BAD_INPUT if len(unjudged) else EXIT_FINDINGS if len(bad) else EXIT_OK
    if len(unjudged):
        first = unjudged.iloc[0]
        where = f" {first.node}" if first.node else ""
        print(f"numaprobe-report compare: {len(unjudged)} reference figure(s) on "
              f"{unjudged.host.nunique()} host(s) not judged, e.g. {first.host} {first.key}"
              f"{where}: {first.reason}", file=sys.stderr)
    elif len(bad):
        print(f"\n{len(bad)} value(s) outside the references on {bad.host.nunique()} host(s)",
              file=sys.stderr)
    meaning = {EXIT_OK: "nothing found", EXIT_FINDINGS: "findings",
               EXIT_BAD_INPUT: "cannot judge"}[status]
    print(f"verdict: {len(matched)} host(s) matched references, {bad.host.nunique()} outside "
          f"them, {len(unjudged)} figure(s) not judged; exit {status}: {meaning}")
    return status


def cmd_compare(args):
    if args.references:
        if len(args.files) != 1:
            print("numaprobe-report compare: with --references, give one results file",
                  file=sys.stderr)
            return EXIT_BAD_INPUT
        return cmd_references(args, args.files[0])
    if len(args.files) != 2:
        print("numaprobe-report compare: give BASE and NEW (or --references REF NEW)",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    base_path, new_path = args.files
    # One run's rows at a time: each is let go once viewed, so two fleets' rows never meet.
    base = load_fleet([base_path])
    bv = view(base)
    base.let_go()
    new = load_fleet([new_path])
    runs = base.runs + new.runs
    refuse_mixed(runs, args.allow_mixed_configs)
    nv = view(new)
    new.let_go()
    catalogue = {**bv.catalogue, **nv.catalogue}
    tolerances = cmp.parse_tolerances(args.tolerance, catalogue)
    matched = cmp.matched_hosts(bv.hosts, nv.hosts)
    share = 100.0 * len(matched) / max(1, len(bv.hosts))
    if not matched or share < args.min_matched:
        print(f"numaprobe-report compare: {len(matched)} of {len(bv.hosts)} baseline host(s) "
              f"({share:.0f}%) are in {new_path}, fewer than --min-matched "
              f"{args.min_matched:g}%: hosts renamed (short names vs FQDNs?) or another "
              f"fleet; nothing judged", file=sys.stderr)
        return EXIT_BAD_INPUT
    changes = cmp.compare(bv.values, nv.values, catalogue, args.threshold, tolerances)
    notes = cmp.host_changes(bv.hosts, nv.hosts)
    if len({r.fingerprint for r in runs}) > 1:
        notes.insert(0, "the measurement configs differ (--allow-mixed-configs); changes may "
                        "come from the config, not the hosts")
    regressions = changes[changes.verdict == "regression"]
    improvements = changes[changes.verdict == "improvement"]
    noisy = changes[changes.verdict == cmp.NOISY]
    tol = "".join(f", {k} {v:g}%" for k, v in tolerances.items())
    print(f"Baseline {base_path} ({base.files[0].attrs.get('start_utc')}) vs "
          f"{new_path} ({new.files[0].attrs.get('start_utc')}); threshold "
          f"{args.threshold:g}%{tol}; {changes.host.nunique()} host(s) and "
          f"{len(changes)} host-metric pair(s) compared")
    for line in notes + base.notes + new.notes:
        print(f"note: {line}")
    cols = ["host", "type", "metric", "unit", "base", "new", "change_pct", "uncertainty_pct"]
    _print_frames([("Regressions", regressions, cols), ("Improvements", improvements, cols),
                   ("Not judged, noisy (uncertainty above "
                    f"{NOISY_PCT:g}% in either run: re-measure)", noisy, cols)])
    per_type = cmp.type_changes(changes)
    if len(per_type):
        print("\nMedian change per node type and metric")
        print(report.display(per_type).to_string(index=False))
    if args.output:
        os.makedirs(args.output, exist_ok=True)
        changes.drop(columns=["key"]).to_csv(os.path.join(args.output, "changes.csv"),
                                             index=False)
        per_type.to_csv(os.path.join(args.output, "type_changes.csv"), index=False)
    status = EXIT_FINDINGS if len(regressions) else EXIT_OK
    if args.json:
        write_json(compare_doc(runs, catalogue, changes, notes, status), args.json)
    if len(regressions):
        print(f"\n{len(regressions)} regression(s) beyond {args.threshold:g}% on "
              f"{regressions.host.nunique()} host(s)", file=sys.stderr)
    print(f"verdict: {changes.host.nunique()} host(s) compared, {len(regressions)} "
          f"regression(s), {len(improvements)} improvement(s), {len(noisy)} noisy figure(s) not "
          f"judged; exit {status}: {'findings' if status else 'nothing found'}")
    return status


def parser_for(command):
    if command == "compare":
        p = argparse.ArgumentParser(
            prog="numaprobe-report compare",
            description="Regressions and improvements per host and metric since a baseline "
                        "file: a change beyond the threshold, in the worse direction, is a "
                        "regression.", epilog=EXIT_TEXT)
        p.add_argument("files", nargs="+", metavar="BASE NEW",
                       help="baseline results file and new results file (same hosts); "
                            "with --references, the new file alone")
        p.add_argument("--threshold", type=PERCENT, default=10.0, metavar="PCT",
                       help="change in percent that counts (default 10)")
        p.add_argument("--tolerance", action="append", default=[], metavar="METRIC=PCT",
                       type=tolerance(plain=False),
                       help="the change that counts for one metric (key such as "
                            "latency_local_ns, or its label); repeatable")
        p.add_argument("--min-matched", type=number(float, 0, 100), default=50.0, metavar="PCT",
                       help="share of the baseline's hosts that must be in NEW, else exit 2 "
                            "(default 50; no host matched is always exit 2)")
        p.add_argument("--references", metavar="REF", type=sitefiles.references,
                       help="judge NEW against reference values per node type instead of a "
                            "baseline, from JSON or YAML: NODE_TYPE: {METRIC: {min: 0.8 * "
                            "peak, max: 110}} or {METRIC: {ref: 150, tol: 10%%}}; a bound "
                            "that cannot be evaluated (peak unknown) or a figure missing is "
                            "not judged: exit 2; a NAME that is no file here is "
                            f"{sitefiles.SITE_DIR}/NAME.yaml (.yml, .json)")
        p.add_argument("--allow-mixed-configs", action="store_true",
                       help="compare runs of different measurement configs (with a note) "
                            "instead of refusing them (exit 2)")
        p.add_argument("-o", "--output", metavar="DIR",
                       help="also write changes.csv and type_changes.csv here")
        p.add_argument("--json", metavar="FILE", help="also write the verdicts as JSON "
                       "(docs/report.schema.json; not with --references)")
        return p
    p = argparse.ArgumentParser(
        prog="numaprobe-report",
        description="Per-host and per-node-type tables, outlier hosts, plots and an HTML, "
                    "Markdown and CSV report from numaprobe results files. "
                    "'numaprobe-report compare BASE NEW' compares two runs, "
                    "'numaprobe-report history RESULTS...' follows many over time, "
                    "'numaprobe-report openmetrics RESULTS... --out DIR' writes Prometheus "
                    "textfiles, 'numaprobe-report references FILES... -o REF' reference values "
                    "per node type and 'numaprobe-report health --references REF FILE' judges "
                    "a host against them (each with --help).", epilog=EXIT_TEXT)
    p.add_argument("--version", action="version", version=version_text())
    p.add_argument("files", nargs="+", metavar="FILE", help="numaprobe .h5 results file")
    p.add_argument("-o", "--output", metavar="DIR",
                   help="report directory (default: FIRST_FILE without .h5, plus -report)")
    p.add_argument("--no-report", action="store_true", help="print the tables only")
    p.add_argument("--fail-on-outliers", action="store_true",
                   help="exit 1 when an outlier host is found, a degraded host (short of its "
                        "node type's memory, cores, NUMA nodes or DIMMs), or a host that a "
                        "killed run left with a system setting changed and not put back; exit "
                        "2 when hosts sit in node types too small to judge")
    p.add_argument("--reference-type", metavar="LABEL",
                   help="the node type the comparison's ratios are taken against (its label, "
                        "node_type or fingerprint; default: the largest type); never a type "
                        "below --min-hosts")
    p.add_argument("--json", metavar="FILE", help="also write the verdicts (node types, "
                   "hosts, outliers, node-type comparison) as JSON (docs/report.schema.json)")
    _runs_options(p)
    _rule_options(p)
    return p


def dispatch(argv):
    """Runs the command @p argv names (cli.main catches what escapes as an internal error)."""
    command = "report"
    others = {**FLEET_COMMANDS, **REFS_COMMANDS}
    if argv and argv[0] in ("report", "compare", *others):
        command = argv.pop(0)
    if command in others:
        make_parser, run = others[command]
    else:
        make_parser = lambda: parser_for(command)  # noqa: E731
        run = cmd_compare if command == "compare" else cmd_report
    args = make_parser().parse_args(argv)
    try:
        return run(args)
    except (ResultsError, MixedConfigs, cmp.UnusableInput) as e:
        print(f"numaprobe-report: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as e:
        print(f"numaprobe-report: cannot write the report: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
