# SPDX-License-Identifier: BSD-3-Clause
"""The one noise rule (docs/ANALYSIS.md, "Noise"): a figure's uncertainty, whether it is noisy,
and the passes it was measured in. Every verdict and every output (the report, --json,
OpenMetrics, compare, compare --references, history) asks here, so they cannot disagree on
which figure is noisy. The numaprobe binary holds the same limit for its stdout report and
--summary-json (`NPRB_NOISY_PCT`, printed by `numaprobe --schema` as `noisy_pct`); a test
fails where the two differ."""

import numpy as np
import pandas as pd

from .text import decode_text

# A figure whose uncertainty is above this (percent) is noisy: shown, but judged by no verdict.
NOISY_PCT = 25.0


def is_noisy(uncertainty_pct):
    """Whether a figure of uncertainty @p uncertainty_pct (percent; a number, an array or a
    Series) is noisy: above NOISY_PCT. An unknown uncertainty (NaN) is not noisy: nothing says
    it is."""
    if isinstance(uncertainty_pct, pd.Series):
        return pd.to_numeric(uncertainty_pct, errors="coerce").astype(float) > NOISY_PCT
    u = np.asarray(uncertainty_pct, dtype=float)
    with np.errstate(invalid="ignore"):
        out = u > NOISY_PCT
    return bool(out) if out.ndim == 0 else out


def row_spread_pct(rows, value):
    """Each row's relative uncertainty, in percent: the file's `uncertainty_pct` (schema 0.9.0:
    the burst's spread and, for the headline cells measured in passes apart in time, the
    passes' disagreement); for older files, or rows without it, the burst's spread alone:
    |median - best| / best for bandwidth (gbs_best), (p90 - min) / min for latency. NaN where
    neither can be had. The binary reads a row the same way (results/contract.h)."""
    if value == "gbs_best" and "gbs_median" in rows.columns:
        burst = 100 * (rows.gbs_best - rows.gbs_median).abs() / rows.gbs_best
    elif "latency_ns_p90" in rows.columns and "latency_ns_min" in rows.columns:
        burst = 100 * (rows.latency_ns_p90 - rows.latency_ns_min) / rows.latency_ns_min
    else:
        burst = pd.Series(np.nan, index=rows.index)
    if "uncertainty_pct" not in rows.columns:
        return burst
    measured = pd.to_numeric(rows.uncertainty_pct, errors="coerce")
    return measured.where(measured.notna(), burst)


def pass_values(rows):
    """Each row's pass headlines as a tuple of floats, first pass first (empty where the row
    ran no passes), whichever way the file stored them: schema 0.17.0 and later a float64
    array column padded with NaN beyond `passes` (load.py keeps it as a tuple per row, None
    where every entry is NaN), older files space-separated text ("46.74 44.71 31.27")."""
    if "pass_values" not in rows.columns:
        return pd.Series([()] * len(rows), index=rows.index, dtype=object)
    return rows.pass_values.map(_passes)


def _passes(cell):
    if cell is None:
        return ()
    if isinstance(cell, (bytes, str)):
        text = decode_text(cell)
        out = []
        for word in text.split():
            try:
                out.append(float(word))
            except ValueError:
                return ()  # damaged text: no passes rather than half of them
        return tuple(x for x in out if np.isfinite(x))
    if isinstance(cell, float) and not np.isfinite(cell):
        return ()
    values = np.atleast_1d(np.asarray(cell, dtype=float))
    return tuple(float(x) for x in values if np.isfinite(x))
