# SPDX-License-Identifier: BSD-3-Clause
"""A host's health against references: what `numaprobe-report health --references REF FILE`
prints and its exit status, made from references.judge (the judge of compare --references,
the only one). A health check runs on the node itself, and a wrapper (NHC, Slurm's
HealthCheckProgram, `numaprobe health`) acts on the exit status and shows the last line.

Exit status: 0 healthy (at least one figure judged, none worse than its bounds); 1 failed (a
figure worse than its bounds: this wins over figures not judged elsewhere, since a real shortfall
drains the node and noise alone never does); 2 not judged (a host's node type not in the
references, a noisy figure or one without a value and no failure, nothing to judge, input that
cannot be read).

A figure outside its bounds on the better side (bandwidth above max, latency below min) is a
finding, not a failure: a node faster than its type is no reason to drain it.

stdout, one line per finding (HOST, a metric key, NODE `node N` or `CLASS pairs` where the
figure is a node's):
  numaprobe health: FAIL HOST KEY[ NODE]: VALUE UNIT below min|above max BOUND UNIT[ (HOW)]
  numaprobe health: NOT JUDGED HOST[ KEY[ NODE]]: REASON
  numaprobe health: BETTER HOST KEY[ NODE]: VALUE UNIT above max|below min BOUND UNIT[ (HOW)]
  numaprobe health: ok HOST: N figure(s) judged, none worse than the references
and last, always, one summary line under LINE_MAX characters, fit for a Slurm drain reason:
  numaprobe: KEY[ NODE] VALUE < BOUND UNIT[ (+K more)]      exit 1 (the worst failure)
  numaprobe: healthy, N figures                             exit 0
  numaprobe: not judged: WHAT[ (+K more)]                   exit 2
(with HOST before KEY where the file holds several hosts)."""

import numpy as np

from . import references

EXIT_HEALTHY, EXIT_FAILED, EXIT_NOT_JUDGED = 0, 1, 2
LINE = "numaprobe health:"
SUMMARY = "numaprobe:"
# Slurm keeps a drain reason of any length, but sinfo and squeue show far less: one short line.
LINE_MAX = 120


def number(x):
    """A figure as a line shows it: one decimal from 10 on, three significant digits below."""
    if x is None or not np.isfinite(x):
        return "nan"
    return f"{x:.1f}" if abs(x) >= 10 else f"{x:.3g}"


def summary_line(text):
    """@p text after SUMMARY, cut to fit LINE_MAX - 1 characters (and made one line)."""
    line = f"{SUMMARY} {' '.join(str(text).split())}"
    return line if len(line) < LINE_MAX else line[:LINE_MAX - 4] + "..."


def not_judged(reason, what):
    """The lines of a check that judged nothing: @p reason in full, @p what in the summary."""
    return [f"{LINE} NOT JUDGED: {' '.join(str(reason).split())}",
            summary_line(f"not judged: {what}")], EXIT_NOT_JUDGED


def _figure(r):
    return f"{r.key} {r.node}" if r.node else r.key


def _excess(r):
    """How far a failed figure is beyond its bound, relative to the bound: the worst is named,
    a node's before its host's where they are as far (the node says where to look)."""
    if r.value < r.min:
        far = (r.min - r.value) / abs(r.min) if r.min else np.inf
    else:
        far = (r.value - r.max) / abs(r.max) if r.max else np.inf
    return far, bool(r.node)


def _fail_line(r, word="FAIL"):
    below = r.value < r.min
    bound = f"{'below min' if below else 'above max'} {number(r.min if below else r.max)}"
    how = f" ({r.bounds})" if r.bounds else ""
    return (f"{LINE} {word} {r.host} {_figure(r)}: {number(r.value)} {r.unit} {bound} "
            f"{r.unit}{how}")


def _better(frame, catalogue):
    """Which rows of @p frame crossed their bound on the metric's better side."""
    side = frame.key.map(lambda k: catalogue[k].better if k in catalogue else "")
    return ((side == "higher") & (frame.value > frame["max"])) | \
        ((side == "lower") & (frame.value < frame["min"]))


def _more(n):
    return f" (+{n} more)" if n > 0 else ""


def verdict(frame, hosts, matched, catalogue):
    """(lines, exit status) of the hosts of @p hosts (hosts_frame) judged in @p frame
    (references.judge, with the metrics of @p catalogue) of which @p matched had a node type in
    the references."""
    several = hosts.host.nunique() > 1
    who = (lambda r: f"{r.host} ") if several else (lambda r: "")
    crossed = frame.verdict == "regression"
    better = crossed & _better(frame, catalogue)
    failed = frame[crossed & ~better]
    unjudged = frame[frame.verdict == references.NOT_JUDGED]
    same = frame[(frame.verdict == "same") | better]
    lines = [_fail_line(r) for r in failed.itertuples(index=False)]
    lines += [_fail_line(r, "BETTER") for r in frame[better].itertuples(index=False)]
    lines += [f"{LINE} NOT JUDGED {r.host} {_figure(r)}: {r.reason}"
              for r in unjudged.itertuples(index=False)]
    unmatched = hosts[~hosts.host.isin(matched)]
    for r in unmatched.itertuples(index=False):
        lines.append(f"{LINE} NOT JUDGED {r.host}: its node type {r.type!r} (node_type "
                     f"{r.node_type!r}, fingerprint {r.fingerprint}, type_key {r.type_key}) is "
                     f"not in the references")
    empty = sorted(set(matched) - set(frame.host))
    lines += [f"{LINE} NOT JUDGED {h}: the references bound no figure of its node type"
              for h in empty]
    if len(failed):
        worst = max(failed.itertuples(index=False), key=_excess)
        sign, bound = ("<", worst.min) if worst.value < worst.min else (">", worst.max)
        lines.append(summary_line(f"{who(worst)}{_figure(worst)} {number(worst.value)} {sign} "
                                  f"{number(bound)} {worst.unit}{_more(len(failed) - 1)}"))
        return lines, EXIT_FAILED
    if len(unjudged) or len(unmatched) or empty or not len(same):
        if len(unmatched):
            what = (f"{unmatched.host.iloc[0] + ' ' if several else ''}type not in references"
                    f"{_more(len(unmatched) - 1 + len(unjudged))}")
        elif len(unjudged):
            first = unjudged.iloc[0]
            what = (f"{who(first)}{_figure(first)} {first.why}"
                    f"{_more(len(unjudged) - 1)}")
        else:
            what = "no figure of its type in the references"
        lines.append(summary_line(f"not judged: {what}"))
        return lines, EXIT_NOT_JUDGED
    for host, rows in same.groupby("host", sort=True):
        lines.append(f"{LINE} ok {host}: {len(rows)} figure(s) judged, none worse than the "
                     f"references")
    lines.append(summary_line(f"healthy, {len(same)} figures"))
    return lines, EXIT_HEALTHY
