# SPDX-License-Identifier: BSD-3-Clause
"""The history report: text on stdout, history.html (per-host trend lines of the headline
metrics, embedded PNG), and CSV files (runs, history, drift, vanished)."""

import html
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402

from .history import parse_time, trend_metrics, values_wide  # noqa: E402
from .report import CSS, _data_uri, _generated, _html_table, display  # noqa: E402


def summary_line(history, drift, gone):
    worse = drift[drift.verdict == "worse"]
    first, last = history.runs.start_utc.iloc[0], history.runs.start_utc.iloc[-1]
    return (f"{len(history.runs)} run(s) from {first} to {last}, "
            f"{history.hosts.host.nunique()} host(s); {worse.host.nunique()} host(s) drifted "
            f"({len(worse)} figure(s) worse), {len(gone)} host(s) vanished")


def text(history, drift, gone, notes):
    out = [summary_line(history, drift, gone)]
    out += [f"note: {n}" for n in history.notes + notes]
    cols = ["host", "type", "metric", "unit", "rule", "value", "reference", "change_pct", "runs"]
    for title, frame in (("Drift (worse)", drift[drift.verdict == "worse"][cols]),
                         ("Better than before", drift[drift.verdict == "better"][cols]),
                         ("Vanished hosts", gone)):
        out.append(f"\n{title}: {len(frame)}")
        if len(frame):
            out.append(display(frame).to_string(index=False))
    return "\n".join(out) + "\n"


def _trend_figure(history, drift, key):
    """One panel per node type: a thin line per host against run start time, the drifted
    hosts in red and labelled, the type's median per run in black; y from 0."""
    m = history.catalogue[key]
    vals = history.values[(history.values.metric == key) & history.values.value.notna()]
    vals = vals.assign(t=[parse_time(s) for s in vals.start_utc]).dropna(subset=["t"])
    types = sorted(vals.type.unique())
    flagged = set(drift[(drift.key == key) & (drift.verdict == "worse")].host)
    fig, axes = plt.subplots(len(types), 1, figsize=(10, 3.2 * len(types)), squeeze=False)
    for ax, typ in zip(axes[:, 0], types):
        rows = vals[vals.type == typ].sort_values("t")
        lines, red = [], []
        for host, h in rows.groupby("host", sort=True):
            pts = list(zip(mdates.date2num(list(h.t)), h.value))
            (red if host in flagged else lines).append((host, pts))
        ax.add_collection(LineCollection([p for _, p in lines], colors="#9bb", linewidths=0.8))
        for host, pts in red:
            xs, ys = zip(*pts)
            ax.plot(xs, ys, color="#c00", lw=1.8, marker="o", ms=3)
            ax.annotate(host, (xs[-1], ys[-1]), color="#c00", fontsize=8,
                        xytext=(4, 0), textcoords="offset points", va="center")
        med = rows.groupby("t").value.median()
        ax.plot(mdates.date2num(list(med.index)), med.values, color="black", lw=2,
                label="type median")
        ax.set_ylim(0, max(rows.value.max(), 1e-9) * 1.15)
        ax.xaxis_date()
        ax.autoscale_view(scaley=False)
        ax.set_title(f"{typ}: {rows.host.nunique()} host(s)", fontsize=10)
        ax.set_ylabel(m.unit)
        ax.legend(loc="lower left", fontsize=8)
    fig.suptitle(f"{m.label} per host over time (red: drifted)")
    fig.autofmt_xdate()
    fig.tight_layout()
    return fig


def render_trends(history, drift, outdir):
    """trend_KEY.png per trend metric; returns [(key, title, png)]."""
    done = []
    for key in trend_metrics(history, drift):
        fig = _trend_figure(history, drift, key)
        png = os.path.join(outdir, f"trend_{key}.png")
        fig.savefig(png, dpi=90)
        plt.close(fig)
        done.append((key, history.catalogue[key].label, png))
    return done


def write_all(history, drift, gone, notes, outdir, plots=True):
    """history.html and the CSV files into outdir; returns the HTML path."""
    os.makedirs(outdir, exist_ok=True)
    history.runs.drop(columns=["order"]).to_csv(os.path.join(outdir, "runs.csv"), index=False)
    values_wide(history).to_csv(os.path.join(outdir, "history.csv"), index=False)
    drift.to_csv(os.path.join(outdir, "drift.csv"), index=False)
    gone.to_csv(os.path.join(outdir, "vanished.csv"), index=False)
    trends = render_trends(history, drift, outdir) if plots else []
    e = html.escape
    worse = drift[drift.verdict == "worse"].drop(columns=["key", "verdict"])
    better = drift[drift.verdict == "better"].drop(columns=["key", "verdict"])
    body = [f"<h1>numaprobe fleet history</h1><p class=note>{e(_generated())}</p>",
            f"<p id=summary class={'bad' if len(worse) else 'note'}>"
            f"{e(summary_line(history, drift, gone))}</p>"]
    if history.notes or notes:
        body.append("<ul class=note>" + "".join(f"<li>{e(n)}</li>" for n in history.notes + notes)
                    + "</ul>")
    body.append(f"<h2 id=drift>Drift (worse)</h2>{_html_table(worse, 'drift')}")
    body.append(f"<h2 id=vanished>Vanished hosts</h2>{_html_table(gone, 'vanished')}")
    body.append("<h2>Trends</h2>")
    for _key, title, png in trends:
        body.append(f"<figure><figcaption><b>{e(title)}</b></figcaption>"
                    f"<img alt=\"{e(title)}\" src=\"{_data_uri(png)}\"></figure>")
    body.append(f"<h2 id=better>Better than before</h2>{_html_table(better, 'better')}")
    runs = history.runs.drop(columns=["order"])
    body.append(f"<h2 id=runs>Runs</h2>{_html_table(runs, 'runs')}")
    page = (f"<!DOCTYPE html><html><head><meta charset=utf-8><title>numaprobe fleet history"
            f"</title><style>{CSS}</style></head><body>{''.join(body)}</body></html>")
    path = os.path.join(outdir, "history.html")
    with open(path, "w") as f:
        f.write(page)
    return path


def frame_records(frame):
    """JSON-ready rows (NaN as None)."""
    return [{k: (None if isinstance(v, float) and pd.isna(v) else v) for k, v in r.items()}
            for r in frame.to_dict(orient="records")]
