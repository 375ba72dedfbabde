# SPDX-License-Identifier: BSD-3-Clause
"""History and drift: many runs of the same fleet over time (a nightly job's files), one value
per run, host and headline metric, and the hosts whose figures moved.

Each file is one run (run_id, start_utc). Runs of different measurement configs are refused, as
by the report, or kept as separate groups (--allow-mixed-configs), never pooled. Within a group,
a host's latest run is judged on each judged metric (docs/ANALYSIS.md, "History and drift"):

  own:  against the median of its previous `window` runs (at least `min_runs` of them, same
        node type), beyond `tolerance` percent;
  type: against the median of its node type's latest values (at least `min_hosts` hosts),
        beyond `tolerance` percent.

A change in the worse direction is drift (exit 1); in the better direction it is listed as
`better`. A noisy figure is neither judged nor counted in a median. A host seen in the group
but in no run of its last night (runs within `recent_hours` of the newest) has vanished."""

from dataclasses import dataclass, field
from datetime import datetime, timedelta

import numpy as np
import pandas as pd

from .experiments import bandwidth_matrix, latency_matrix
from .fleet import load_fleet
from .metrics import host_metrics, hosts_frame
from .names import Status
from .noise import NOISY_PCT, is_noisy
from .runs import refuse_mixed, run_of


@dataclass(frozen=True)
class DriftRule:
    tolerance_pct: float = 10.0
    window: int = 7
    min_runs: int = 3
    min_hosts: int = 3
    recent_hours: float = 20.0
    tolerances: dict = field(default_factory=dict)  # metric key -> percent

    def limit(self, key):
        return self.tolerances.get(key, self.tolerance_pct)


@dataclass
class History:
    runs: pd.DataFrame       # run_id, start_utc, path, config, hosts
    values: pd.DataFrame     # run_id, start_utc, config, host, type, type_key, metric, value
    catalogue: dict
    hosts: pd.DataFrame      # run_id, start_utc, config, host, type, fingerprint, status
    notes: list = field(default_factory=list)


def parse_time(text):
    try:
        return datetime.strptime(str(text).replace("Z", ""), "%Y-%m-%dT%H:%M:%S")
    except ValueError:
        return None


def matrix_values(fleet, hosts):
    """The headline metrics of one run (the latency and bandwidth matrices': without the
    per-host cache and first-touch figures a trend does not need)."""
    return host_metrics(fleet, hosts, (latency_matrix.EXPERIMENT, bandwidth_matrix.EXPERIMENT))


def load_history(paths, allow_mixed=False):
    """Reads every file as its own run (ResultsError on the first unusable one); refuses
    runs of different measurement configs unless @p allow_mixed."""
    frames, host_rows, run_rows, catalogue = [], [], [], {}
    # A run at a time, its rows let go before the next is read: of each, only its hosts and
    # their values are kept.
    read = []
    for i, path in enumerate(paths):
        fleet = load_fleet([path], all_runs=True)
        hosts = hosts_frame(fleet)
        read.append((run_of(fleet.files[0], i), hosts, matrix_values(fleet, hosts)))
        del fleet
    runs = [run for run, _, _ in read]
    refuse_mixed(runs, allow_mixed)
    for run, hosts, (values, cat) in read:
        catalogue.update(cat)
        tag = {"run_id": run.run_id, "start_utc": run.start_utc, "config": run.fingerprint}
        hosts = hosts.assign(**tag)
        # A host's own history is its runs of the same node type (type_key, nodetypes.py), not
        # of the same fingerprint: a lost DIMM changes the fingerprint, and that is the run the
        # host's own history must judge.
        values = values.merge(hosts[["host", "type_key"]], on="host", how="left")
        frames.append(values.assign(**tag))
        host_rows.append(hosts[["run_id", "start_utc", "config", "host", "type", "fingerprint",
                                "status"]])
        run_rows.append({**tag, "path": run.path, "hosts": len(hosts), "order": run.order})
    runs_frame = pd.DataFrame(run_rows)
    notes = []
    dup = runs_frame[runs_frame.run_id.duplicated()]
    for r in dup.itertuples(index=False):
        notes.append(f"{r.path}: run {r.run_id} given twice; counted once")
    keep = ~runs_frame.run_id.duplicated()
    runs_frame = runs_frame[keep].sort_values(["start_utc", "order"]).reset_index(drop=True)
    values = pd.concat(frames, ignore_index=True).drop_duplicates(["run_id", "host", "metric"])
    hosts = pd.concat(host_rows, ignore_index=True).drop_duplicates(["run_id", "host"])
    return History(runs=runs_frame, values=values, catalogue=catalogue, hosts=hosts,
                   notes=notes)


DRIFT_COLUMNS = ["host", "type", "metric", "unit", "rule", "value", "reference", "change_pct",
                 "runs", "verdict", "start_utc", "key"]


def _change(x, ref):
    return (x - ref) / abs(ref) * 100 if ref != 0 else np.inf


def judge(history, rule=DriftRule()):
    """Returns (drift frame, vanished frame, notes), over every config group."""
    drift, vanished, notes = [], [], []
    for config, runs in history.runs.groupby("config", sort=False):
        d, g, n = _judge_group(history, runs, rule)
        drift += d
        vanished += g
        notes += n
    frame = pd.DataFrame(drift, columns=DRIFT_COLUMNS)
    order = frame.verdict.map({"worse": 0, "better": 1})
    frame = frame.assign(_v=order, _a=-frame.change_pct.abs()).sort_values(
        ["_v", "host", "metric", "rule"]).drop(columns=["_v", "_a"]).reset_index(drop=True)
    gone = pd.DataFrame(vanished, columns=["host", "type", "last_seen_utc", "last_run_id",
                                           "runs_seen"])
    return frame, gone, notes


def _judge_group(history, runs, rule):
    ids = list(runs.run_id)
    vals = history.values[history.values.run_id.isin(ids) & history.values.value.notna()]
    judged = {k for k, m in history.catalogue.items() if m.judged}
    vals = vals[vals.metric.isin(judged)]
    skipped = vals.iloc[:0]
    if "spread_pct" in vals.columns:
        noisy = is_noisy(vals.spread_pct)
        skipped, vals = vals[noisy], vals[~noisy]
    hosts = history.hosts[history.hosts.run_id.isin(ids)]
    drift, notes = [], []
    # Each host's latest run in the group, and the value of each metric there.
    latest = hosts.sort_values("start_utc").groupby("host").tail(1).set_index("host")
    # A noisy figure of a latest run is not judged: said, with its uncertainty, never dropped.
    unjudged = skipped.merge(latest[["run_id"]].reset_index(), on=["host", "run_id"])
    if len(unjudged):
        named = ", ".join(f"{r.host} {history.catalogue[r.metric].label} ({r.spread_pct:.0f}%)"
                          for r in unjudged.head(10).itertuples())
        more = f" and {len(unjudged) - 10} more" if len(unjudged) > 10 else ""
        notes.append(f"{len(unjudged)} figure(s) of the latest runs not judged, noisy "
                     f"(uncertainty above {NOISY_PCT:g}%): {named}{more}")
    for host, row in latest[latest.status != Status.OK].iterrows():
        notes.append(f"{host}: status {row.status} in its latest run ({row.start_utc})")
    vals = vals.sort_values("start_utc")
    last = vals.merge(latest[["run_id"]].reset_index(), on=["host", "run_id"])
    # Own rule: previous runs of the same host and node type, every host's at once (a loop over
    # hosts costs minutes at 100,000).
    now = last.drop_duplicates(["host", "metric"])
    ref = now[["host", "metric", "run_id", "type_key", "start_utc"]].rename(
        columns={"run_id": "_run", "type_key": "_type", "start_utc": "_start"})
    prev = vals.merge(ref, on=["host", "metric"])  # in vals' order
    prev = prev[(prev.run_id != prev._run) & (prev.type_key == prev._type)
                & (prev.start_utc <= prev._start)]
    prev = prev.groupby(["host", "metric"], sort=False).tail(rule.window)
    own = prev.groupby(["host", "metric"], sort=True).value.agg(["median", "size"])
    now = {(r.host, r.metric): r for r in now.itertuples(index=False)}
    for (host, key), median, n in zip(own.index, own["median"], own["size"]):
        if n >= rule.min_runs:
            _flag(drift, history.catalogue[key], now[(host, key)], float(median), "own", int(n),
                  rule)
    # Type rule: the latest values of the type's hosts measured in the last night.
    recent = last[last.run_id.isin(_recent_runs(runs, rule))]
    for (typ, key), group in recent.groupby(["type", "metric"], sort=True):
        if group.host.nunique() < rule.min_hosts:
            continue
        ref = float(group.value.median())
        for now in group.itertuples(index=False):
            _flag(drift, history.catalogue[key], now, ref, "type", group.host.nunique(), rule)
    return drift, _vanished(hosts, runs, rule), notes


def _flag(out, m, now, ref, rule_name, n, rule):
    """Drift when the change is beyond the tolerance widened by the figure's own uncertainty."""
    change = _change(float(now.value), ref)
    own = float(now.spread_pct) if np.isfinite(getattr(now, "spread_pct", np.nan)) else 0.0
    if not abs(change) > rule.limit(m.name) + max(own, 0.0):
        return
    worse = (change > 0) == (m.better == "lower")
    out.append([now.host, now.type, m.label, m.unit, rule_name, float(now.value), ref,
                float(change), int(n), "worse" if worse else "better", now.start_utc, m.name])


def _recent_runs(runs, rule):
    """The last night: the runs started within recent_hours of the newest run's start."""
    times = [parse_time(t) for t in runs.start_utc]
    newest = max((t for t in times if t), default=None)
    if newest is None:
        return {runs.run_id.iloc[-1]}
    since = newest - timedelta(hours=rule.recent_hours)
    return {r for r, t in zip(runs.run_id, times) if t and t >= since}


def _vanished(hosts, runs, rule):
    """Hosts seen in the group but in none of its last night's runs."""
    recent = _recent_runs(runs, rule)
    seen_recently = set(hosts[hosts.run_id.isin(recent)].host)
    out = []
    ordered = hosts.sort_values("start_utc")
    for host, rows in ordered[~ordered.host.isin(seen_recently)].groupby("host", sort=True):
        tail = rows.iloc[-1]
        out.append([host, tail.type, tail.start_utc, tail.run_id, len(rows)])
    return out


HEADLINE = ("latency_local_ns", "latency_remote_ns", "bw_read_local_gbs", "bw_triad_local_gbs",
            "bw_read_remote_gbs")


def trend_metrics(history, drift):
    """Headline metrics present, then any other metric that drifted."""
    keys = [k for k in HEADLINE if k in history.catalogue]
    keys += [k for k in dict.fromkeys(drift.key) if k not in keys]
    return keys


def values_wide(history):
    """history.csv: one row per run and host, one column per metric key."""
    v = history.values
    if v.empty:
        return pd.DataFrame(columns=["start_utc", "run_id", "host", "type"])
    wide = v.pivot_table(index=["start_utc", "run_id", "host", "type"], columns="metric",
                         values="value", aggfunc="first").reset_index()
    wide.columns.name = None
    return wide.sort_values(["start_utc", "host"]).reset_index(drop=True)
