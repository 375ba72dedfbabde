# SPDX-License-Identifier: BSD-3-Clause
"""Baseline comparison: the same hosts measured twice (before and after a BIOS, kernel or
firmware change), metric by metric. A change beyond the threshold in the worse direction is a
regression, in the better direction an improvement; the threshold is widened by the figures'
own uncertainty, and a noisy figure is never judged."""

import numpy as np
import pandas as pd

from .noise import is_noisy


class UnusableInput(Exception):
    """Input that cannot give a verdict (no host matched, a malformed reference): exit 2."""

CHANGE_COLUMNS = ["host", "type", "metric", "unit", "base", "new", "change_pct", "uncertainty_pct",
                  "verdict", "key"]


NOISY = "noisy"


def compare(base_values, new_values, catalogue, threshold_pct=10.0, tolerances=None):
    """Per host and judged metric present in both: base, new, change %, verdict (regression,
    improvement, same, or noisy). tolerances: metric key -> percent, overriding threshold_pct for
    that metric. The threshold is widened by the larger of the two figures' own uncertainties
    (their spread_pct), so a change within what either run measured of itself is `same`; a pair
    where either figure is noisy is `noisy`: listed, never a regression. Returns the frame sorted
    worst first."""
    tolerances = tolerances or {}
    judged = [k for k, m in catalogue.items() if m.judged]
    both = base_values.merge(new_values, on=["host", "metric"], suffixes=("_base", "_new"))
    both = both[both.metric.isin(judged) & both.value_base.notna() & both.value_new.notna()]
    rows = []
    for r in both.itertuples(index=False):
        m = catalogue[r.metric]
        change = (r.value_new - r.value_base) / abs(r.value_base) * 100 \
            if r.value_base != 0 else np.inf
        worse = (change > 0) == (m.better == "lower")
        own = np.nanmax([getattr(r, "spread_pct_base", np.nan),
                         getattr(r, "spread_pct_new", np.nan), 0.0])
        noisy = is_noisy(getattr(r, "spread_pct_base", np.nan)) \
            or is_noisy(getattr(r, "spread_pct_new", np.nan))
        verdict = "same"
        if noisy:
            verdict = NOISY
        elif abs(change) > tolerances.get(r.metric, threshold_pct) + own:
            verdict = "regression" if worse else "improvement"
        rows.append([r.host, r.type_new, m.label, m.unit, r.value_base, r.value_new, change,
                     own, verdict, r.metric])
    frame = pd.DataFrame(rows, columns=CHANGE_COLUMNS)
    # Worst first: regressions by size of change, then improvements, the noisy, then the rest.
    rank = frame.verdict.map({"regression": 0, "improvement": 1, NOISY: 2, "same": 3})
    frame = frame.assign(_r=rank, _a=-frame.change_pct.abs())
    return frame.sort_values(["_r", "_a", "host"]).drop(columns=["_r", "_a"]).reset_index(
        drop=True)


def host_changes(base_hosts, new_hosts):
    """Hosts only in one file, and hosts whose node type changed (its type_key, nodetypes.py:
    not its fingerprint, which changes with the memory a balloon or a lost DIMM takes away)."""
    b = base_hosts.set_index("host")
    n = new_hosts.set_index("host")
    notes = [f"{h}: only in the baseline" for h in sorted(set(b.index) - set(n.index))]
    notes += [f"{h}: only in the new file" for h in sorted(set(n.index) - set(b.index))]
    key = "type_key" if "type_key" in b.columns and "type_key" in n.columns else "fingerprint"
    for h in sorted(set(b.index) & set(n.index)):
        if b.at[h, key] != n.at[h, key]:
            notes.append(f"{h}: node type changed from {b.at[h, 'type']} "
                         f"({b.at[h, 'fingerprint']}) to {n.at[h, 'type']} "
                         f"({n.at[h, 'fingerprint']})")
    return notes


def type_changes(changes):
    """Per node type and metric: median change over its hosts (a fleet-wide shift)."""
    if changes.empty:
        return pd.DataFrame(columns=["type", "metric", "unit", "hosts", "median_change_pct"])
    grouped = changes.groupby(["type", "metric", "unit"], sort=False)
    out = grouped.change_pct.agg(hosts="count", median_change_pct="median").reset_index()
    return out.sort_values(["type", "metric"]).reset_index(drop=True)


def matched_hosts(base_hosts, new_hosts):
    return sorted(set(base_hosts.host) & set(new_hosts.host))


def parse_tolerances(pairs, catalogue):
    """(KEY, PCT) pairs, as options.tolerance parsed them (KEY: a metric key such as
    bw_read_local_gbs, or its label) -> {key: pct}."""
    by_label = {m.label: k for k, m in catalogue.items()}
    out = {}
    for name, pct in pairs or []:
        key = by_label.get(name, name)
        if key not in catalogue:
            raise UnusableInput(f"--tolerance {name}={pct:g}: no metric {key!r} in these files "
                                f"(metrics: {', '.join(catalogue)})")
        out[key] = pct
    return out
