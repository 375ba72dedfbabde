# SPDX-License-Identifier: BSD-3-Clause
"""One results file as the fleet loader reads it (fleet.py), in memory that grows with its hosts
and not with its rows: a quick run writes some 2,900 rows a host, 290 million at 100,000 hosts.

The small tables are read whole (load.py). The measurement tables are read a block of rows at a
time, only the columns some part of the analysis reads (reducers.UNREAD_COLUMNS are not), and
each block is reduced before the next is read (reducers.py): the rows the analysis reads across
hosts are kept, the others become the per-host figures their consumers make of them. A per-host
figure is made once its host is complete, every rank of it read: the writer gathers rows in rank
order, so a host is complete once a block passes its last rank (with one rank a host, at once).
A table found out of rank order (a row of a host taken as complete) is read again, every host's
rows held to the end: the same figures, in the memory the whole table takes. /numastat and
/hugepages are not read: nothing analyses them.

Results.spans[table]: per host, the first and last row of its rows in the table, to read a few
hosts' rows again (fleet.rows_of)."""

import h5py
import numpy as np
import pandas as pd

from . import chunks, reducers
from .load import (REQUIRED_COLUMNS, Results, ResultsError, _bounded, _budget, _frame,
                   _text_column, added_column, opened, table_meta)
from .text import decode_text

# Tables of the contract the fleet loader leaves unread besides load.NOT_READ: nothing analyses
# them, and /numastat is a row a measurement and node.
UNREAD = ("numastat", "hugepages")
# Read a block at a time, in this order: /placement keeps first_touch's measurements, and
# /counters those of the rows kept, both known from the tables before them.
STREAMED = ("latency", "bandwidth", "placement", "counters")

BLOCK_ROWS = 1 << 16
COUNTER_BLOCK_ROWS = 1 << 15


class HostIndex:
    """The file's hosts as codes: names[code] is the hostname /hosts gives a rank (its first
    row of the rank), last[code] the host's last rank; code(ranks) maps ranks to codes, -1
    where /hosts has no such rank (rows that count nowhere)."""

    def __init__(self, hosts):
        ranks = hosts["rank"].to_numpy().astype(np.int64)
        first = ~pd.Series(ranks).duplicated().to_numpy()
        ranks = ranks[first]
        codes, names = pd.factorize(pd.Series(hosts.hostname.to_numpy()[first], dtype=object))
        self.names = np.asarray(names, dtype=object)
        self.last = np.full(len(self.names), np.iinfo(np.int64).min, dtype=np.int64)
        np.maximum.at(self.last, codes, ranks)
        # Ranks are 0..world_size-1: a table from rank to code, -1 beyond.
        top = int(ranks.max()) + 1 if len(ranks) and ranks.min() >= 0 else 0
        self._table = np.full(top + 1, -1, dtype=np.int64)
        self._table[ranks[ranks >= 0]] = codes[ranks >= 0]

    def code(self, ranks):
        return self._table[np.clip(ranks, -1, len(self._table) - 1)]


class OutOfOrder(Exception):
    """A row of a host already taken as complete: the table is not in rank order."""


class Completion:
    """Which hosts are complete as the blocks of a table go by: every host at the end; before,
    those whose last rank is below a rank read since (the rows in rank order, as the writer
    gathers them). A row of a host taken as complete raises OutOfOrder: the table is read again
    with @p hold, no host complete before the end."""

    def __init__(self, index, hold=False):
        self.last, self.hold = index.last, hold
        self.complete = np.zeros(len(index.last), dtype=bool)

    def after(self, ranks, codes, end):
        """Hosts (bool per code) complete after a block of rows of @p ranks, of hosts
        @p codes; @p end: the table's last block."""
        if self.complete[codes[codes >= 0]].any():
            raise OutOfOrder
        if end:
            return np.ones(len(self.last), dtype=bool)
        if len(ranks) and not self.hold:
            self.complete |= self.last < ranks[-1]
        return self.complete


class Waiting:
    """Rows of hosts not yet complete: take() adds a block's and returns those of complete
    hosts, in file order (a host's earlier rows first)."""

    def __init__(self):
        self.rows = None

    def take(self, rows, codes, complete):
        """@p rows (a frame) join those waiting; returns those whose code (@p codes, one a
        row) is complete."""
        rows = rows.assign(_code=codes)
        waiting = rows if self.rows is None else pd.concat([self.rows, rows],
                                                           ignore_index=True)
        ready = complete[waiting._code.to_numpy()]
        self.rows = waiting[~ready]
        return waiting[ready].drop(columns="_code")


def _blocks(dataset, fields, block_rows):
    """(first row, rows, last block?) of @p fields of the table, block by block, at least one
    (empty) block: an iterable. The rows are one buffer read into again: what is kept of a block
    is copied (a block read into new memory costs its page faults each time)."""
    direct = chunks.blocks(dataset, fields, block_rows)
    # Chunks inflated here, faster than HDF5 does (chunks.py); other tables through h5py.
    return direct if direct is not None else _h5py_blocks(dataset, fields, block_rows)


def _h5py_blocks(dataset, fields, block_rows):
    rows = dataset.shape[0] if dataset.shape else 0
    if any(dataset.dtype[c].kind == "O" for c in fields):  # variable-length text: h5py's way
        view = dataset.fields(fields)
        for first in range(0, max(rows, 1), block_rows):
            yield first, view[first:first + block_rows], first + block_rows >= rows
        return
    buf = np.empty(min(block_rows, max(rows, 1)),
                   dtype=np.dtype([(c, dataset.dtype[c]) for c in fields]))
    for first in range(0, max(rows, 1), block_rows):
        n = max(0, min(rows - first, block_rows))
        if n:
            dataset.read_direct(buf, np.s_[first:first + n], np.s_[0:n])
        yield first, buf[:n], first + block_rows >= rows


def _block_frame(block, decoded):
    """Rows of a block as a frame, text decoded (one str object per distinct text)."""
    columns = {}
    for f in block.dtype.names:
        column = block[f]
        if column.dtype.kind == "S":
            columns[f] = _text_column(column, decoded)
        elif column.dtype == object:
            columns[f] = np.array([decode_text(v) for v in column], dtype=object)
        else:
            columns[f] = column.copy()
    return pd.DataFrame(columns, copy=False)


def _spans(spans, codes, first_row):
    """Widens each host's (first, last) row by the rows of @p codes, a block from row
    @p first_row."""
    known = codes >= 0
    rows = np.arange(first_row, first_row + len(codes))[known]
    np.minimum.at(spans[0], codes[known], rows)
    np.maximum.at(spans[1], codes[known], rows)


def _stream_table(name, dataset, index, fills, wanted):
    """A measurement table: (kept rows, {reduced name: [frames]}, spans); read again holding
    every host to the end where it is not in rank order (Completion)."""
    try:
        return _stream_pass(name, dataset, index, fills, wanted, False)
    except OutOfOrder:
        return _stream_pass(name, dataset, index, fills, wanted, True)


def _stream_pass(name, dataset, index, fills, wanted, hold):
    """_stream_table's reading, every host held to the end where @p hold."""
    fields = [c for c in dataset.dtype.names if c not in reducers.UNREAD_COLUMNS]
    sweep_fields = [c for c in reducers.SWEEPS.get(name, ("", ()))[1] if c in fields]
    rows = dataset.shape[0] if dataset.shape else 0
    kept, parts, decoded = [], {}, {}
    spans = (np.full(len(index.names), rows, dtype=np.int64),
             np.full(len(index.names), -1, dtype=np.int64))
    done, waiting = Completion(index, hold) if sweep_fields else None, Waiting()
    for first, block, last in _blocks(dataset, fields, BLOCK_ROWS):
        codes = index.code(block["rank"])
        _spans(spans, codes, first)
        keep, sweep, flagged = reducers.selections(name, block, codes >= 0, wanted)
        kept.append(_block_frame(block[keep], decoded))
        if flagged.any():
            rows_flagged = pd.DataFrame({"host": index.names[codes[flagged]],
                                         "flags": _text_column(block["flags"][flagged],
                                                               decoded)})
            parts.setdefault(reducers.FLAGS, []).append(reducers.flag_counts(rows_flagged))
        if sweep_fields:
            rows_swept = _with_fills(_block_frame(block[sweep][sweep_fields], decoded),
                                     {c: v for c, v in (fills or {}).items()
                                      if c in reducers.SWEEPS[name][1]})
            ready = waiting.take(rows_swept.assign(host=index.names[codes[sweep]]),
                                 codes[sweep], done.after(block["rank"], codes, last))
            for key, part in reducers.per_host(name, ready).items():
                parts.setdefault(key, []).append(part)
    return _with_fills(_joined(kept), fills), parts, spans


def _with_fills(frame, fills):
    """@p frame with each column of @p fills it lacks, as an older file's rows read (load.py),
    but those never read."""
    for column, value in (fills or {}).items():
        if column not in frame.columns and column not in reducers.UNREAD_COLUMNS:
            frame[column] = added_column(value, len(frame), frame.index)
    return frame


def _field_of_rows(dataset, field, rows, source):
    """@p field of the table's rows @p rows (sorted row numbers of the block @p source just gave)
    in one read: their chunks, just read for the block, are still held (chunks.Blocks) or in the
    chunk cache (load.CHUNK_CACHE_BYTES)."""
    held = getattr(source, "field_of", None)
    values = held(field, rows) if held is not None else None
    return values if values is not None else dataset.fields([field])[rows.tolist()][field]


def _stream_counters(dataset, index, wanted, hold=False):
    """/counters as its reductions ({name: frame}); {} where the table lacks a column
    counters.py needs (it has no figures then). Read again holding every host to the end
    where it is not in rank order (Completion)."""
    from .counters import NEEDED, events
    names = dataset.dtype.names
    if any(c not in names for c in NEEDED) or any(dataset.dtype[c].kind != "S"
                                                  for c in ("event", "group", "status")):
        return {}
    reduction, done = reducers.CounterReduction(wanted, index.names), Completion(index, hold)
    try:
        source = _blocks(dataset, [c for c in reducers.COUNTER_FIELDS if c in names],
                         COUNTER_BLOCK_ROWS)
        for first, block, last in source:
            codes = index.code(block["rank"])
            na = reduction.add(block, codes, done.after(block["rank"], codes, last), last)
            if len(na) and "note" in names:
                reduction.add_notes(_field_of_rows(dataset, "note", first + na, source))
    except OutOfOrder:
        return _stream_counters(dataset, index, wanted, True)
    return reduction.frames(events)


def read_reduced(path, budget=None):
    """The file (validated already) as the fleet reads it: Results whose tables are the small
    tables whole and the kept rows of the measurement tables, with `reduced` and `spans`."""
    budget = _budget() if budget is None else budget
    return opened(path, lambda f, attrs, read_as: _read_reduced(path, f, attrs, read_as,
                                                                  budget))


def read_rows(path, table, spans, fields, name_of):
    """The rows of @p table in the row ranges @p spans ([(first, stop)], in order) whose rank
    @p name_of names, as a frame of the @p fields the file has, with `file` and `host` (the
    name): fleet.rows_of's reader, of a file read before."""
    def reader(f, _attrs, _layout):
        dataset = f[table]
        view = dataset.fields(["rank", *[c for c in fields if c in dataset.dtype.names
                                         and c != "rank"]])
        parts, decoded = [], {}
        for first, stop in spans:
            for start in range(first, stop, BLOCK_ROWS):
                block = view[start:min(stop, start + BLOCK_ROWS)]
                block = block[np.isin(block["rank"], list(name_of))]
                frame = _block_frame(block, decoded)
                parts.append(frame.assign(host=frame["rank"].map(name_of)))
        frame = pd.concat(parts, ignore_index=True)
        frame.insert(0, "file", path)
        return frame
    return opened(path, reader)


def _joined(frames):
    """The frames stacked; those of blocks without rows left out, so that their columns'
    types are the rows' (an empty column's int64 beside uint64 would make both float)."""
    rows = [f for f in frames if len(f)]
    return pd.concat(rows or frames[:1], ignore_index=True)


def _read_reduced(path, f, attrs, read_as, budget):
    """read_reduced() of the open file @p f."""
    missing = [t for t in REQUIRED_COLUMNS if t not in f]
    if missing:
        raise ResultsError(f"{path}: tables missing: {', '.join(missing)}")
    res = Results(path=path, attrs=attrs)
    datasets = {}
    for name in read_as.tables:
        if name in UNREAD:
            continue
        if name not in f:
            res.tables[name] = pd.DataFrame()
            continue
        dataset = f[name]
        if not isinstance(dataset, h5py.Dataset) or dataset.dtype.names is None:
            raise ResultsError(f"{path}: /{name} is not a table (a compound dataset)")
        res.meta[name] = table_meta(dataset)
        if name in STREAMED:
            datasets[name] = dataset
            continue
        _bounded(path, name, dataset, budget)
        res.tables[name] = _frame(dataset, read_as.added.get(name))
    index = HostIndex(res.tables["hosts"])
    wanted = np.empty(0, dtype=np.int64)
    for name in STREAMED:
        if name not in datasets:
            if name != "counters":
                res.tables[name] = pd.DataFrame()
            continue
        if name == "counters":
            res.reduced.update(_stream_counters(datasets[name], index, wanted))
            continue
        keys = reducers.first_touch_keys(res.tables["bandwidth"]) if name == "placement" \
            else None
        frame, parts, spans = _stream_table(name, datasets[name], index,
                                            read_as.added.get(name), keys)
        res.tables[name] = frame
        res.spans[name] = pd.DataFrame({"host": index.names, "first": spans[0],
                                        "last": spans[1]})
        for key, frames in parts.items():
            res.reduced[key] = _joined([res.reduced[key], *frames] if key in res.reduced
                                       else frames)
        if name in ("latency", "bandwidth"):
            wanted = np.union1d(wanted, reducers.measurement_keys(frame))
    for name, columns in REQUIRED_COLUMNS.items():
        absent = [c for c in columns if c not in res.tables[name].columns]
        if absent:
            raise ResultsError(f"{path}: /{name} lacks column(s) {', '.join(absent)}")
    return res
