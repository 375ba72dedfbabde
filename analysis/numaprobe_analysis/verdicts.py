# SPDX-License-Identifier: BSD-3-Clause
"""The analysis verdicts as JSON (`--json FILE` of report, compare and history), in the layout
of docs/report.schema.json: the runs read, the metrics, and per command its verdicts (node types,
hosts, outliers and the node-type comparison; changes; drift and vanished hosts). Numbers that
are not finite (NaN, inf) are null. The file is written atomically (temporary file, rename)."""

import json
import math
import os
from datetime import datetime, timezone

import numpy as np

from .names import Status
from .noise import is_noisy
from .version import VERSION

SCHEMA_NAME = "numaprobe-report"
SCHEMA_VERSION = "1.2.1"


def _clean(x):
    """Plain JSON values: numpy scalars unwrapped, non-finite floats as None."""
    if isinstance(x, dict):
        return {str(k): _clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_clean(v) for v in x]
    if isinstance(x, (np.bool_, bool)):
        return bool(x)
    if isinstance(x, (np.integer, int)):
        return int(x)
    if isinstance(x, (np.floating, float)):
        return float(x) if math.isfinite(float(x)) else None
    if x is None or isinstance(x, str):
        return x
    return str(x)


def _records(frame, columns):
    cols = [c for c in columns if c in frame.columns]
    return [_clean(dict(zip(cols, row))) for row in frame[cols].itertuples(index=False)]


def _base(command, runs, catalogue, exit_status):
    return {"schema": SCHEMA_NAME, "schema_version": SCHEMA_VERSION, "command": command,
            "numaprobe_report_version": VERSION,
            "generated_utc": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "exit_status": exit_status,
            "runs": [{"path": r.path, "run_id": r.run_id, "config_fingerprint": r.fingerprint,
                      "start_utc": r.start_utc} for r in runs],
            "metrics": [{"key": k, "label": m.label, "unit": m.unit, "better": m.better,
                         "judged": m.judged} for k, m in catalogue.items()]}


def _hosts(hosts, values, degraded):
    """Each host with its figures, and beside them per metric its uncertainty and whether it is
    noisy (noise.is_noisy: shown, judged by no verdict)."""
    per = {h: {} for h in hosts.host}
    spread = {h: {} for h in hosts.host}
    noisy = {h: {} for h in hosts.host}
    marks = is_noisy(values.spread_pct) if len(values) else []
    for r, mark in zip(values.itertuples(index=False), marks):
        if r.host in per:
            per[r.host][r.metric] = r.value
            spread[r.host][r.metric] = r.spread_pct
            noisy[r.host][r.metric] = bool(mark)
    reasons = dict(zip(degraded.host, degraded.reason)) if degraded is not None else {}
    out = []
    for r in hosts.itertuples(index=False):
        out.append(_clean({"host": r.host, "type": r.type, "fingerprint": r.fingerprint,
                           "node_type": r.node_type, "status": getattr(r, "status", Status.OK),
                           "degraded": r.host in reasons,
                           "degraded_reason": reasons.get(r.host, ""),
                           "metrics": per[r.host], "uncertainty_pct": spread[r.host],
                           "noisy": noisy[r.host]}))
    return out


def report_doc(v, runs, comparison, reference, drift, exit_status):
    doc = _base("report", runs, v.catalogue, exit_status)
    counts = v.hosts.groupby("type").host.nunique()
    doc["node_types"] = [_clean({"type": r.type, "node_type": r.node_type if hasattr(
        r, "node_type") else r.type, "fingerprint": r.fingerprint, "type_key": r.type_key,
        "hosts": counts.get(r.type, 0)}) for r in v.types.itertuples(index=False)]
    doc["hosts"] = _hosts(v.hosts, v.values, v.degraded)
    # A type's median is over its figures that are not noisy: `hosts` counts those, and
    # `noisy_left_out` the noisy ones it left out.
    doc["type_medians"] = _records(v.summary.rename(columns={"key": "metric_key",
                                                             "noisy": "noisy_left_out"}),
                                   ["type", "metric_key", "hosts", "noisy_left_out", "median",
                                    "q25", "q75", "min", "max"])
    rows = []
    for key in v.catalogue:
        label = v.catalogue[key].label
        sel = comparison[comparison.metric == label]
        if sel.empty:
            continue
        row = sel.iloc[0]
        for t in v.type_names():
            ratio = row.get(f"{t} / ref", np.nan)
            rows.append(_clean({"type": t, "metric_key": key, "median": row.get(t, np.nan),
                                "ratio_to_reference": ratio}))
    doc["comparison"] = {"reference_type": reference, "rows": rows}
    doc["outliers"] = _records(v.outliers.rename(columns={"key": "metric_key"}),
                               ["type", "host", "metric_key", "metric", "node", "unit",
                                "value", "type_median", "deviation_pct", "robust_z",
                                "verdict"])
    doc["degraded"] = _records(v.degraded, ["type", "host", "reason"])
    doc["too_small"] = [{"type": t, "hosts": int(n)} for t, n in v.too_small]
    doc["config_drift"] = _records(drift, ["type", "host", "field", "value", "type_value"])
    return doc


def compare_doc(runs, catalogue, changes, notes, exit_status):
    doc = _base("compare", runs, catalogue, exit_status)
    doc["changes"] = _records(changes.rename(columns={"key": "metric_key"}),
                              ["host", "type", "metric_key", "metric", "unit", "base", "new",
                               "change_pct", "uncertainty_pct", "verdict"])
    doc["notes"] = list(notes)
    return doc


def history_doc(history, runs, drift, gone, notes, exit_status):
    doc = _base("history", runs, history.catalogue, exit_status)
    doc["drift"] = _records(drift.rename(columns={"key": "metric_key"}),
                            ["host", "type", "metric_key", "metric", "unit", "rule", "value",
                             "reference", "change_pct", "runs", "verdict", "start_utc"])
    doc["vanished"] = _records(gone, ["host", "type", "last_seen_utc", "last_run_id",
                                      "runs_seen"])
    doc["notes"] = list(history.notes) + list(notes)
    return doc


def write_text(text, path):
    """Writes @p text to @p path atomically (PATH.tmp.PID, then rename): a reader never sees
    half a file, and a failed write leaves what was there."""
    tmp = f"{path}.tmp.{os.getpid()}"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def write_json(doc, path):
    """Writes @p doc to @p path atomically (write_text)."""
    write_text(json.dumps(doc, indent=1, allow_nan=False) + "\n", path)
