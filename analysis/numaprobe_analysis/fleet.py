# SPDX-License-Identifier: BSD-3-Clause
"""A fleet: several results files as one (`load_fleet`), each read as stream.py reads it. Their
tables are stacked, with a `file` column and a `host` column (the host name the row's rank
counts under) on every table, so rows of different jobs never mix up their ranks; a host in
several runs counts once, by its latest run (or each under its own name), and a host named by
its short name in one file and by its FQDN in another is one host (hostnames.py)."""

from dataclasses import dataclass, field
from functools import partial

import pandas as pd

from .hostnames import aliases
from .load import table_of, validated
from .stream import read_reduced, read_rows


@dataclass
class Fleet:
    """Several results files as one: every table stacked, with `file` and `host` columns, and
    the reductions of the tables not kept whole (reducers.py) stacked likewise. runs: one Run
    per file (runs.py); notes: what was left out or renamed, in sentences."""
    files: list
    tables: dict
    runs: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    reduced: dict = field(default_factory=dict)

    def __getitem__(self, name):
        return table_of(self.tables, name)

    def let_go(self):
        """Drops the rows and per-host figures (of the fleet and of each file), keeping the
        files' attributes, the runs and the notes: what a command holding two fleets' views
        needs of each once viewed."""
        self.tables, self.reduced = {}, {}
        for res in self.files:
            res.tables, res.reduced, res.spans = {}, {}, {}


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


def _stack(files, frames_of, name, names, by_hostname, configs=None):
    """The frame @p name of every file stacked (each file's own becomes its slice), each with
    `file` and `host` (a frame with ranks: through @p names, one Series rank -> host name a
    file; else its `host`, the file's hostname, through @p by_hostname), the rows of no host
    that counts left out; /hosts also gets each file's config fingerprint (@p configs)."""
    for res, ranks in zip(files, names):
        frame = frames_of(res)[name]
        if "rank" in frame.columns:
            frame.insert(0, "file", res.path)
            frame["host"] = frame["rank"].map(ranks)
        elif "host" in frame.columns:
            frame.insert(0, "file", res.path)
            frame["host"] = frame.host.map(by_hostname[res.path])
        if configs is not None and name == "hosts":
            frame["config"] = configs[res.path]
    with_rows = [res for res in files if len(frames_of(res)[name])]
    # A table no file has rows in keeps its columns: the analysis looks them up.
    if not with_rows:
        shaped = next((frames_of(res)[name] for res in files
                       if len(frames_of(res)[name].columns)), None)
        return shaped.iloc[0:0] if shaped is not None else pd.DataFrame()
    if len(with_rows) == 1:
        stacked = frames_of(with_rows[0])[name]
    else:
        stacked = pd.concat([frames_of(res)[name] for res in with_rows], ignore_index=True)
        first = 0
        for res in with_rows:
            rows = len(frames_of(res)[name])
            frames_of(res)[name] = stacked.iloc[first:first + rows]
            first += rows
    counted = stacked.host.notna() if "host" in stacked.columns else None
    return stacked if counted is None or counted.all() else \
        stacked[counted].reset_index(drop=True)


def load_fleet(paths, all_runs=False, allow_mixed=False):
    """Loads every path (ResultsError on the first bad one) and stacks their tables. Runs of
    different measurement configs are refused (runs.MixedConfigs) unless @p allow_mixed; a host
    in several runs counts once, by its latest run, unless @p all_runs.

    A fleet's tables hold millions of rows, so nothing is copied that need not be: each file's
    own frames get the `file` and `host` columns in place, a single file's frames are the
    fleet's, and several files' are stacked once (each file's frames then become its slice)."""
    from .runs import refuse_mixed, run_of
    files = [validated(p, partial(read_reduced, p)) for p in paths]
    runs = [run_of(res, i) for i, res in enumerate(files)]
    refuse_mixed(runs, allow_mixed)
    every_host = pd.concat([res["hosts"][["hostname"]].assign(file=res.path) for res in files],
                           ignore_index=True)
    keep, notes = _kept_runs(every_host, runs, all_runs)
    fingerprints = {r.path: r.fingerprint for r in runs}
    names = [_host_names(res, keep) for res in files]
    by_hostname = {res.path: {h: keep.get((res.path, h)) for h in res["hosts"].hostname}
                   for res in files}
    # Every file holds the same tables, those of layout(): the first file's order is theirs.
    tables = {name: _stack(files, lambda r: r.tables, name, names, by_hostname, fingerprints)
              for name in dict.fromkeys(n for res in files for n in res.tables)}
    # A file whose rows gave a reduction nothing (no flagged row, no sweep) has no frame of it.
    reductions = dict.fromkeys(n for res in files for n in res.reduced)
    for res in files:
        for name in reductions:
            res.reduced.setdefault(name, pd.DataFrame())
    reduced = {name: _stack(files, lambda r: r.reduced, name, names, by_hostname)
               for name in reductions}
    return Fleet(files=files, tables=tables, runs=runs, notes=notes, reduced=reduced)


def rows_of(fleet, table, hosts, fields):
    """The rows of @p table of the hosts named in @p hosts (a few: each file is read again
    where its rows are, stream.py's spans), @p fields of them with `file` and `host`, in the
    fleet's order (file, then row)."""
    ranks = fleet["hosts"][fleet["hosts"].host.isin(set(hosts))]
    parts = []
    for res in fleet.files:
        mine = ranks[ranks.file == res.path]
        spans = res.spans.get(table)
        if not len(mine) or spans is None:
            continue
        spans = spans[spans.host.isin(set(mine.hostname))]
        ranges = []  # the hosts' spans, merged where they overlap: each row read once
        for a, b in sorted((int(a), int(b) + 1) for a, b in zip(spans["first"], spans["last"])
                           if b >= a):
            if ranges and a <= ranges[-1][1]:
                ranges[-1][1] = max(ranges[-1][1], b)
            else:
                ranges.append([a, b])
        name_of = dict(zip(mine["rank"], mine.host))
        parts.append(read_rows(res.path, table, ranges, fields, name_of))
    if not parts:
        return pd.DataFrame(columns=["file", *fields, "host"])
    return pd.concat(parts, ignore_index=True)
