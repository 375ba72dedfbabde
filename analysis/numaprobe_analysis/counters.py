# SPDX-License-Identifier: BSD-3-Clause
"""What the kernel, the CPU and the memory controllers counted during each measurement
(`/counters`, schema 0.7.0), and the figures the analysis derives from it (none is stored):

  IPC                 instructions / cycles of a measurement
  LLC misses/access   llc_load_misses / (accesses_per_sample x samples) of a latency row
  mc/bus bytes        /bandwidth's mc_bus_ratio: what the memory controllers counted over what
                      the kernel's formula says the bus carried (1: as computed)
  prefetch coverage   of a stride_sweep row: 1 - llc_load_misses / the lines the walk touched
                      (accesses x min(stride, 64 B) / 64 B); where the working set is past the
                      LLC, the share of lines the prefetchers brought in before they were loaded

An event counts for a measurement only where every row of it is `ok` with a value_scaled (the
uncore events have one row per socket, summed); a figure whose events did not count is absent,
never invented. A file without /counters (before 0.7.0), or with only the software group, has
no such figure. Per host: the median of each figure over comparable measurements (the local
pairs of latency_matrix and bandwidth_matrix, bound to their node), the totals of CPU migrations
and context switches over every measurement, and the event groups the host cannot count, each
once with its reason. Within a node type, a host whose IPC of the chase or whose migrations
differ from the type's is pointed out by the outlier rule (outliers.py)."""

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from . import reducers
from .names import MemPolicy, Status
from .outliers import find_outliers
from .rows import Metric, is_local, ok_rows

# The events of each group (docs/SCHEMA.md, /counters).
GROUP_EVENTS = {
    "software": ("task_clock", "page_faults", "cpu_migrations", "context_switches"),
    "core": ("cycles", "instructions", "llc_loads", "llc_load_misses", "dtlb_load_misses"),
    "uncore": ("mc_read_bytes", "mc_write_bytes"),
    "vmstat": ("numa_hint_faults", "numa_pages_migrated", "pgmigrate_success", "pgmigrate_fail",
               "thp_fault_alloc", "thp_fault_fallback", "pgfault", "pgmajfault"),
}
NEEDED = ("rank", "measurement", "event", "group", "status", "value_scaled")

IPC_CHASE = Metric("ipc_chase", "IPC of the local chase", "instr/cycle", "higher")
LLC_CHASE = Metric("llc_misses_per_access_chase", "LLC misses per access, local chase",
                   "misses/access", "lower", judged=False)
MIGRATIONS = Metric("cpu_migrations", "CPU migrations (total)", "events", "lower")
SWITCHES = Metric("context_switches", "context switches (total)", "events", "lower",
                  judged=False)
# The figures the node-type comparison shows beside the headline metrics.
COMPARED = ("ipc_chase", "mc_bus_ratio_")


def coverage_metric(stride):
    # How well the prefetchers keep up at a stride: shown, never judged.
    return Metric(f"prefetch_coverage_{stride}B", f"LLC prefetch coverage, stride {stride} B", "1",
                  "higher", judged=False)


def mc_ratio_metric(kernel):
    # 1 is right: neither more nor less is better, and the ratio is never judged.
    return Metric(f"mc_bus_ratio_{kernel}", f"mc/bus bytes, {kernel} local", "1", "",
                  judged=False)


def compared(key):
    return any(key == c or (c.endswith("_") and key.startswith(c)) for c in COMPARED)


def _keys(frame):
    return [c for c in ("file", "rank", "measurement") if c in frame.columns]


def usable(counters):
    """The table's rows, or None where the file has no /counters (or not its columns)."""
    if counters is None or counters.empty or any(c not in counters.columns for c in NEEDED):
        return None
    return counters


def events(counters):
    """Per measurement (file, rank, measurement) and event: the value to use (value_scaled,
    summed over the event's rows: one per socket for uncore), NaN where a row of it is not ok
    or never ran. Wide: one column per event; empty without counters."""
    c = usable(counters)
    if c is None:
        return pd.DataFrame()
    c = c[c.measurement >= 0]
    if c.empty:
        return pd.DataFrame()
    keys = _keys(c)
    good = (c.status == Status.OK) & c.value_scaled.notna()
    # observed: the loader's event column is categorical, and its unseen combinations are none.
    grouped = c.assign(_good=good).groupby(keys + ["event"], sort=False, observed=True)
    value = grouped["value_scaled"].sum(min_count=1).where(grouped["_good"].all())
    wide = value.unstack("event")
    wide.columns = pd.Index([str(e) for e in wide.columns], name="event")
    return wide


def _with_events(rows, counted, wanted):
    """@p rows with the columns of @p wanted events (NaN where not counted)."""
    keys = _keys(rows)
    if counted.empty or rows.empty:
        return rows.assign(**{e: np.nan for e in wanted})
    have = counted.reindex(columns=list(wanted))
    return rows.merge(have, left_on=keys, right_index=True, how="left")


def _ratio(top, bottom):
    top, bottom = np.asarray(top, dtype=float), np.asarray(bottom, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(bottom > 0, top / bottom, np.nan)


def latency_figures(latency, counted):
    """The latency rows with ipc and llc_misses_per_access (NaN where not counted)."""
    rows = _with_events(latency, counted, ("cycles", "instructions", "llc_load_misses"))
    accesses = rows.accesses_per_sample.astype(float) * rows.samples.astype(float) \
        if len(rows) and "accesses_per_sample" in rows.columns else np.nan
    return rows.assign(ipc=_ratio(rows.instructions, rows.cycles),
                       llc_misses_per_access=_ratio(rows.llc_load_misses, accesses))


def stride_figures(latency, counted):
    """The stride_sweep rows with their stride (B) and prefetch_coverage: 1 - LLC misses over
    the cache lines the walk touched (one per access from 64 B on, stride/64 below); NaN where
    llc_load_misses did not count."""
    rows = _with_events(latency, counted, ("llc_load_misses",))
    if rows.empty:
        return rows.assign(stride=np.nan, prefetch_coverage=np.nan)
    # Each distinct pattern parsed once: a fleet's million rows repeat a dozen.
    patterns = rows.pattern.astype(str)
    distinct = pd.unique(patterns)
    parsed = pd.Series(distinct).str.extract(r"^stride:(\d+)$")[0].astype(float)
    stride = patterns.map(dict(zip(distinct, parsed)))
    lines = rows.accesses_per_sample.astype(float) * rows.samples.astype(float) \
        * np.minimum(stride, 64.0) / 64.0
    return rows.assign(stride=stride,
                       prefetch_coverage=1.0 - _ratio(rows.llc_load_misses, lines))


def bandwidth_figures(bandwidth, counted):
    """The bandwidth rows with ipc and mc_bus_ratio: the row's own, kept only where both uncore
    events counted (ok rows); NaN otherwise."""
    rows = _with_events(bandwidth, counted, ("cycles", "instructions", "mc_read_bytes",
                                             "mc_write_bytes"))
    ratio = rows.mc_bus_ratio if "mc_bus_ratio" in rows.columns else np.nan
    counted_mc = rows.mc_read_bytes.notna() & rows.mc_write_bytes.notna()
    return rows.assign(ipc=_ratio(rows.instructions, rows.cycles),
                       mc_bus_ratio=np.where(counted_mc, ratio, np.nan))


def _local(rows, experiment):
    rows = ok_rows(rows, experiment=experiment, mem_policy=MemPolicy.BIND) if len(rows) \
        else rows
    return rows[is_local(rows)] if len(rows) else rows


def _medians(rows, column, metric, out, catalogue):
    med = rows.groupby("host")[column].median().dropna() if len(rows) else pd.Series(
        dtype=float)
    if len(med):
        catalogue[metric.name] = metric
        out.extend((h, metric.name, float(x)) for h, x in med.items())


def _totals(totals, event, metric, out, catalogue):
    """The host's total of @p event over its measurements (the loader's sum of its ok rows)."""
    rows = totals[totals.event == event]
    total = rows.groupby("host").value_scaled.sum() if len(rows) else pd.Series(dtype=float)
    if len(total):
        catalogue[metric.name] = metric
        out.extend((h, metric.name, float(x)) for h, x in total.items())


def counted_events(fleet):
    """events() of the measurements of the rows the loader keeps (reducers.COUNTER_EVENTS),
    indexed by file, rank and measurement; empty without counters."""
    wide = fleet.reduced.get(reducers.COUNTER_EVENTS)
    if wide is None or not len(wide):
        return pd.DataFrame()
    wide = wide.drop(columns=[c for c in ("host",) if c in wide.columns]).set_index(
        _keys(wide))
    wide.columns.name = "event"
    return wide


def host_figures(fleet, hosts):
    """Long frame type, host, metric, value of the figures present, and their catalogue."""
    cols = ["type", "host", "metric", "value"]
    if reducers.COUNTER_TOTALS not in fleet.reduced:  # no file with a usable /counters
        return pd.DataFrame(columns=cols), {}
    counted = counted_events(fleet)
    out, catalogue = [], {}
    lat = latency_figures(_local(fleet["latency"], "latency_matrix"), counted)
    _medians(lat, "ipc", IPC_CHASE, out, catalogue)
    _medians(lat, "llc_misses_per_access", LLC_CHASE, out, catalogue)
    lat = fleet["latency"]
    strides = stride_figures(ok_rows(lat, experiment="stride_sweep") if len(lat) else lat,
                             counted)
    for stride in sorted(strides.stride.dropna().unique()) if len(strides) else ():
        _medians(strides[strides.stride == stride], "prefetch_coverage",
                 coverage_metric(int(stride)), out, catalogue)
    bw = bandwidth_figures(_local(fleet["bandwidth"], "bandwidth_matrix"), counted)
    for kernel in sorted(bw.kernel.unique()) if len(bw) else ():
        _medians(bw[bw.kernel == kernel], "mc_bus_ratio", mc_ratio_metric(kernel), out,
                 catalogue)
    totals = fleet.reduced[reducers.COUNTER_TOTALS]
    _totals(totals, "cpu_migrations", MIGRATIONS, out, catalogue)
    _totals(totals, "context_switches", SWITCHES, out, catalogue)
    frame = pd.DataFrame(out, columns=["host", "metric", "value"])
    frame = frame.merge(hosts[["host", "type"]], on="host", how="left")
    return frame[cols], catalogue


def not_counted(na):
    """Per host and group: the events the host cannot count (@p na: the not_applicable rows of
    /counters, reducers.NOT_APPLICABLE) and why, once per host whatever its ranks: host, group,
    events (tuple), note."""
    cols = ["host", "group", "events", "note"]
    if na is None or na.empty or "host" not in na.columns:
        return pd.DataFrame(columns=cols)
    notes = na.note.astype(str) if "note" in na.columns else pd.Series("", index=na.index)
    # One pass over plain tuples: a fleet has a few such rows per host, and a pandas group per
    # host and group costs more than all of them.
    found = {}
    for host, group, event, note in zip(na.host, na.group.astype(str), na.event.astype(str),
                                        notes):
        if isinstance(host, str):
            events_, notes_ = found.setdefault((host, group), ({}, {}))
            events_[event] = None
            notes_[note] = None
    rows = []
    for (host, group), (events_, notes_) in sorted(found.items()):
        order = GROUP_EVENTS.get(group, ())
        names = tuple(e for e in order if e in events_) + tuple(sorted(set(events_) - set(order)))
        text = "; ".join(n for n in notes_ if n)
        rows.append([host, group, names, text or "no reason given"])
    return pd.DataFrame(rows, columns=cols)


def disturbed(fleet):
    """Per host: how many of its latency, bandwidth and loaded_latency rows carry each flag of
    reducers.DISTURBANCES (host, flag, rows); only hosts with some. The loader counted those of
    the tables it does not keep whole."""
    cols = ["host", "flag", "rows"]
    counts = [reducers.flag_counts(fleet["loaded_latency"])]
    if reducers.FLAGS in fleet.reduced:
        counts.append(fleet.reduced[reducers.FLAGS][cols])
    counts = [c for c in counts if len(c)]
    if not counts:
        return pd.DataFrame(columns=cols)
    out = pd.concat(counts, ignore_index=True).groupby(["host", "flag"], sort=True).rows.sum()
    return out.reset_index()[cols]


@dataclass
class Counters:
    """values: type, host, metric, value (figures present); catalogue: metric key -> Metric;
    summary: per type and metric (metrics.summary_frame); outliers: as find_outliers;
    unavailable: not_counted() with each host's type; flagged: disturbed()."""
    values: pd.DataFrame
    catalogue: dict = field(default_factory=dict)
    summary: pd.DataFrame = None
    outliers: pd.DataFrame = None
    unavailable: pd.DataFrame = None
    flagged: pd.DataFrame = None

    def present(self):
        return bool(len(self.values) or len(self.unavailable))


def counters_view(fleet, hosts, rule, hosts_per_type):
    from .metrics import summary_frame
    values, catalogue = host_figures(fleet, hosts)
    summary = summary_frame(values, catalogue)
    outliers, _small = find_outliers(values, catalogue, rule, hosts_per_type)
    unavailable = not_counted(fleet.reduced.get(reducers.NOT_APPLICABLE))
    unavailable = unavailable.merge(hosts[["host", "type"]], on="host", how="left")
    return Counters(values=values, catalogue=catalogue, summary=summary, outliers=outliers,
                    unavailable=unavailable, flagged=disturbed(fleet))


# What a host's line calls each figure.
SHORT = {"ipc_chase": "IPC chase", "llc_misses_per_access_chase": "LLC misses/access",
         "cpu_migrations": "migrations", "context_switches": "context switches"}
TOTALS = (MIGRATIONS.name, SWITCHES.name)


def _fmt(x):
    return f"{x:.3g}" if abs(x) < 1000 else f"{x:.0f}"


def _not_applicable(rows):
    """`uncore - why`, `core llc_loads, llc_load_misses - why`: each group once. @p rows: the
    host's (group, events, note) of not_counted(), as tuples or as its frame."""
    if isinstance(rows, pd.DataFrame):
        rows = zip(rows.group, rows.events, rows.note)
    parts = []
    for group, names, note in rows:
        whole = set(GROUP_EVENTS.get(group, ())) <= set(names)
        parts.append(f"{group}{'' if whole else ' ' + ', '.join(names)} - {note}")
    return "not_applicable: " + "; ".join(parts)


def _by_host(frame, columns):
    """host -> the list of @p columns' tuples of its rows, in order: one pass, where a pandas
    group per host would cost a fleet seconds."""
    out = {}
    for host, *values in zip(frame.host, *(frame[c] for c in columns)):
        out.setdefault(host, []).append(tuple(values))
    return out


def host_text(vals, missing, flags):
    """A host's line, or "" where it has nothing to say: the figures of the chase and the
    bandwidth kernels; the totals of migrations and context switches beside them, or alone
    where a migration happened (zeros of the software group alone say nothing); the rows
    flagged migrated or preempted; what the host cannot count, with why."""
    figures = [k for k in vals if k not in TOTALS]
    chase = [f"{SHORT[k]} {_fmt(vals[k])}" for k in figures if k in SHORT]
    ratios = [f"{k[len('mc_bus_ratio_'):]} {_fmt(vals[k])}" for k in figures
              if k.startswith("mc_bus_ratio_")]
    coverage = [f"{k[len('prefetch_coverage_'):]} {_fmt(vals[k])}" for k in figures
                if k.startswith("prefetch_coverage_")]
    parts = [", ".join(chase)] if chase else []
    if ratios:
        parts.append("mc/bus bytes " + ", ".join(ratios))
    if coverage:
        parts.append("prefetch coverage by stride " + ", ".join(coverage))
    if figures or vals.get(MIGRATIONS.name, 0) > 0:
        totals = [f"{SHORT[k]} {vals[k]:.0f}" for k in TOTALS if k in vals]
        if totals:
            parts.append(", ".join(totals))
    if flags:
        parts.append("flagged " + ", ".join(f"{f} in {n} row(s)" for f, n in flags.items()))
    if missing is not None:
        parts.append(_not_applicable(missing))
    return "; ".join(parts)


COUNTER_LINES = 20  # hosts the text report describes; every host is in counters.csv


def host_lines(cv, first=()):
    """(host, text) for every host with something to say: the hosts of @p first, then the
    not_applicable lines (hosts whose only text is the same share one: "a, b and 3 more"),
    then the other hosts."""
    per = {h: dict(pairs) for h, pairs in _by_host(cv.values, ("metric", "value")).items()}
    missing = _by_host(cv.unavailable, ("group", "events", "note"))
    flags = {h: dict(pairs) for h, pairs in _by_host(cv.flagged, ("flag", "rows")).items()} \
        if cv.flagged is not None else {}
    hosts = sorted(set(per) | set(missing) | set(flags))
    hosts = [h for h in first if h in hosts] + [h for h in hosts if h not in set(first)]
    lead, shared, rest = [], {}, []
    for host in hosts:
        text = host_text(per.get(host, {}), missing.get(host), flags.get(host))
        if not text:
            continue
        if host in first:
            lead.append((host, text))
        elif text.startswith("not_applicable: "):
            shared.setdefault(text, []).append(host)
        else:
            rest.append((host, text))
    for text, names in shared.items():
        named = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
        lead.append((named, text))
    return lead + rest


def host_table(cv):
    """One row per host with figures or groups not counted: the figures as columns, and what it
    cannot count."""
    lines, types = {}, {}
    for host, rows in _by_host(cv.unavailable, ("group", "events", "note", "type")).items():
        lines[host] = _not_applicable(r[:3] for r in rows).removeprefix("not_applicable: ")
        types[host] = rows[0][3]
    if len(cv.values):
        wide = cv.values.pivot_table(index=["type", "host"], columns="metric", values="value")
        wide = wide.reindex(columns=[k for k in cv.catalogue if k in wide.columns])
        wide.columns = [f"{cv.catalogue[k].label} ({cv.catalogue[k].unit})"
                        for k in wide.columns]
        wide = wide.reset_index()
    else:
        wide = pd.DataFrame(columns=["type", "host"])
    extra = sorted(set(lines) - set(wide.host))
    if extra:
        wide = pd.concat([wide, pd.DataFrame({"type": [types[h] for h in extra],
                                              "host": extra})], ignore_index=True)
    wide["not_applicable"] = [lines.get(h, "") for h in wide.host]
    return wide.sort_values("host").reset_index(drop=True)
