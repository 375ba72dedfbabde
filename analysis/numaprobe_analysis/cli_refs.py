# SPDX-License-Identifier: BSD-3-Clause
"""The commands of the loop a site runs from a fleet run to its nodes' health checks:

  numaprobe-report references FILES... -o REF       references per node type (reference_file.py)
  numaprobe-report health --references REF FILE     a host against them (health.py)
"""

import argparse
import os
import sys

from . import health, reference_file, references, sitefiles
from .compare import UnusableInput
from .fleet import load_fleet
from .fleetview import view
from .load import ResultsError
from .options import PERCENT, number
from .outliers import OutlierRule
from .runs import MixedConfigs
from .verdicts import write_text

EXIT_OK, EXIT_BAD_INPUT = 0, 2
REFERENCES_EXIT = ("Exit status: 0 written; 2 nothing written: no node type with enough hosts, "
                   "an unreadable results file, runs of different measurement configs, -o "
                   "existing without --force or unwritable, usage error.")
HEALTH_EXIT = ("Exit status: 0 healthy: every figure the references bound judged and within "
               "them; 1 failed: a figure outside its bounds (whatever else was not judged); 2 "
               "not judged: the node type not in the references, a noisy figure or one "
               "without a value, nothing judged, unreadable input or usage error. The last line "
               "of stdout is always one summary line beginning 'numaprobe:', under 120 "
               "characters (a drain reason).")


def references_parser():
    p = argparse.ArgumentParser(
        prog="numaprobe-report references",
        description="Reference values per node type from a fleet's results, for compare "
                    "--references and health: per judged headline metric, and per NUMA node "
                    "where the figure is a node's, {ref: the type's median over its hosts whose "
                    "figure is not noisy, tol: max(--min-tol, 3.5 x MAD/median + the figures' "
                    "median uncertainty), hosts: N}; types keyed by fingerprint, the label in a "
                    "comment. Types with fewer than --min-hosts hosts are left out and named.",
        epilog=REFERENCES_EXIT)
    p.add_argument("files", nargs="+", metavar="FILE", help="numaprobe .h5 results files of "
                   "one measurement config (a host measured several times: its latest run)")
    p.add_argument("-o", "--output", required=True, metavar="REF",
                   help="references file to write: JSON where it ends in .json, else YAML "
                        "(written atomically)")
    p.add_argument("--force", action="store_true",
                   help="replace an existing REF (a site's edits in it are lost)")
    p.add_argument("--min-hosts", type=number(int, 1), default=OutlierRule.min_hosts,
                   metavar="N", help="node types with fewer hosts are left out (default "
                   f"{OutlierRule.min_hosts}, the outlier rule's)")
    p.add_argument("--min-tol", type=PERCENT, default=reference_file.FLOOR_PCT, metavar="PCT",
                   help=f"the least tolerance written (default {reference_file.FLOOR_PCT:g})")
    return p


def cmd_references(args):
    # A site's edited references are not replaced by accident, nor after minutes of reading.
    if os.path.lexists(args.output) and not args.force:
        print(f"numaprobe-report references: {args.output} exists: --force replaces it",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    fleet = load_fleet(args.files)
    rule = OutlierRule(min_hosts=args.min_hosts)
    v = view(fleet, rule)
    made, small = reference_file.derive(v, rule, args.min_tol)
    for label, fingerprint, n in small:
        print(f"numaprobe-report references: left out {label!r} (fingerprint {fingerprint}): "
              f"{n} host(s), too few to judge (fewer than --min-hosts {rule.min_hosts})",
              file=sys.stderr)
    for t in made:
        for key, why in t.left_out:
            print(f"numaprobe-report references: {t.label!r}: left out {key}: {why}",
                  file=sys.stderr)
    if not made:
        print(f"numaprobe-report references: no node type with {rule.min_hosts} hosts or more "
              f"in {', '.join(args.files)}: nothing written", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.output.lower().endswith(".json"):
        text = reference_file.json_text(made)
    else:
        sources = [f"{r.path} (run {r.run_id}, {r.start_utc}, config {r.fingerprint})"
                   for r in fleet.runs]
        text = reference_file.yaml_text(made, small, rule, args.min_tol, sources)
    write_text(text, args.output)
    figures = sum(len(t.figures) for t in made)
    print(f"{args.output}: {len(made)} node type(s), {figures} figure(s); {len(small)} "
          f"type(s) left out as too small")
    return EXIT_OK


class HealthParser(argparse.ArgumentParser):
    """A usage error ends on the summary line too: a wrapper reads the last line whatever
    went wrong."""

    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        print(health.summary_line(f"not judged: usage: {message}"))
        sys.exit(health.EXIT_NOT_JUDGED)


def health_parser():
    p = HealthParser(
        prog="numaprobe-report health",
        description="Judges the host(s) of one results file (a health check's run on the node "
                    "itself) against references per node type, with compare --references' "
                    "judge: one line per figure outside its bounds or not judged, then one "
                    "summary line.", epilog=HEALTH_EXIT)
    p.add_argument("file", metavar="FILE", help="numaprobe .h5 results file")
    p.add_argument("--references", required=True, metavar="REF", type=sitefiles.references,
                   help="references (numaprobe-report references; docs/ANALYSIS.md): a file, "
                        f"or a NAME that is no file here: {sitefiles.SITE_DIR}/NAME.yaml "
                        "(.yml, .json)")
    return p


def _judge(args):
    try:
        refs = references.load(args.references)
    except UnusableInput as e:
        return health.not_judged(e, "cannot read the references")
    try:
        v = view(load_fleet([args.file]))
    except (ResultsError, MixedConfigs) as e:
        return health.not_judged(e, "cannot read the results file")
    try:
        frame, matched, _notes = references.judge_view(v, refs)
    except UnusableInput as e:  # a metric the file has not: the references are of another run
        return health.not_judged(e, "the references name a metric the file lacks")
    return health.verdict(frame, v.hosts, matched, v.catalogue)


def cmd_health(args):
    try:
        lines, status = _judge(args)
    except Exception as e:  # a defect: not judged (2), with the summary line all the same
        lines, status = health.not_judged(f"internal error: {type(e).__name__}: {e}",
                                          f"internal error: {type(e).__name__}")
    print("\n".join(lines))
    return status


COMMANDS = {"references": (references_parser, cmd_references),
            "health": (health_parser, cmd_health)}
