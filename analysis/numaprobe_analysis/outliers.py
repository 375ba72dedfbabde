# SPDX-License-Identifier: BSD-3-Clause
"""Outlier hosts within a node type: robust z-score (median and MAD) and a minimum deviation.

A host is flagged on a metric when both hold within its node type:
  |x - median| / MAD_normal > z_limit   (MAD scaled to estimate sigma for normal data)
  |x - median| / |median|   > pct_limit / 100
The second rule keeps a tight fleet (MAD of a fraction of a percent) from flagging hosts for
differences nobody would act on; it is widened by the figure's own uncertainty (spread_pct,
metrics.row_spread_pct), so that a host whose figure only wanders within what it measured of
itself is not called out, while one off by more than that is. Types with fewer than min_hosts
hosts are not judged."""

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.stats import median_abs_deviation

from .noise import is_noisy


@dataclass(frozen=True)
class OutlierRule:
    z_limit: float = 3.5
    pct_limit: float = 10.0
    min_hosts: int = 5


def robust_z(x):
    """Modified z-scores of the values x; where MAD is 0 any value off the median is infinite."""
    x = np.asarray(x, dtype=float)
    med = np.median(x)
    mad = median_abs_deviation(x, scale="normal")
    if mad > 0:
        return (x - med) / mad
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(x == med, 0.0, np.sign(x - med) * np.inf)


def find_outliers(values, catalogue, rule=OutlierRule(), hosts_per_type=None):
    """Returns (outliers frame, list of (type, hosts) too small to judge). hosts_per_type
    (type -> hosts, default: the hosts with values) decides which types are too small."""
    if hosts_per_type is None:
        hosts_per_type = values.groupby("type").host.nunique()
    small = [(t, int(n)) for t, n in sorted(hosts_per_type.items()) if n < rule.min_hosts]
    too_small = {t for t, _ in small}
    rows = []
    if "spread_pct" in values.columns:  # a noisy figure is shown, never judged
        values = values[~is_noisy(values.spread_pct)]
    values = values[values.value.notna()]  # a cache level not judged on the host
    for typ, group in values.groupby("type", sort=True):
        if typ in too_small:
            continue
        for metric, v in group.groupby("metric", sort=False):
            m = catalogue[metric]
            if not m.judged or len(v) < rule.min_hosts:
                continue
            x = v.value.to_numpy()
            med = float(np.median(x))
            z = robust_z(x)
            dev = (x - med) / abs(med) * 100 if med != 0 else np.full(len(x), np.inf)
            own = (v.spread_pct.fillna(0).clip(lower=0).to_numpy() if "spread_pct" in v.columns
                   else np.zeros(len(x)))
            for host, xi, zi, di, ui in zip(v.host, x, z, dev, own):
                if abs(zi) > rule.z_limit and abs(di) > rule.pct_limit + ui:
                    worse = (di > 0) == (m.better == "lower")
                    rows.append({"type": typ, "host": host, "metric": m.label, "unit": m.unit,
                                 "value": xi, "type_median": med, "deviation_pct": di,
                                 "robust_z": zi, "verdict": "worse" if worse else "better",
                                 "key": metric})
    columns = ["type", "host", "metric", "unit", "value", "type_median", "deviation_pct",
               "robust_z", "verdict", "key"]
    frame = pd.DataFrame(rows, columns=columns)
    return frame.sort_values(["type", "host", "metric"]).reset_index(drop=True), small


def small_types_text(small, rule):
    return [f"{typ}: {n} host(s), too small to judge (outliers need at least "
            f"{rule.min_hosts} hosts of a type)" for typ, n in small]
