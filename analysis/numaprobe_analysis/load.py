# SPDX-License-Identifier: BSD-3-Clause
"""Reads numaprobe results files into pandas frames, refusing files it cannot interpret.

Which tables a file has, their columns and what a column an older file lacks reads as are the
contract's, as the numaprobe binary states it (contract.py, layout()); the analysis names only
what it relies on (REQUIRED_COLUMNS) and what it leaves unread (NOT_READ).

`load(path)` reads one file, only after `numaprobe check` called it valid (validate.py: HDF5
crashes on some damaged files, and check reads them in a child process first), and then with
bounded reads: a table larger than the memory this machine has free is refused, not allocated.
`/counters` is read as the rows and columns the analysis uses (COUNTER_EVENTS, COUNTER_COLUMNS),
and for a large file in a child process while check runs (OVERLAP_BYTES).
`load_fleet(paths)` reads several and stacks their tables, adding a `file` column and a `host`
column (the hostname of the row's rank) to every table so rows of different jobs never mix up
their ranks."""

import os
import pickle
import signal
import tempfile
from dataclasses import dataclass, field

import h5py
import numpy as np
import pandas as pd

from .contract import ContractError, contract
from .hostnames import aliases
from .names import Status
from .text import decode_text
from .validate import InvalidFile, validate

SCHEMA_NAME = "numaprobe"
SUPPORTED_MAJOR = 0
# Columns the analysis relies on; a file that lacks one is refused with its name. Its tables are
# the ones a file must have: every other table of the contract is read when the file has it.
REQUIRED_COLUMNS = {
    "hosts": ("rank", "hostname", "fingerprint", "node_type"),
    "latency": ("rank", "experiment", "cpu_node", "mem_node", "mem_policy", "size_bytes",
                "pattern", "latency_ns_median", "status"),
    "bandwidth": ("rank", "experiment", "cpu_node", "mem_node", "mem_policy", "kernel",
                  "gbs_best", "status"),
}
# Tables of the contract the analysis leaves unread: /topology_xml is each host's hwloc XML in
# 1 KiB rows, gigabytes at 10,000 hosts, and the report takes the topology from /numa_nodes and
# /distances.
NOT_READ = ("topology_xml",)


@dataclass(frozen=True)
class Layout:
    """What the analysis reads of a file, from the contract: tables, in the contract's order;
    added[table][column], what a column a minor after the major's first added reads as in an
    older file that lacks it (its `absent`: None is NaN)."""
    tables: tuple
    added: dict


def layout():
    """The Layout of the contract of the numaprobe binary the analysis validates with
    (contract.contract(): `numaprobe --schema`, run once). Raises ContractError where it is not
    one this analysis reads: another schema or major, or one without a table or column of
    REQUIRED_COLUMNS."""
    doc = contract()
    name, version = doc["schema"], doc["schema_version"]
    again = "set NUMAPROBE_BIN to a numaprobe of the same release"
    if name != SCHEMA_NAME or version.split(".")[0] != str(SUPPORTED_MAJOR):
        raise ContractError(f"numaprobe --schema states {name} {version}, and this analysis "
                            f"reads {SCHEMA_NAME} {SUPPORTED_MAJOR}.x: {again}")
    columns = {t["name"]: {c["name"]: c for c in t["columns"]} for t in doc["tables"]}
    lacking = []
    for table, needed in REQUIRED_COLUMNS.items():
        lacking += [f"/{table}"] if table not in columns else \
            [f"/{table} column {c}" for c in needed if c not in columns[table]]
    if lacking:
        raise ContractError(f"numaprobe --schema has no {', '.join(lacking)}, which this "
                            f"analysis reads: {again}")
    first = f"{SUPPORTED_MAJOR}.0.0"
    added = {table: {c: col["absent"] for c, col in cols.items() if col["since"] != first}
             for table, cols in columns.items()}
    return Layout(tables=tuple(t for t in columns if t not in NOT_READ),
                  added={table: fills for table, fills in added.items() if fills})


class ResultsError(Exception):
    """A file that is not a numaprobe results file this version can read."""


@dataclass
class Results:
    """path, root attributes (text decoded), one DataFrame per table, and what the file says of
    its tables (schema 0.6.0 and later, else empty): meta[table] = {"description": str,
    "columns": {column: {"unit": str, "description": str}}}."""
    path: str
    attrs: dict
    tables: dict = field(default_factory=dict)
    meta: dict = field(default_factory=dict)

    def __getitem__(self, name):
        return table_of(self.tables, name)


def table_of(tables, name):
    """tables[name], or a KeyError that says the analysis reads no table of that name."""
    try:
        return tables[name]
    except KeyError:
        raise KeyError(f"/{name}: not a table the analysis reads (those of numaprobe --schema "
                       f"but {', '.join(NOT_READ)})") from None


def memory_available():
    """Bytes this machine has free for the report's frames (MemAvailable), or None."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _bounded(path, name, dataset, budget):
    """Checks that the table's rows fit in @p budget bytes (None: no bound known): for
    /counters, what _counter_frame keeps of each (its numbers, a code per text), else the row."""
    rows = dataset.shape[0] if dataset.shape else 0
    if name == "counters":
        kept = [dataset.dtype[c] for c in COUNTER_COLUMNS if c in (dataset.dtype.names or ())]
        need = rows * sum(4 if t.kind in "SO" else t.itemsize for t in kept)
    else:
        need = rows * dataset.dtype.itemsize
    if budget is not None and need > budget:
        raise ResultsError(f"{path}: /{name} claims {rows} rows ({need / 2**30:.1f} GiB), more "
                           f"than this machine has free ({budget / 2**30:.1f} GiB): not read")


# Rows read at a time: a 10,000-host table's rows together (hundreds of MB of fixed-width text)
# are never held at once, only their columns.
BLOCK_ROWS = 1 << 16


def _text_column(raw, decoded):
    """A fixed-width text column as one str object per distinct value, shared by every row that
    holds it (@p decoded: bytes -> str, kept across blocks): a fleet's text columns repeat a few
    hundred values over millions of rows, and one object per row costs gigabytes."""
    where, distinct = pd.factorize(raw)
    texts = np.empty(len(distinct), dtype=object)
    for i, value in enumerate(distinct):
        text = decoded.get(value)
        if text is None:
            text = decoded[value] = decode_text(value)
        texts[i] = text
    return texts[where]


# /counters holds a row per measurement and event, most of a fleet file's rows; the analysis
# (counters.py) derives its figures from these events alone and lists the rows saying why an
# event cannot be counted, so only those rows and the columns below are kept.
COUNTER_EVENTS = ("cycles", "instructions", "llc_load_misses", "mc_read_bytes", "mc_write_bytes",
                  "cpu_migrations", "context_switches")
COUNTER_COLUMNS = ("rank", "measurement", "event", "group", "status", "value_scaled", "note")
_COUNTER_KEYS = ("rank", "measurement", "event", "status")


class _Codes:
    """A text column as categorical codes built block by block: one str per distinct value,
    decoded once (two byte strings decoding alike share their code)."""

    def __init__(self):
        self.code = {}
        self.parts = []

    def add(self, raw):
        where, distinct = pd.factorize(raw)
        codes = np.empty(len(distinct), dtype=np.int32)
        for i, value in enumerate(distinct):
            text = decode_text(value) if isinstance(value, bytes) else str(value)
            codes[i] = self.code.setdefault(text, len(self.code))
        self.parts.append(codes[where])

    def column(self):
        codes = np.concatenate(self.parts) if self.parts else np.empty(0, dtype=np.int32)
        return pd.Categorical.from_codes(codes, categories=list(self.code))


def _counter_frame(dataset):
    """/counters as the rows the analysis reads: those of COUNTER_EVENTS for a measurement and
    those of status not_applicable, with COUNTER_COLUMNS only, text as categoricals. Read a block
    at a time, each block filtered before the next is read: the table's other rows (at 10,000
    hosts, tens of millions) are never held."""
    names = dataset.dtype.names
    if any(c not in names for c in _COUNTER_KEYS) or any(
            dataset.dtype[c].kind != "S" for c in ("event", "status")):
        return _frame(dataset)  # not the layout this reader filters: read it whole
    fields = [c for c in COUNTER_COLUMNS if c in names]
    texts = {f: _Codes() for f in fields if dataset.dtype[f].kind in "SO"}
    numbers = {f: [] for f in fields if f not in texts}
    wanted = np.array([e.encode() for e in COUNTER_EVENTS], dtype=dataset.dtype["event"])
    rows = dataset.shape[0] if dataset.shape else 0
    view = dataset.fields(fields)
    for first in range(0, rows, BLOCK_ROWS):
        block = view[first:first + BLOCK_ROWS]
        keep = ((block["measurement"] >= 0) & np.isin(block["event"], wanted)) \
            | (block["status"] == Status.NOT_APPLICABLE.encode())
        block = block[keep]
        for f, codes in texts.items():
            codes.add(block[f])
        for f, parts in numbers.items():
            parts.append(block[f].copy())
    columns = {}
    for f in fields:
        if f in texts:
            columns[f] = texts[f].column()
        else:
            parts = numbers[f]
            columns[f] = np.concatenate(parts) if parts else np.empty(0, dataset.dtype[f])
    return pd.DataFrame(columns, copy=False)


def _array_column(column):
    """An array column (one fixed-length float array per row, NaN beyond what the row used) as
    one object per row, since a frame's column holds one value a row: a tuple of the row's
    finite values, None where it has none (most rows: the one None object is shared, so a
    fleet's table costs a pointer a row). noise.pass_values reads it."""
    finite = np.isfinite(column)
    out = np.full(len(column), None, dtype=object)
    for i in np.flatnonzero(finite.any(axis=1)):
        out[i] = tuple(float(x) for x in column[i][finite[i]])
    return out


def _frame(dataset, fills=None):
    """The table as a DataFrame, read BLOCK_ROWS rows at a time, text decoded; each column of
    @p fills ({column: absent value}) the file lacks added as that value."""
    fields = dataset.dtype.names
    rows = dataset.shape[0] if dataset.shape else 0
    parts = {f: [] for f in fields}
    decoded = {}
    for first in range(0, rows, BLOCK_ROWS):
        block = dataset[first:first + BLOCK_ROWS]
        for f in fields:
            column = block[f]
            if column.ndim > 1:  # an array column (pass_values, schema 0.17.0)
                parts[f].append(_array_column(column))
            elif column.dtype.kind == "S":
                parts[f].append(_text_column(column, decoded))
            elif column.dtype == object:  # variable-length text
                parts[f].append(np.array([decode_text(v) for v in column], dtype=object))
            else:
                parts[f].append(column.copy())
    columns = {}
    for f in fields:
        kind = object if dataset.dtype[f].kind in "SO" or dataset.dtype[f].subdtype else \
            dataset.dtype[f]
        columns[f] = np.concatenate(parts[f]) if parts[f] else np.empty(0, dtype=kind)
    frame = pd.DataFrame(columns, copy=False)
    for column, value in (fills or {}).items():
        if column not in frame.columns:
            frame[column] = added_column(value, len(frame), frame.index)
    return frame


def added_column(value, rows, index=None):
    """A column an older file lacks, as its `absent` value (Layout.added) in the type the newer
    file writes: None NaN (float64), text text, a negative number int64 (-1: unknown), any other
    number uint64 (a count)."""
    if value is None:
        return pd.Series(np.full(rows, np.nan), index=index, dtype=np.float64)
    if isinstance(value, str):
        return pd.Series([value] * rows, index=index, dtype=object)
    if isinstance(value, float):
        return pd.Series(np.full(rows, value), index=index, dtype=np.float64)
    dtype = np.int64 if value < 0 else np.uint64
    return pd.Series(np.full(rows, value, dtype=dtype), index=index, dtype=dtype)


def table_meta(dataset):
    """A table's own attributes (description; units and column_descriptions, one per entry of
    columns), text decoded; {} for a file written before schema 0.6.0."""
    a = dataset.attrs
    if "columns" not in a:
        return {}
    columns = [decode_text(c) for c in a["columns"]]
    units = [decode_text(u) for u in a.get("units", [""] * len(columns))]
    texts = [decode_text(d) for d in a.get("column_descriptions", [""] * len(columns))]
    return {"description": decode_text(a.get("description", "")),
            "columns": {c: {"unit": u, "description": d}
                        for c, u, d in zip(columns, units, texts)}}


def check_schema(path, attrs):
    schema = decode_text(attrs.get("schema", ""))
    if schema != SCHEMA_NAME:
        raise ResultsError(f"{path}: not a numaprobe results file (schema attribute is "
                           f"{schema!r})")
    version = decode_text(attrs.get("schema_version", ""))
    try:
        major = int(version.split(".")[0])
    except ValueError:
        raise ResultsError(f"{path}: malformed schema_version {version!r}") from None
    if major != SUPPORTED_MAJOR:
        raise ResultsError(f"{path}: schema version {version} is not supported by this "
                           f"numaprobe-report (reads {SUPPORTED_MAJOR}.x); use a matching "
                           f"release of the analysis tools")


def _read_tables(path, f, budget, read_as, counters=None):
    """Every table of @p read_as (a Layout) the file has, an empty frame for one it lacks."""
    missing = [t for t in REQUIRED_COLUMNS if t not in f]
    if missing:
        raise ResultsError(f"{path}: tables missing: {', '.join(missing)}")
    tables, meta = {}, {}
    for name in read_as.tables:
        if name not in f:
            tables[name] = pd.DataFrame()
            continue
        dataset = f[name]
        if not isinstance(dataset, h5py.Dataset) or dataset.dtype.names is None:
            raise ResultsError(f"{path}: /{name} is not a table (a compound dataset)")
        meta[name] = table_meta(dataset)
        _bounded(path, name, dataset, budget)
        if name == "counters":
            tables[name] = _counter_frame(dataset) if counters is None else counters
        else:
            tables[name] = _frame(dataset, read_as.added.get(name))
        budget = None if budget is None else budget - tables[name].memory_usage(deep=False).sum()
    for name, columns in REQUIRED_COLUMNS.items():
        absent = [c for c in columns if c not in tables[name].columns]
        if absent:
            raise ResultsError(f"{path}: /{name} lacks column(s) {', '.join(absent)}")
    return tables, meta


# A file at least this large has its /counters read by a child process while `numaprobe check`
# runs: both spend their time inflating the same chunks, and two cores do it side by side (at
# 10,000 hosts, the report's longest wait). A smaller file is quicker read after.
OVERLAP_BYTES = 16 << 20


def _budget():
    free = memory_available()
    return free // 2 if free is not None else None


def _counters_child(path, budget, out):
    """The forked child: /counters as _counter_frame reads it, pickled to the file @p out; exit
    0 when written. The file is not validated yet, so whatever HDF5 does with it ends this child
    only, and the parent reads the table itself once check has passed."""
    code = 1
    try:
        with h5py.File(path, "r") as f:
            dataset = f.get("counters")
            if isinstance(dataset, h5py.Dataset) and dataset.dtype.names is not None:
                _bounded(path, "counters", dataset, budget)
                pickle.dump(_counter_frame(dataset), out, protocol=pickle.HIGHEST_PROTOCOL)
                out.flush()
                code = 0
    except BaseException:  # noqa: BLE001 - any failure: the parent reads the table itself
        pass
    os._exit(code)


def _validate_reading_counters(path, budget):
    """validate(@p path), /counters read meanwhile in a child: its frame, or None where the
    child did not deliver one. Raises InvalidFile as validate() does (the child is ended)."""
    try:
        # Unlinked from the start: nothing is left behind however either process ends.
        out = tempfile.TemporaryFile(prefix="numaprobe-counters-")
    except OSError:  # nowhere to hand the frame over: read after check, as a small file is
        validate(path)
        return None
    with out:
        try:
            pid = os.fork()
        except OSError:
            validate(path)
            return None
        if pid == 0:
            _counters_child(path, budget, out)
        try:
            validate(path)
            _, status = os.waitpid(pid, 0)
            pid = 0
            if os.waitstatus_to_exitcode(status) != 0:
                return None
            out.seek(0)  # the child's writes moved the offset both share
            try:
                return pickle.load(out)
            except (OSError, EOFError, pickle.UnpicklingError):
                return None
        finally:
            if pid > 0:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)


def load(path, checked=False):
    """Returns the file's root attributes and one DataFrame per table (strings decoded).
    Unless @p checked (the caller ran validate()), `numaprobe check` must call it valid first."""
    if checked:
        return read(path)
    budget, counters = _budget(), None
    try:
        size = os.path.getsize(path)
    except OSError:
        size = 0
    try:
        if size >= OVERLAP_BYTES and hasattr(os, "fork"):
            counters = _validate_reading_counters(path, budget)
        else:
            validate(path)
    except InvalidFile as e:
        raise ResultsError(str(e)) from None
    return read(path, budget, counters)


def read(path, budget=None, counters=None):
    """Reads a file already validated; each table only if it fits in @p budget bytes (None:
    half the memory this machine has free). @p counters: /counters as already read, or None."""
    if budget is None:
        budget = _budget()
    try:
        read_as = layout()
    except ContractError as e:
        raise ResultsError(f"{path}: not read: {e}") from None
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        raise ResultsError(f"{path}: cannot read as HDF5 ({e})") from None
    with f:
        try:
            attrs = {k: decode_text(v) for k, v in f.attrs.items()}
            check_schema(path, attrs)
            tables, meta = _read_tables(path, f, budget, read_as, counters)
            results = Results(path=path, attrs=attrs, tables=tables, meta=meta)
        except (OSError, KeyError, ValueError, TypeError, RuntimeError) as e:
            # h5py opens a truncated file and only fails when a dataset's data is read.
            raise ResultsError(f"{path}: damaged or truncated file: {e}") from None
    return results


@dataclass
class Fleet:
    """Several results files as one: every table stacked, with `file` and `host` columns.
    runs: one Run per file (runs.py); notes: what was left out or renamed, in sentences."""
    files: list
    tables: dict
    runs: list = field(default_factory=list)
    notes: list = field(default_factory=list)

    def __getitem__(self, name):
        return table_of(self.tables, name)


def _kept_runs(fleet_hosts, runs, all_runs):
    """(file, hostname) -> the host name its rows take, for the runs of each host that count:
    the latest run of a host (start_utc, then file order) within each measurement config, or
    every run under its own name (`host@start_utc`) with @p all_runs. Also the notes."""
    by_path = {r.path: r for r in runs}
    configs = {r.fingerprint for r in runs}
    pairs = fleet_hosts[["file", "hostname"]].drop_duplicates()
    # A host named by its short name in some files and by its FQDN in others is one host.
    alias, notes = aliases(pairs.groupby("file").hostname.agg(set).to_dict())
    pairs = pairs.assign(name=pairs.hostname.map(lambda h: alias.get(h, h)))
    keep = {}
    for host, rows in pairs.groupby("name", sort=True):
        files = list(rows.file)
        in_file = dict(zip(rows.file, rows.hostname))
        group = {}
        for f in files:
            group.setdefault(by_path[f].fingerprint, []).append(by_path[f])
        for fp, rs in group.items():
            name = host if len(group) == 1 else f"{host} [config {fp[:6]}]"
            rs = sorted(rs, key=lambda r: (r.start_utc, r.order))
            if len(rs) == 1:
                keep[(rs[0].path, in_file[rs[0].path])] = name
            elif all_runs:
                for r in rs:
                    keep[(r.path, in_file[r.path])] = f"{name}@{r.start_utc or r.order}"
            else:
                keep[(rs[-1].path, in_file[rs[-1].path])] = name
                notes.append(f"{host}: {len(rs)} runs; the latest ({rs[-1].path}, "
                             f"{rs[-1].start_utc}) counts (--all-runs shows each)")
    if len(configs) > 1:
        notes.append(f"{len(configs)} measurement configs kept as separate groups "
                     f"(--allow-mixed-configs): node types are split by config")
    return keep, notes


def _host_names(res, keep):
    """rank -> the host name the file's rows of that rank take (None: a run that does not
    count), as a Series to map ranks through."""
    hosts = res["hosts"]
    names = [keep.get((res.path, h)) for h in hosts.hostname]
    ranks = pd.Series(names, index=hosts["rank"].to_numpy(), dtype=object)
    return ranks[~ranks.index.duplicated()]


def load_fleet(paths, all_runs=False, allow_mixed=False):
    """Loads every path (ResultsError on the first bad one) and stacks their tables. Runs of
    different measurement configs are refused (runs.MixedConfigs) unless @p allow_mixed; a host
    in several runs counts once, by its latest run, unless @p all_runs.

    A fleet's tables hold millions of rows, so nothing is copied that need not be: each file's
    own frames get the `file` and `host` columns in place, a single file's frames are the
    fleet's, and several files' are stacked once (each file's frames then become its slice)."""
    from .runs import refuse_mixed, run_of
    files = [load(p) for p in paths]
    runs = [run_of(res, i) for i, res in enumerate(files)]
    refuse_mixed(runs, allow_mixed)
    every_host = pd.concat([res["hosts"][["hostname"]].assign(file=res.path) for res in files],
                           ignore_index=True)
    keep, notes = _kept_runs(every_host, runs, all_runs)
    fingerprints = {r.path: r.fingerprint for r in runs}
    names = [_host_names(res, keep) for res in files]
    tables = {}
    # Every file holds the same tables, those of layout(): the first file's order is theirs.
    for name in dict.fromkeys(n for res in files for n in res.tables):
        for res, ranks in zip(files, names):
            frame = res[name]
            if "rank" in frame.columns:
                frame.insert(0, "file", res.path)
                frame["host"] = frame["rank"].map(ranks)
            if name == "hosts":
                frame["config"] = fingerprints[res.path]
        with_rows = [res for res in files if len(res[name])]
        # A table no file has rows in keeps its columns: the analysis looks them up.
        if not with_rows:
            shaped = next((res[name] for res in files if len(res[name].columns)), None)
            tables[name] = shaped.iloc[0:0] if shaped is not None else pd.DataFrame()
            continue
        if len(with_rows) == 1:
            stacked = with_rows[0][name]
        else:
            stacked = pd.concat([res[name] for res in with_rows], ignore_index=True)
            first = 0
            for res in with_rows:
                rows = len(res[name])
                res.tables[name] = stacked.iloc[first:first + rows]
                first += rows
        counted = stacked.host.notna() if "host" in stacked.columns else None
        tables[name] = (stacked if counted is None or counted.all()
                        else stacked[counted].reset_index(drop=True))
    return Fleet(files=files, tables=tables, runs=runs, notes=notes)
