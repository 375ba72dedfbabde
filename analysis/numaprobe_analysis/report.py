# SPDX-License-Identifier: BSD-3-Clause
"""The report in three forms: text on stdout, one self-contained HTML file (images embedded as
data URIs, no network), Markdown beside the PNG files, and one CSV file per table."""

import base64
import html
import os
from datetime import datetime, timezone

import numpy as np
import pandas as pd

from .counters import COUNTER_LINES, host_lines, host_table
from .experiments import EXPERIMENTS
from .noise import NOISY_PCT, is_noisy
from .outliers import small_types_text
from .summary import (IDENTITY_ROWS, RESTORE_ACTION, UNCERTAINTY, comparison_frame, drift_frame,
                      drift_text, is_host_report, outliers_with_drift, restored_frame,
                      still_changed_hosts)
from .topology import class_table, first_rank_rows, numactl_lines


def _fmt(x):
    if isinstance(x, float):
        if pd.isna(x):
            return "-"
        return f"{x:.3g}" if abs(x) < 1000 else f"{x:.0f}"
    return str(x)


# Rows a table shows in the HTML and Markdown report (every row is in its CSV): a fleet of
# 10,000 hosts stays a page a person reads. The outliers come worst first.
TABLE_ROWS = 50


# Outlier sentences the HTML and Markdown report write above the outlier table: beyond a few,
# sentences bury the page's answer; the table below holds them all, worst first.
SENTENCES = 10


def capped(frame, name):
    """The first TABLE_ROWS rows of @p frame and a note naming the CSV with all of them."""
    if len(frame) <= TABLE_ROWS:
        return frame, ""
    return frame.head(TABLE_ROWS), (f"The first {TABLE_ROWS} of {len(frame)} rows; all of "
                                    f"them in {name}.csv.")


def display(frame):
    """A copy with numbers written for people (3 significant digits)."""
    return frame.apply(lambda col: col.map(_fmt)) if len(frame) else frame


def with_uncertainty(frame):
    """The comparison as people read it: where it carries each figure's uncertainty (a host
    report), each figure as "value ± u%", and "~noisy" after a noisy one; the CSV keeps the
    numbers apart."""
    if UNCERTAINTY not in frame.columns or not len(frame):
        return frame
    frame = frame.copy()
    u = frame.pop(UNCERTAINTY)
    for col in [c for c in frame.columns if c not in ("metric", "unit", "better", "noisy")
                and not c.endswith(("/ ref", "% of peak"))]:
        frame[col] = [f"{_fmt(x)} ± {e:.0f}%" + (" ~noisy" if is_noisy(e) else "")
                      if isinstance(x, float) and np.isfinite(e) else x
                      for x, e in zip(frame[col], u)]
    return frame


def files_frame(v):
    rows = []
    for res in v.fleet.files:
        a = res.attrs
        rows.append({"file": res.path, "schema": a.get("schema_version"),
                     "numaprobe": f"{a.get('software_version')} ({a.get('git_revision')})",
                     "start_utc": a.get("start_utc"), "ranks": a.get("world_size"),
                     "hosts": a.get("host_count"), "failed": a.get("hosts_failed"),
                     "complete": a.get("complete"), "scheduler": a.get("scheduler"),
                     "job_id": a.get("job_id")})
    return pd.DataFrame(rows)


def type_summary(v, typ):
    s = v.summary[v.summary["type"] == typ]
    return s[["metric", "unit", "hosts", "median", "q25", "q75", "IQR", "min", "max"]]


def title(v):
    """A single host gets a host report; several, a fleet report."""
    if is_host_report(v):
        return f"numaprobe host report: {v.hosts.host.iloc[0]}"
    return "numaprobe fleet report"


def comparison_title(v, ref):
    if is_host_report(v):
        return (f"Host figures: {v.type_names()[0]} (medians over the host's ranks and node "
                f"pairs; % of peak: of one NUMA node's share of peak_gbs)")
    ratio = ""
    if len(v.types) > 1:
        ratio = (f"X / ref: ratio to {ref}; " if ref is not None else
                 f"no ratios: no node type has --min-hosts {v.rule.min_hosts} hosts; ")
    return (f"Node-type comparison (median over hosts; {ratio}% of peak: of one NUMA node's "
            f"share of peak_gbs)")


def tables(v, reference=None):
    """Every table of the report, in reading order: name -> (title, frame). The CSV files take
    the names. The answer first: the node-type comparison, then the outliers with their config
    drift; the plots follow them (HTML, Markdown), then the details."""
    comparison, ref = comparison_frame(v, reference)
    drift = drift_frame(v)
    out = {"comparison": (comparison_title(v, ref), comparison)}
    if not is_host_report(v):
        outliers = outliers_with_drift(v, drift)
        if len(outliers) and "deviation_pct" in outliers.columns:
            outliers = outliers.iloc[outliers.deviation_pct.abs().argsort()[::-1]]
        out["outliers"] = ("Outlier hosts, with their config drift (worst first)",
                           outliers.reset_index(drop=True))
    if v.degraded is not None and len(v.degraded):
        out["degraded"] = (DEGRADED_TITLE, v.degraded)
    restored = restored_frame(v)
    if len(restored):
        out["restored"] = (RESTORED_TITLE, restored)
    if not is_host_report(v):
        if v.counters is not None and len(v.counters.values):
            out["counter_outliers"] = (
                "Hosts whose counters differ from their node type's (IPC of the local chase, "
                "CPU migrations; the outlier rule, not counted as outliers)",
                v.counters.outliers.drop(columns=["key"]))
        out["drift"] = ("Config drift within a node type (hosts unlike most of their type)",
                        drift)
    out["noisy"] = (f"Noisy figures (spread above {NOISY_PCT:g}%: shown, not judged)",
                    noisy_frame(v))
    if counter_lines(v):
        out["counters"] = ("Counters per host (derived from /counters ok rows, never stored: "
                           "IPC and LLC misses per access of the local chase, memory-controller "
                           "over bus bytes of the local bandwidth kernels, migrations and "
                           "context switches over every measurement, groups not counted)",
                           host_table(v.counters))
    out["node_types"] = ("Node types", v.types)
    classes = class_table(v.fleet, v.hosts)
    for i, typ in enumerate(v.type_names()):
        out[f"summary_type{i + 1}"] = (f"{typ}: median and IQR over hosts", type_summary(v, typ))
        out[f"classes_type{i + 1}"] = (f"{typ}: latency and bandwidth per pair class (median "
                                       f"over hosts and pairs, valid cells bound to one node)",
                                       type_classes(classes, typ))
    for e in EXPERIMENTS:
        if e.tables is not None:
            out.update(e.tables(v))
    out["hosts"] = ("Hosts", v.hosts.drop(columns=["node_type"]))
    out["files"] = ("Files", files_frame(v))
    wide = v.values.pivot_table(index=["type", "host"], columns="metric", values="value") \
        if len(v.values) else pd.DataFrame(columns=["type", "host"])
    out["host_metrics"] = ("Every host's headline values", wide.reset_index())
    return out


# The tables after which the plots come: the answer (comparison, outliers, settings left
# changed, drift) first.
LEAD = ("comparison", "outliers", "degraded", "restored", "drift")
DEGRADED_TITLE = ("Degraded hosts: short of their node type's hardware (memory, cores, NUMA "
                  "nodes, DIMMs), judged with their type")
RESTORED_TITLE = ("Settings left changed by a killed run (every job on these hosts ran with "
                  "them changed for an unknown time)")


def n_hosts(frame):
    return frame.host.nunique()


def summary_line(v):
    """The first sentence: how many hosts, types, outliers and noisy figures."""
    n_out = v.outliers.host.nunique()
    noisy = noisy_frame(v)
    if is_host_report(v):
        h = v.hosts.iloc[0]
        text = f"One host, {h.host}, of node type {h.type}: not judged against peers."
    else:
        text = (f"{len(v.hosts)} host(s) of {len(v.types)} node type(s); {n_out} outlier "
                f"host(s).")
        n_counters = v.counters.outliers.host.nunique() if v.counters is not None else 0
        if n_counters:
            text += f" {n_counters} host(s) whose counters differ from their type's."
    if v.degraded is not None and len(v.degraded):
        text += (f" {len(v.degraded)} degraded host(s), short of their node type's hardware: "
                 + ", ".join(v.degraded.host.head(5)) + (", ..." if len(v.degraded) > 5
                                                          else "") + ".")
    if len(noisy):
        text += f" {len(noisy)} noisy figure(s) not judged."
    restored = restored_frame(v)
    if len(restored):
        still = int((restored.action == RESTORE_ACTION).sum())
        text += (f" {len(restored)} host(s) with a setting a killed run left changed"
                 + (f", {still} still not put back (run 'numaprobe restore' as root)."
                    if still else ", put back."))
    return text, n_out


def noisy_frame(v):
    """Host figures whose uncertainty (spread_pct) is above the noise limit, noisiest first."""
    cols = ["type", "host", "metric", "unit", "value", "spread_pct"]
    if v.values.empty or "spread_pct" not in v.values.columns:
        return pd.DataFrame(columns=cols)
    n = v.values[is_noisy(v.values.spread_pct)]
    labels = {k: (m.label, m.unit) for k, m in v.catalogue.items()}
    frame = n.assign(unit=n.metric.map(lambda k: labels[k][1]),
                     metric=n.metric.map(lambda k: labels[k][0]))
    return frame[cols].sort_values("spread_pct", ascending=False).reset_index(drop=True)


def type_classes(classes, typ):
    if classes.empty:
        return classes
    return classes[classes["type"] == typ].drop(columns="type").reset_index(drop=True)


def type_topology(v, typ):
    """numactl --hardware's view of the first host of a node type."""
    hosts = sorted(v.type_hosts(typ))
    if not hosts:
        return "", []
    nodes = first_rank_rows(v.fleet["numa_nodes"], "host", hosts[0])
    dist = first_rank_rows(v.fleet["distances"], "host", hosts[0])
    return hosts[0], numactl_lines(nodes, dist)


def judgement_lines(v, cap=TABLE_ROWS):
    """Sentences about outliers: who is off and by how much (the @p cap worst, then how many
    more), and which types were not judged."""
    rule = v.rule
    if is_host_report(v):
        lines = ["A single host: outliers need peers of its node type; see the host figures."]
        lines += small_types_text(v.too_small, rule)
        noisy = noisy_frame(v)
        if len(noisy):
            lines.append(f"{len(noisy)} noisy figure(s): " + ", ".join(
                f"{r.metric} ({r.spread_pct:.0f}%)" for r in noisy.head(10).itertuples(
                    index=False)))
        return lines
    lines = [f"Outlier rule: robust z-score (median, MAD scaled to sigma) above "
             f"{rule.z_limit:g} and more than {rule.pct_limit:g}% plus the figure's own "
             f"uncertainty from the type median, in node types of at least {rule.min_hosts} "
             f"hosts."]
    lines += small_types_text(v.too_small, rule)
    if v.values.empty:
        lines.append("No headline metrics to judge: no latency or bandwidth rows with status ok.")
    elif v.outliers.empty:
        judged = len(v.types) - len(v.too_small)
        lines.append("No outlier hosts." if judged else "No node type was large enough to judge.")
    noisy = noisy_frame(v)
    if len(noisy):
        lines.append(f"{len(noisy)} noisy figure(s) on {noisy.host.nunique()} host(s) not "
                     f"judged (uncertainty above {NOISY_PCT:g}%: passes apart in time and the "
                     f"burst's own spread): " + ", ".join(
                         f"{r.host} {r.metric} ({r.spread_pct:.0f}%)"
                         for r in noisy.head(10).itertuples(index=False))
                     + (", ..." if len(noisy) > 10 else ""))
    drift = drift_text(drift_frame(v))
    if len(v.outliers) > cap:
        lines.append(f"{len(v.outliers)} outlier figure(s) on {n_hosts(v.outliers)} host(s); "
                     f"the {cap} worst:")
    worst = v.outliers.iloc[v.outliers.deviation_pct.abs().argsort(kind="stable")[::-1]] \
        if len(v.outliers) else v.outliers
    for r in worst.head(cap).itertuples(index=False):
        lines.append(f"{r.host} ({r.type}): {r.metric} {_fmt(r.value)} {r.unit} vs type median "
                     f"{_fmt(r.type_median)} ({r.deviation_pct:+.1f}%, z {r.robust_z:+.1f}, "
                     f"{r.verdict})" + (f"; config drift: {drift[r.host]}" if r.host in drift
                                        else ""))
    if len(v.outliers) > cap:
        lines.append(f"and {len(v.outliers) - cap} more: see the table (all of them in "
                     f"outliers.csv)")
    return lines + counter_judgement_lines(v, drift, cap)


def counter_judgement_lines(v, drift, cap=TABLE_ROWS):
    """The hosts whose IPC of the chase or CPU migrations differ from their node type's, by the
    outlier rule: pointed out as outliers are, not counted as outlier hosts."""
    cv = v.counters
    if cv is None or cv.outliers is None or cv.outliers.empty:
        return []
    lines = [f"Counters unlike the node type's ({cv.outliers.host.nunique()} host(s); the same "
             f"rule on the IPC of the local chase and the CPU migrations; not outliers, "
             f"--fail-on-outliers ignores them):"]
    for r in cv.outliers.head(cap).itertuples(index=False):
        how = (f"{r.deviation_pct:+.1f}%, z {r.robust_z:+.1f}, {r.verdict}"
               if np.isfinite(r.deviation_pct) else r.verdict)
        lines.append(f"{r.host} ({r.type}): {r.metric} {_fmt(r.value)} {r.unit} vs type median "
                     f"{_fmt(r.type_median)} ({how})" + (f"; config drift: {drift[r.host]}"
                                                         if r.host in drift else ""))
    if len(cv.outliers) > cap:
        lines.append(f"and {len(cv.outliers) - cap} more: see the table (all of them in "
                     f"counter_outliers.csv)")
    return lines


def restored_lines(v):
    """(host, text) per host whose setting a killed run left changed, those still changed first
    and saying what they need."""
    return [(r.host, f"({RESTORE_ACTION}) {r.restored}" if r.action == RESTORE_ACTION
             else r.restored) for r in restored_frame(v).itertuples(index=False)]


def counter_lines(v):
    """The counters section: one line per host with something to say (counters.host_lines),
    the hosts pointed out first."""
    if v.counters is None or not v.counters.present():
        return []
    first = list(dict.fromkeys(v.counters.outliers.host)) if v.counters.outliers is not None \
        else []
    return host_lines(v.counters, first)


def text(v, plots=None, reference=None):
    """The report on stdout: the comparison, the outliers and drift, then per type."""
    parts = []
    with pd.option_context("display.width", 200, "display.max_columns", 30,
                           "display.max_colwidth", 50):
        line, _ = summary_line(v)
        parts.append(f"{title(v)}\n{line}")
        frame, ref = comparison_frame(v, reference)
        parts.append(f"{comparison_title(v, ref)}\n"
                     + display(with_uncertainty(frame)).to_string(index=False))
        parts.append("Outliers\n" + "\n".join(judgement_lines(v)))
        if v.degraded is not None and len(v.degraded):
            shown = v.degraded.head(TABLE_ROWS)
            more = (f"\n  ... and {len(v.degraded) - TABLE_ROWS} more host(s): degraded.csv in "
                    f"the report directory" if len(v.degraded) > TABLE_ROWS else "")
            parts.append(f"{DEGRADED_TITLE}\n" + "\n".join(
                f"  {r.host} ({r.type}): {r.reason}" for r in shown.itertuples(index=False))
                + more)
        restored = restored_lines(v)
        if restored:
            more = (f"\n  ... and {len(restored) - TABLE_ROWS} more host(s): restored.csv in "
                    f"the report directory" if len(restored) > TABLE_ROWS else "")
            parts.append(f"{RESTORED_TITLE}\n" + "\n".join(
                f"  {h}: {t}" for h, t in restored[:TABLE_ROWS]) + more)
        drift = drift_frame(v)
        if len(drift) and not is_host_report(v):
            shown, note = capped(drift, "drift")
            parts.append("Config drift within a node type\n" + display(shown).to_string(
                index=False) + (f"\n{note}" if note else ""))
        lines = counter_lines(v)
        if lines:
            more = (f"\n  ... and {len(lines) - COUNTER_LINES} more line(s): counters.csv in "
                    f"the report directory" if len(lines) > COUNTER_LINES else "")
            shown = "\n".join(f"  {h}: {t}" for h, t in lines[:COUNTER_LINES])
            parts.append("Counters (from the ok rows of /counters: IPC and LLC misses per "
                         "access of the local chase, memory-controller / bus bytes of the local "
                         "bandwidth kernels, the stride sweep's prefetch coverage, totals of "
                         "migrations and context switches)\n"
                         + shown + more)
        parts.append("Node types\n" + display(v.types).to_string(index=False))
        classes = class_table(v.fleet, v.hosts)
        for typ in v.type_names():
            s = type_summary(v, typ)
            body = display(s).to_string(index=False) if len(s) else "(no headline metrics)"
            parts.append(f"{typ}: median and IQR over hosts\n{body}")
            c = type_classes(classes, typ)
            if len(c):
                parts.append(f"{typ}: per pair class\n" + display(c).to_string(index=False))
    if plots:
        lines = [f"  {p.name}: {'written' if not p.skipped else 'skipped: ' + p.skipped}"
                 for p in plots]
        parts.append("Plots\n" + "\n".join(lines))
    return "\n\n".join(parts) + "\n"


def write_csv(tabs, outdir):
    paths = []
    for name, (_title, frame) in tabs.items():
        if name == "comparison":
            # Figures only, so that a script reads each type's column as numbers: its CPU
            # model and SIMD path are in node_types.csv.
            frame = frame[~frame.metric.isin([label for _, label in IDENTITY_ROWS])]
        path = os.path.join(outdir, f"{name}.csv")
        frame.to_csv(path, index=False)
        paths.append(path)
    return paths


def _md_table(frame):
    if frame.empty:
        return "(none)\n"
    f = display(frame)
    rows = [list(f.columns)] + f.astype(str).values.tolist()
    esc = [[c.replace("|", "\\|") for c in map(str, r)] for r in rows]
    lines = ["| " + " | ".join(esc[0]) + " |", "|" + "---|" * len(esc[0])]
    lines += ["| " + " | ".join(r) + " |" for r in esc[1:]]
    return "\n".join(lines) + "\n"


def _md_plots(plots):
    out = ["## Plots\n"]
    for p in plots:
        if p.skipped:
            out.append(f"- {p.title}: not drawn: {p.skipped}\n")
        else:
            out.append(f"### {p.title}\n\n![{p.title}]({os.path.basename(p.png)})\n")
    return "\n".join(out)


def write_markdown(v, tabs, plots, path):
    line, _ = summary_line(v)
    out = [f"# {title(v)}\n\n{_generated()}\n\n{line}\n"]
    out += [f"- note: {n}" for n in v.fleet.notes]
    for name, (heading, frame) in tabs.items():
        shown, note = capped(frame, name)
        if name == "comparison":
            shown = with_uncertainty(shown)
        out.append(f"## {heading}\n\n{_md_table(shown)}" + (f"\n{note}\n" if note else ""))
        if name == "comparison":
            out.append("\n".join(f"- {line}" for line in judgement_lines(v, SENTENCES)) + "\n")
        if name == _last_lead(tabs):
            out.append(_md_plots(plots))
    with open(path, "w") as f:
        f.write("\n".join(out))


def _last_lead(tabs):
    return [n for n in LEAD if n in tabs][-1]


def _generated():
    return f"Generated {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC by numaprobe-report."


CSS = """
body { font-family: sans-serif; margin: 2em; color: #222; max-width: 1400px; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
th { background: #f0f0f0; } td:first-child, th:first-child { text-align: left; }
.bad { color: #b00; font-weight: bold; } .note { color: #555; }
figure { margin: 1em 0 2em; } figure img { max-width: 100%; border: 1px solid #ddd; }
"""


def _html_table(frame, name=""):
    if frame.empty:
        return "<p class=note>(none)</p>"
    return display(frame).to_html(index=False, escape=True, border=0,
                                  table_id=f"table-{name}" if name else None)


def _data_uri(png):
    with open(png, "rb") as f:
        return "data:image/png;base64," + base64.b64encode(f.read()).decode("ascii")


def write_html(v, tabs, plots, path):
    e = html.escape
    line, n_out = summary_line(v)
    bad = n_out or still_changed_hosts(v) or (v.degraded is not None and len(v.degraded))
    body = [f"<h1>{e(title(v))}</h1><p class=note>{e(_generated())}</p>",
            f"<p id=summary class={'bad' if bad else 'note'}>{e(line)}</p>"]
    if v.fleet.notes:
        body.append("<ul class=note>" + "".join(f"<li>{e(n)}</li>" for n in v.fleet.notes)
                    + "</ul>")
    for name, (heading, frame) in tabs.items():
        if name == "host_metrics":
            continue  # long; in CSV and Markdown
        shown, note = capped(frame, name)
        if name == "comparison":
            shown = with_uncertainty(shown)
        body.append(f"<h2 id={name}>{e(heading)}</h2>{_html_table(shown, name)}"
                    + (f"<p class=note id=more-{name}>{e(note)}</p>" if note else ""))
        if name == "comparison":
            body.append("<ul id=judgement>" + "".join(f"<li>{e(x)}</li>"
                                                      for x in judgement_lines(v, SENTENCES))
                        + "</ul>")
        if name.startswith("classes_type"):
            host, lines = type_topology(v, v.type_names()[int(name[len("classes_type"):]) - 1])
            if lines:
                body.append(f"<p>Topology of {e(host)} (as <code>numactl --hardware</code>; "
                            f"free: when the run started)</p><pre>{e(chr(10).join(lines))}"
                            f"</pre>")
        if name == _last_lead(tabs):
            body.append(_html_plots(plots))
    page = (f"<!DOCTYPE html><html><head><meta charset=utf-8><title>{e(title(v))}"
            f"</title><style>{CSS}</style></head><body>{''.join(body)}</body></html>")
    with open(path, "w") as f:
        f.write(page)


def _html_plots(plots):
    e = html.escape
    parts = ["<h2>Plots</h2>"]
    for p in plots:
        if p.skipped:
            parts.append(f"<p class=note>{e(p.title)}: not drawn: {e(p.skipped)}</p>")
        else:
            parts.append(f"<figure><figcaption><b>{e(p.title)}</b></figcaption>"
                         f"<img alt=\"{e(p.title)}\" src=\"{_data_uri(p.png)}\"></figure>")
    return "".join(parts)


def write_all(v, plots, outdir, reference=None):
    """Writes report.html, report.md and the CSV files into outdir; returns the HTML path."""
    os.makedirs(outdir, exist_ok=True)
    tabs = tables(v, reference)
    write_csv(tabs, outdir)
    write_markdown(v, tabs, plots, os.path.join(outdir, "report.md"))
    html_path = os.path.join(outdir, "report.html")
    write_html(v, tabs, plots, html_path)
    return html_path
