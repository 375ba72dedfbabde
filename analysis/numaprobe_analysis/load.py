# SPDX-License-Identifier: BSD-3-Clause
"""Reads numaprobe results files into pandas frames, refusing files it cannot interpret.

Which tables a file has, their columns and what a column an older file lacks reads as are the
contract's, as the numaprobe binary states it (contract.py, layout()); the analysis names only
what it relies on (REQUIRED_COLUMNS) and what it leaves unread (NOT_READ).

`load(path)` reads one file whole, only after `numaprobe check` called it valid (validate.py:
HDF5 crashes on some damaged files, and check reads them in a child process first), and then
with bounded reads: a table larger than the memory this machine has free is refused, not
allocated. The report reads a fleet otherwise: fleet.py, through stream.py, which keeps of the
largest tables what the analysis uses; validated() reads a large file in a child process while
check runs (OVERLAP_BYTES)."""

import os
import pickle
import signal
import tempfile
from dataclasses import dataclass, field

import h5py
import numpy as np
import pandas as pd

from .contract import ContractError, contract
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
    # The fleet loader's (stream.py): per-host figures and rows it made of tables it does not
    # keep whole (reducers.py), and each host's rows per table.
    reduced: dict = field(default_factory=dict)
    spans: dict = field(default_factory=dict)

    def __getitem__(self, name):
        return table_of(self.tables, name)


def table_of(tables, name):
    """tables[name], or a KeyError that says the analysis reads no table of that name."""
    try:
        return tables[name]
    except KeyError:
        raise KeyError(f"/{name}: not a table held here (a file read whole holds those of "
                       f"numaprobe --schema but {', '.join(NOT_READ)}; a fleet leaves more "
                       f"unread, and holds /counters as figures: stream.py)") from None


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
    """Checks that the table's rows fit in @p budget bytes (None: no bound known)."""
    rows = dataset.shape[0] if dataset.shape else 0
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


def _read_tables(path, f, budget, read_as):
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
        tables[name] = _frame(dataset, read_as.added.get(name))
        budget = None if budget is None else budget - tables[name].memory_usage(deep=False).sum()
    for name, columns in REQUIRED_COLUMNS.items():
        absent = [c for c in columns if c not in tables[name].columns]
        if absent:
            raise ResultsError(f"{path}: /{name} lacks column(s) {', '.join(absent)}")
    return tables, meta


# A file at least this large is read by a child process while `numaprobe check` runs: both
# spend their time inflating the same chunks, and two cores do it side by side (at 10,000
# hosts, the report's longest wait). A smaller file is quicker read after.
OVERLAP_BYTES = 16 << 20


def _budget():
    free = memory_available()
    return free // 2 if free is not None else None


def _reading_child(path, reader, out):
    """The forked child: reader() pickled to the file @p out; exit 0 when written. The file is
    not validated yet, so whatever HDF5 does with it ends this child only, and the parent reads
    it itself once check has passed."""
    code = 1
    try:
        pickle.dump(reader(), out, protocol=pickle.HIGHEST_PROTOCOL)
        out.flush()
        code = 0
    except BaseException:  # noqa: BLE001 - any failure: the parent reads the file itself
        pass
    os._exit(code)


def _validate_reading(path, reader):
    """validate(@p path), reader() run meanwhile in a child: what it returned, or None where the
    child did not deliver it. Raises InvalidFile as validate() does (the child is ended)."""
    try:
        # Unlinked from the start: nothing is left behind however either process ends.
        out = tempfile.TemporaryFile(prefix="numaprobe-read-")
    except OSError:  # nowhere to hand the result over: read after check, as a small file is
        validate(path)
        return None
    with out:
        try:
            pid = os.fork()
        except OSError:
            validate(path)
            return None
        if pid == 0:
            _reading_child(path, reader, out)
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


def validated(path, reader):
    """reader() of @p path once `numaprobe check` called the file valid (ResultsError where
    not): a file of OVERLAP_BYTES or more is read by a child while check runs."""
    try:
        size = os.path.getsize(path)
    except OSError:
        size = 0
    result = None
    try:
        if size >= OVERLAP_BYTES and hasattr(os, "fork"):
            result = _validate_reading(path, reader)
        else:
            validate(path)
    except InvalidFile as e:
        raise ResultsError(str(e)) from None
    return result if result is not None else reader()


def load(path, checked=False):
    """Returns the file's root attributes and one DataFrame per table (strings decoded).
    Unless @p checked (the caller ran validate()), `numaprobe check` must call it valid first."""
    if checked:
        return read(path)
    try:
        validate(path)
    except InvalidFile as e:
        raise ResultsError(str(e)) from None
    return read(path)


# Each table's chunk cache: a block of rows read (stream.py) stays inflated for a second read of
# a few of its rows. The writer's chunks are 256 KiB (64 KiB in older files); the slots a prime
# some ten times as many.
CHUNK_CACHE_BYTES = 32 << 20
CHUNK_CACHE_SLOTS = 5003


def opened(path, reader):
    """reader(h5py file, root attributes, Layout) of a file already validated, each failure
    a ResultsError naming the file."""
    try:
        read_as = layout()
    except ContractError as e:
        raise ResultsError(f"{path}: not read: {e}") from None
    try:
        f = h5py.File(path, "r", rdcc_nbytes=CHUNK_CACHE_BYTES, rdcc_nslots=CHUNK_CACHE_SLOTS)
    except OSError as e:
        raise ResultsError(f"{path}: cannot read as HDF5 ({e})") from None
    with f:
        try:
            attrs = {k: decode_text(v) for k, v in f.attrs.items()}
            check_schema(path, attrs)
            return reader(f, attrs, read_as)
        except (OSError, KeyError, ValueError, TypeError, RuntimeError) as e:
            # h5py opens a truncated file and only fails when a dataset's data is read.
            raise ResultsError(f"{path}: damaged or truncated file: {e}") from None


def read(path, budget=None):
    """Reads a file already validated, every table whole; each table only if it fits in
    @p budget bytes (None: half the memory this machine has free)."""
    budget = _budget() if budget is None else budget

    def whole(f, attrs, read_as):
        tables, meta = _read_tables(path, f, budget, read_as)
        return Results(path=path, attrs=attrs, tables=tables, meta=meta)
    return opened(path, whole)
