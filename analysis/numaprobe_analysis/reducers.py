# SPDX-License-Identifier: BSD-3-Clause
"""What the fleet loader keeps of the tables too large to hold whole at 100,000 hosts:
/latency, /bandwidth, /placement and /counters (stream.py reads them a block of rows at a time).
The rows a consumer reads across hosts (the matrices, the stride sweep, mlp) are kept as rows,
of the columns some part of the analysis reads; the others are reduced here to what their
consumer computes per host, each host once all its rows are read, so that every figure equals
the one the whole table gives:

  latency_sweep   its ok rows: per host the random chase's curve (cache_curves) and the sizes
                  swept, not the rows; sweep_table reads its few hosts' rows again (fleet.py)
  bandwidth_sweep its ok rows: per host, kernel and size the median GB/s (kernel_points)
  page_size       its ok rows: none (nothing analyses them)
  flags           per host and flag of DISTURBANCES: how many rows of a table carry it
  /placement      the rows of first_touch's measurements (first_touch_pages)
  /counters       the events of the measurements kept as rows (counters.events), per host the
                  totals of TOTAL_EVENTS, and the not_applicable rows

A reduction keys its hosts by the hostname /hosts gives the row's rank in its file; the fleet
names them (fleet.py)."""

import numpy as np
import pandas as pd

from .names import Status
from .rows import is_local, ok_rows
from .text import decode_text

# The names of the reduced frames (Results.reduced, Fleet.reduced).
SWEEP_CURVES = "latency_sweep_curves"  # host, lines, latency_ns_median
SWEEP_SIZES = "latency_sweep_sizes"    # host, curve, table: tuples of sizes swept
BW_SWEEP = "bandwidth_sweep_points"    # kernel_label, host, size_bytes, gbs_best
FLAGS = "flagged_rows"                 # host, flag, rows
COUNTER_EVENTS = "counter_events"      # rank, measurement, one column per PMU_EVENTS
COUNTER_TOTALS = "counter_totals"      # host, event, value_scaled
NOT_APPLICABLE = "counters_not_applicable"  # rank, group, event, note

# Per table, the experiments whose ok rows are reduced, not kept (their other rows are kept:
# skip_reason() tells why an experiment has no ok rows from them).
REDUCED = {"latency": ("latency_sweep", "page_size"),
           "bandwidth": ("bandwidth_sweep", "page_size")}

# Columns of the measurement tables no part of the analysis reads: left unread by the fleet
# loader (pass_values is the passes' figures, gigabytes at 100,000 hosts).
UNREAD_COLUMNS = frozenset((
    "tlb_window_bytes", "page_bytes", "latency_ns_max", "huge_page_frac", "pages_unreported",
    "passes", "headline_pass", "valid", "pass_values", "repetitions", "passes_per_sample",
    "program_bytes", "bus_bytes", "gbs_worst", "mc_bytes", "threads_pinned_ok"))

DISTURBANCES = ("migrated", "preempted")  # flags the binary sets from the software events
# The events counters.py derives figures from: of a measurement (PMU_EVENTS), or totals per host.
PMU_EVENTS = ("cycles", "instructions", "llc_load_misses", "mc_read_bytes", "mc_write_bytes")
TOTAL_EVENTS = ("cpu_migrations", "context_switches")
# What /counters is read for, a block at a time; `note` is read only of its not_applicable
# rows (stream.py), a sixth of a row's bytes.
COUNTER_FIELDS = ("rank", "measurement", "event", "group", "status", "value_scaled")

LINE = 64


def lines_touched(rows):
    """Bytes of cache lines a chase touches: one 64 B line per slot, so a random chase with its
    256 B slots over 128 KiB occupies 32 KiB of cache. Caches are compared with this, not with
    the chase's span (size_bytes)."""
    if "slot_bytes" not in rows.columns:
        return rows.size_bytes
    return rows.size_bytes * LINE // np.maximum(rows.slot_bytes, LINE)


def cache_curve_rows(latency):
    """The ok rows of the random chase over local memory in latency_sweep, one curve per host:
    its first sweeping node's (with from: every, each node sweeps)."""
    sweep = ok_rows(latency, experiment="latency_sweep", pattern="random")
    sweep = sweep[is_local(sweep)] if len(sweep) else sweep
    if len(sweep):
        sweep = sweep[sweep.cpu_node == sweep.groupby("host").cpu_node.transform("min")]
    return sweep


def sweep_reduction(rows):
    """latency_sweep's ok rows (of whole hosts) as SWEEP_CURVES, cache_curve_rows() as a host's
    curve (host, lines, the median ns of its rows there), and SWEEP_SIZES, per host the sizes
    swept (size_bytes, sorted tuples shared by the hosts that agree): those of its curve
    (`curve`) and those with a latency (`table`: latency_sweep.sweep_table's columns)."""
    sweep = cache_curve_rows(rows)
    curves = sweep.assign(lines=lines_touched(sweep)).groupby(
        ["host", "lines"]).latency_ns_median.median().reset_index() if len(sweep) else \
        pd.DataFrame({"host": pd.Series(dtype=object), "lines": pd.Series(dtype=np.int64),
                      "latency_ns_median": pd.Series(dtype=float)})
    shared = {}

    def sizes(frame):
        if not len(frame):
            return {}
        # One pass over the distinct pairs, sorted: a pandas group per host costs seconds.
        pairs = frame[["host", "size_bytes"]].drop_duplicates().sort_values(["host",
                                                                             "size_bytes"])
        hosts, values = pairs.host.to_numpy(), pairs.size_bytes.to_numpy().tolist()
        cuts = [0, *(np.flatnonzero(hosts[1:] != hosts[:-1]) + 1).tolist(), len(hosts)]
        out = {}
        for a, b in zip(cuts[:-1], cuts[1:]):
            t = tuple(values[a:b])
            out[hosts[a]] = shared.setdefault(t, t)
        return out
    curve = sizes(sweep)
    table = sizes(rows[rows.latency_ns_median.notna()] if len(rows) else rows)
    hosts = sorted(set(curve) | set(table))
    return {SWEEP_CURVES: curves,
            SWEEP_SIZES: pd.DataFrame({"host": pd.Series(hosts, dtype=object),
                                       "curve": [curve.get(h, ()) for h in hosts],
                                       "table": [table.get(h, ()) for h in hosts]})}


def kernel_label(rows):
    """The kernel, with the stride of read_strided (one curve per stride)."""
    if "stride_bytes" not in rows.columns:
        return rows.kernel
    strided = ((rows.kernel == "read_strided") & (rows.stride_bytes > 0)).to_numpy()
    label = rows.kernel.to_numpy(copy=True)
    # Only the strided rows are formatted: text built for every row costs seconds in a fleet.
    label[strided] = [f"read_strided:{s}B" for s in rows.stride_bytes.to_numpy()[strided]]
    return label


def kernel_points(bandwidth, experiment, x):
    """@p experiment's ok /bandwidth rows as one point per kernel_label, host and @p x: the
    median GB/s (best) of its rows there (the per-host curves plotting.type_curves draws)."""
    rows = ok_rows(bandwidth, experiment=experiment)
    cols = ["kernel_label", "host", x, "gbs_best"]
    if not len(rows):
        return pd.DataFrame(columns=cols)
    rows = rows.assign(kernel_label=kernel_label(rows))
    return rows.groupby(cols[:3]).gbs_best.median().reset_index()


def flag_counts(rows):
    """host, flag, rows: how many of @p rows carry each flag of DISTURBANCES, per host; only
    hosts with some."""
    cols = ["host", "flag", "rows"]
    if rows.empty or "flags" not in rows.columns or "host" not in rows:
        return pd.DataFrame(columns=cols)
    # A fleet's rows repeat a few flag texts: each is searched once.
    where, texts = pd.factorize(rows["flags"].astype(str))
    texts = pd.Series(texts, dtype=object)
    counts = []
    for flag in DISTURBANCES:
        found = texts.str.contains(rf"(?:^|,){flag}(?:,|$)", regex=True).to_numpy(bool)
        hit = np.append(found, False)[where]  # where -1 (none): not flagged
        if hit.any():
            counts.append(rows.loc[hit, "host"].value_counts().rename("rows")
                          .rename_axis("host").reset_index().assign(flag=flag))
    return pd.concat(counts, ignore_index=True)[cols] if counts else \
        pd.DataFrame(columns=cols)


def _keys(rank, measurement):
    return rank.astype(np.int64) << 32 | (measurement.astype(np.int64) & 0xFFFFFFFF)


def measurement_keys(frame):
    """The (rank, measurement) pairs of @p frame's rows as int64 keys, sorted and unique."""
    if frame is None or not len(frame) or "measurement" not in frame.columns:
        return np.empty(0, dtype=np.int64)
    return np.unique(_keys(frame["rank"].to_numpy(), frame.measurement.to_numpy()))


def _named(block, field, names):
    """Rows of a raw block whose text @p field is one of @p names."""
    if field not in block.dtype.names:
        return np.zeros(len(block), dtype=bool)
    column = block[field]
    if column.dtype.kind != "S":
        return np.isin(column, list(names))
    hit = np.zeros(len(block), dtype=bool)
    for name in names:  # a comparison each: faster than np.isin on fixed-width text
        hit |= column == np.array(name.encode(), dtype=column.dtype)
    return hit


# Per measurement table: the experiment whose ok rows a per-host reduction reads, and the
# columns it reads of them.
SWEEPS = {"latency": ("latency_sweep", ("experiment", "status", "pattern", "cpu_node",
                                        "mem_node", "size_bytes", "slot_bytes",
                                        "latency_ns_median")),
          "bandwidth": ("bandwidth_sweep", ("experiment", "status", "kernel", "stride_bytes",
                                            "size_bytes", "gbs_best"))}


def selections(name, block, known, wanted):
    """Of a raw block of table @p name (@p known: rows of a host that counts): (rows kept,
    rows a per-host reduction reads, rows flagged: their flags counted), each a bool array;
    @p wanted: the measurement keys /placement keeps (first_touch_keys)."""
    none = np.zeros(len(block), dtype=bool)
    if name == "placement":
        return np.isin(_keys(block["rank"], block["measurement"]), wanted), none, none
    if name not in REDUCED or "status" not in block.dtype.names:
        return ~none, none, none
    ok = _named(block, "status", (Status.OK,))
    keep = ~(ok & _named(block, "experiment", REDUCED[name]))
    sweep = ok & _named(block, "experiment", (SWEEPS[name][0],)) & known
    flagged = known & (block["flags"] != b"") if "flags" in block.dtype.names else none
    return keep, sweep, flagged


def per_host(name, rows):
    """{reduced name: frame} of complete hosts' rows of their sweep (selections())."""
    if name == "latency":
        return sweep_reduction(rows)
    if name == "bandwidth":
        return {BW_SWEEP: kernel_points(rows, "bandwidth_sweep", "size_bytes")}
    return {}


def first_touch_keys(bandwidth):
    """measurement_keys() of first_touch's /bandwidth rows: the /placement rows kept."""
    if not len(bandwidth) or "experiment" not in bandwidth.columns:
        return np.empty(0, dtype=np.int64)
    return measurement_keys(bandwidth[bandwidth.experiment == "first_touch"])


class CounterReduction:
    """/counters reduced a block at a time, as raw rows (tens of millions: too many to make
    frames of): see the module's text. @p wanted: measurement_keys() of the rows kept."""

    def __init__(self, wanted, names):
        self.wanted, self.names = wanted, names
        self.pmu, self.na, self.notes = [], [], []
        self.totals, self.pending, self.pending_rows = [], [], 0

    def add(self, block, codes, complete, last):
        """@p block: rows; @p codes: each row's host, an index into names (-1: a rank /hosts
        does not name, whose rows count nowhere); @p complete: per code, whether every row of
        the host has been read (stream.Completion); @p last: the table's last block. Returns
        the positions in @p block of its not_applicable rows kept (their notes: add_notes)."""
        known = codes >= 0
        measured = (block["measurement"] >= 0) & known
        na = np.flatnonzero(_named(block, "status", (Status.NOT_APPLICABLE,)) & known)
        if len(na):
            self.na.append({f: block[f][na] for f in ("rank", "group", "event")})
        events = block["event"]
        pmu = measured & _named(block, "event", PMU_EVENTS)
        if pmu.any() and len(self.wanted):
            pmu[pmu] = np.isin(_keys(block["rank"][pmu], block["measurement"][pmu]),
                               self.wanted)
            if pmu.any():
                self.pmu.append({f: block[f][pmu] for f in ("rank", "measurement", "event",
                                                            "group", "status", "value_scaled")})
        total = measured & _named(block, "event", TOTAL_EVENTS) \
            & _named(block, "status", (Status.OK,)) & ~np.isnan(block["value_scaled"])
        if total.any():
            self.pending.append((codes[total], events[total], block["value_scaled"][total]))
            self.pending_rows += int(total.sum())
        # Summed a few hundred thousand rows at a time: a pandas group per block costs more
        # than the block.
        if last or self.pending_rows >= 1 << 18:
            self._sum(complete)
        return na

    def add_notes(self, notes):
        self.notes.append(notes)

    def _sum(self, complete):
        if not self.pending:
            return
        rows = pd.DataFrame({"code": np.concatenate([p[0] for p in self.pending]),
                             "event": np.concatenate([p[1] for p in self.pending]),
                             "value_scaled": np.concatenate([p[2] for p in self.pending])})
        ready = complete[rows.code.to_numpy()]
        wait = rows[~ready]
        self.pending = [(wait.code.to_numpy(), wait.event.to_numpy(),
                         wait.value_scaled.to_numpy())] if len(wait) else []
        self.pending_rows = len(wait)
        if ready.any():
            # A host's sum as counters.py made it of the whole table: its rows, in file order,
            # summed by one group.
            sums = rows[ready].groupby(["code", "event"], sort=False).value_scaled.sum()
            sums = sums.reset_index()
            self.totals.append(sums.assign(host=self.names[sums.pop("code").to_numpy()]))

    def frames(self, events):
        """{name: frame} of the reductions; @p events: counters.events."""
        decoded = {}

        def text(values):
            return np.array([decoded.setdefault(v, decode_text(v)) for v in values],
                            dtype=object)
        def joined(parts, f):
            return np.concatenate([p[f] for p in parts])
        wide = pd.DataFrame()
        if self.pmu:
            wide = events(pd.DataFrame({f: joined(self.pmu, f) if f in ("rank", "measurement",
                                                                       "value_scaled")
                                        else text(joined(self.pmu, f)) for f in self.pmu[0]}))
        totals = pd.concat(self.totals, ignore_index=True) if self.totals \
            else pd.DataFrame({"event": [], "value_scaled": [], "host": []})
        na = {"rank": np.empty(0, dtype=np.int32), "group": [], "event": [], "note": []}
        if self.na:
            na = {"rank": joined(self.na, "rank"), "group": text(joined(self.na, "group")),
                  "event": text(joined(self.na, "event")),
                  "note": text(np.concatenate(self.notes)) if self.notes else
                  np.full(sum(len(p["rank"]) for p in self.na), "", dtype=object)}
        return {COUNTER_EVENTS: wide.reset_index() if len(wide) else pd.DataFrame(
                    {"rank": pd.Series(dtype=np.int32), "measurement": pd.Series(dtype=np.int32)}),
                COUNTER_TOTALS: totals.assign(event=text(totals.event.to_numpy())),
                NOT_APPLICABLE: pd.DataFrame(na)}
