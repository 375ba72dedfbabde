# SPDX-License-Identifier: BSD-3-Clause
"""What the report opens with: the node-type comparison (metrics as rows, node types as
columns, the ratio to a reference type, the share of the theoretical peak) and the config
drift within a node type that usually explains an outlier host."""

import numpy as np
import pandas as pd

from .counters import compared
from .names import RestoreOutcome
from .noise import NOISY_PCT, is_noisy
from .nodetypes import values_text

# /hosts columns that change what a host measures without changing its hardware fingerprint.
# simd_path: a host whose binary took another SIMD path (avx2 where its peers run avx512f) runs
# other kernel code on the same hardware.
DRIFT_FIELDS = ("kernel", "thp_mode", "numa_balancing", "governor", "boost", "dimms",
                "dimm_speed_mts", "simd_path")

# What each node type is, above its figures: its CPU model and the SIMD path its binary took,
# which tell an x86 type (avx512f, avx2, sse2) from an Arm64 one (neon, sve) at a glance, and
# explain why a kernel of one ISA (copy_movsb, write_zva) has no figure on the other.
IDENTITY_ROWS = (("cpu_model", "CPU model"), ("simd_path", "SIMD path"))


def is_host_report(v):
    """One host: the report describes it, with no fleet panels of one dot each."""
    return len(v.hosts) == 1


class BadReference(ValueError):
    """A --reference-type that names no node type, or one too small to judge."""


def reference_type(v, wanted=None):
    """The type the ratios are taken against: @p wanted (its label, node_type or fingerprint),
    else the largest type (the first by label among equals). Never a type too small to judge
    (below --min-hosts): a lone host that lost a DIMM would make every ratio a comparison with
    a broken machine. None where no type is large enough."""
    types = v.type_names()
    small = {t for t, _ in v.too_small}
    counts = v.hosts.groupby("type").host.nunique()
    if wanted:
        for t in types:
            sel = v.hosts[v.hosts["type"] == t]
            if wanted in (t, *sel.node_type.astype(str), *sel.fingerprint.astype(str)):
                if t in small:
                    raise BadReference(
                        f"--reference-type {wanted!r}: node type {t} has {counts.get(t, 0)} "
                        f"host(s), fewer than --min-hosts {v.rule.min_hosts}: too small to "
                        f"be the reference")
                return t
        raise BadReference(f"--reference-type {wanted!r}: no such node type (types: "
                              f"{', '.join(types)})")
    judged = [t for t in types if t not in small]
    if not judged:
        return None
    return max(judged, key=lambda t: (counts.get(t, 0), -types.index(t)))


def node_peak_pct(v, key):
    """Per type: median over its hosts of the metric as a share (%) of one NUMA node's part of
    the host's peak_gbs (channels x MT/s x 8 B divided evenly over its nodes: a matrix figure
    is one node's threads on one node's memory). Empty where the peak is unknown (0)."""
    if "peak_gbs" not in v.hosts.columns or "numa_nodes" not in v.hosts.columns:
        return {}
    hosts = v.hosts.set_index("host")
    vals = v.values[(v.values.metric == key) & v.values.value.notna()]
    out = {}
    for typ, rows in vals.groupby("type"):
        peak = hosts.loc[rows.host, "peak_gbs"].to_numpy(dtype=float) / \
            np.maximum(hosts.loc[rows.host, "numa_nodes"].to_numpy(dtype=float), 1)
        share = 100 * rows.value.to_numpy() / np.where(peak > 0, peak, np.nan)
        if np.isfinite(share).any():
            out[typ] = float(np.nanmedian(share))
    return out


# The host report's column of each figure's uncertainty (percent), beside the figure.
UNCERTAINTY = "uncertainty %"


def comparison_frame(v, reference=None):
    """Metrics as rows; per node type its median over hosts, beside it the ratio to the
    reference type's median and, for bandwidth, the share of the node's peak. A single host's
    report shows the host's own figures instead, each with its uncertainty (UNCERTAINTY) and,
    where noisy, the mark in `noisy`: a figure it measured is never left out."""
    types = v.type_names()
    ref = reference_type(v, reference)
    med = v.summary.set_index(["type", "key"])["median"] if len(v.summary) else pd.Series(
        dtype=float)
    if is_host_report(v) and len(v.values):
        med = v.values.set_index(["type", "metric"]).value
    counts = v.hosts.groupby("type").host.nunique()
    rows = [{"metric": "hosts", "unit": "", **{t: float(counts.get(t, 0)) for t in types}}]
    rows += identity_rows(v.hosts, types)
    for key, m in v.catalogue.items():
        rows.append(_comparison_row(v, key, m, med, types, ref))
    # Beside them, where /counters has them: the IPC of the chase and the memory controllers'
    # bytes over the bus bytes of each bandwidth kernel (counters.py).
    cv = getattr(v, "counters", None)
    if cv is not None and len(cv.summary):
        cmed = cv.summary.set_index(["type", "key"])["median"]
        rows += [_comparison_row(v, key, m, cmed, types, ref)
                 for key, m in cv.catalogue.items() if compared(key)]
    cols = ["metric", "unit", "better"]
    for t in types:
        cols.append(t)
        if ref is not None and len(types) > 1 and t != ref:
            cols.append(f"{t} / ref")
        if any(f"{t} % of peak" in r for r in rows):
            cols.append(f"{t} % of peak")
    if is_host_report(v):
        cols.append(UNCERTAINTY)
    cols.append("noisy")
    frame = pd.DataFrame(rows)
    return frame.reindex(columns=cols).fillna({"better": "", "noisy": ""}), ref


def identity_rows(hosts, types):
    """The comparison's rows of IDENTITY_ROWS that /hosts has: per type, values_text of its
    hosts' column."""
    rows = []
    for column, label in IDENTITY_ROWS:
        if column in hosts.columns:
            rows.append({"metric": label, "unit": "", "better": "",
                         **{t: values_text(hosts.loc[hosts["type"] == t, column])
                            for t in types}})
    return rows


def _noisy_hosts(v):
    """(type, metric key) -> how many of its hosts' figures were left out as noisy."""
    if v.summary is None or v.summary.empty or "noisy" not in v.summary.columns:
        return {}
    return {(r.type, r.key): int(r.noisy) for r in v.summary.itertuples(index=False)
            if r.noisy}


def _comparison_row(v, key, m, med, types, ref):
    """A metric's row: each type's median (of its figures that are not noisy), the ratio to the
    reference, and in `noisy` which types had figures left out as noisy: a cell whose figures
    are all noisy is empty, never ratioed."""
    row = {"metric": m.label, "unit": m.unit, "better": m.better}
    noisy = _noisy_hosts(v)
    left_out = [f"{t}: {noisy[(t, key)]} noisy" for t in types if (t, key) in noisy]
    if is_host_report(v):
        own = v.values[v.values.metric == key]
        u = float(own.spread_pct.iloc[0]) if len(own) else np.nan
        row[UNCERTAINTY] = u
        left_out = [f"noisy (uncertainty above {NOISY_PCT:g}%: not judged)"] if is_noisy(u) \
            else []
    if left_out:
        row["noisy"] = "; ".join(left_out)
    peak = node_peak_pct(v, key) if m.unit == "GB/s" else {}
    for t in types:
        x = float(med.get((t, key), np.nan))
        row[t] = x
        if ref is not None and len(types) > 1 and t != ref and m.unit != "%":  # no penalties
            r = float(med.get((ref, key), np.nan))
            row[f"{t} / ref"] = x / r if r and np.isfinite(r) else np.nan
        if peak:
            row[f"{t} % of peak"] = peak.get(t, np.nan)
    return row


def drift_frame(v):
    """Hosts whose config (DRIFT_FIELDS of /hosts) differs from the most common value of their
    node type: type, host, field, value, type_value, type_share (hosts with type_value)."""
    cols = ["type", "host", "field", "value", "type_value", "type_share"]
    rows = []
    fields = [f for f in DRIFT_FIELDS if f in v.hosts.columns]
    for typ, hosts in v.hosts.groupby("type", sort=False):
        if len(hosts) < 2:
            continue
        for f in fields:
            counts = hosts[f].astype(str).value_counts()
            if len(counts) < 2:
                continue
            common = counts.index[0]
            for host, value in zip(hosts.host, hosts[f].astype(str)):
                if value != common:
                    rows.append([typ, host, f, value, common,
                                 f"{counts.iloc[0]} of {len(hosts)}"])
    return pd.DataFrame(rows, columns=cols).sort_values(["type", "host", "field"]).reset_index(
        drop=True)


def drift_text(drift):
    """host -> "thp_mode always (type: madvise); kernel ..." for the hosts that drift."""
    out = {}
    for host, rows in drift.groupby("host"):
        out[host] = "; ".join(f"{r.field} {r.value} (type: {r.type_value})"
                              for r in rows.itertuples(index=False))
    return out


def outliers_with_drift(v, drift):
    """The outlier table with each host's config drift beside it ("" where none)."""
    texts = drift_text(drift)
    frame = v.outliers.drop(columns=["key"])
    return frame.assign(config_drift=[texts.get(h, "") for h in frame.host])


# What a host whose setting was left changed and not put back still needs; the run without
# root that found it says so too, but the report says it whatever the text's wording.
RESTORE_ACTION = "still changed: run 'numaprobe restore' as root on the host"


def restore_outcomes(ranks):
    """host -> the set of RestoreOutcome its ranks wrote in /hosts `restore_outcome` (schema
    0.18.0), each name parsed once. A host none of whose ranks wrote one it knows is left out,
    not known: a file before 0.18.0, ranks given up as hung, a name of a newer binary."""
    if "restore_outcome" not in ranks.columns or not len(ranks):
        return {}
    texts = ranks.restore_outcome.fillna("").astype(str)
    outcome = texts.map({t: RestoreOutcome.parse(t) for t in pd.unique(texts)})
    said = (outcome.notna() & ranks.host.notna()).to_numpy()
    # One pass over the ranks that said one: a pandas group per host costs seconds in a fleet.
    out = {}
    for host, named in zip(ranks.host.to_numpy()[said], outcome.to_numpy()[said]):
        out.setdefault(host, set()).add(named)
    return {host: frozenset(named) for host, named in out.items()}


def still_changed(text, outcomes=None):
    """Whether a setting a killed run left changed is still not put back on a host: its ranks'
    @p outcomes (restore_outcomes) say `failed`. A host with none (files before schema 0.18.0)
    is read by its `restored` @p text, which then says `not restored`."""
    if outcomes:
        return RestoreOutcome.FAILED in outcomes
    return "not restored" in text


def restored_frame(v):
    """The hosts whose `/hosts` `restored` says a killed numaprobe run left a system setting
    changed (type, host, restored, action), those still changed first (still_changed): every
    job on such a host ran with the setting changed for an unknown time. Empty for files before
    schema 0.8.0."""
    cols = ["type", "host", "restored", "action"]
    if "restored" not in v.hosts.columns:
        return pd.DataFrame(columns=cols)
    outcomes = restore_outcomes(v.fleet["hosts"])
    # A rank that could not put the setting back always says why; a host whose outcome says so
    # and whose text is empty is listed all the same, so that no wording or its lack hides it.
    failed = [RestoreOutcome.FAILED in outcomes.get(h, ()) for h in v.hosts.host]
    rows = v.hosts[(v.hosts.restored.astype(str) != "") | failed]
    frame = rows.assign(action=[RESTORE_ACTION if still_changed(t, outcomes.get(h))
                                else "none: put back" for h, t in zip(rows.host, rows.restored)])
    order = np.argsort((frame.action != RESTORE_ACTION).to_numpy(), kind="stable")
    return frame[cols].iloc[order].reset_index(drop=True)


def still_changed_hosts(v):
    """The hosts a killed run left with a setting changed that is still not put back: their
    figures, then and later, are not comparable with their peers', so a gate must not pass."""
    frame = restored_frame(v)
    return list(frame.host[frame.action == RESTORE_ACTION])
