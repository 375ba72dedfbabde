#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""plant-fleet: a fleet of N hosts made from the host of a real one-host results file, so that a
test on any machine can derive references from "a fleet" of that machine's node type and judge
a host against them (analysis/tests/test_health.py).

  plant-fleet.py SRC.h5 -n 12 -o fleet.h5 [--prefix h] [--seed 1] [--spread-pct 2]
                 [--uncertainty-pct P] [--scale [HOST:]FIGURE=FACTOR]...
                 [--noisy [HOST:]FIGURE=PCT]... [--force]

Every row of SRC is copied once per host: hosts h01 .. hNN (--prefix; ranks numbered on, the
host's rank count each), the same fingerprint and node type. Each host's figures (every float
column whose unit, in the table's `units` attribute, is ns or GB/s, pass values included;
/hosts left as it is) are multiplied by a factor of its own, exp(N(0, spread)), one for
latencies and one for bandwidths, drawn from --seed: the same arguments make the same file.
--uncertainty-pct sets every row's uncertainty_pct (a quiet fleet from a run on a busy machine).

Plants, after that, on HOST (every host without HOST:):
  --scale FIGURE=FACTOR   the figure's rows' ns and GB/s columns times FACTOR (0.6: 40% less
                          bandwidth, 1.3: 30% more latency)
  --noisy FIGURE=PCT      the figure's rows' uncertainty_pct set to PCT (above 25: noisy)
FIGURE: a metric key of the report that comes from the matrices (latency_local_ns,
latency_remote_ns, bw_KERNEL_local_gbs, bw_KERNEL_remote_gbs) or a kind of them (latency_local,
latency_remote, bw_local, bw_remote: every kernel), optionally narrowed as the references' keys
are: @node N (the rows from CPU node N), @CLASS pairs (the rows of that pair class). A plant
that selects no row is refused. The file is written atomically and `numaprobe check` calls it
valid. Exit status: 0 written, 2 usage error or a source it cannot copy (one line on stderr)."""

import argparse
import os
import re
import shutil
import sys

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, os.pardir, "analysis", "tests"))
import fleet_edits  # noqa: E402  (the one way tests rewrite a table)

SCALED_UNITS = {"ns": "latency", "GB/s": "bandwidth"}
_FIGURE = re.compile(r"(?:latency_(?P<lat>local|remote)(?:_ns)?"
                     r"|bw(?:_(?P<kernel>[a-z0-9_]+?))?_(?P<bw>local|remote)(?:_gbs)?)"
                     r"(?:@(?:node (?P<node>[0-9]+)|(?P<cls>[a-z0-9_]+) pairs))?")


class Refused(Exception):
    pass


def plant(text, kind):
    """[HOST:]FIGURE=VALUE -> (host or None, figure, value)."""
    lhs, sep, value = text.rpartition("=")
    host, colon, figure = lhs.partition(":")
    if not colon:
        host, figure = None, lhs
    try:
        number = float(value)
    except ValueError:
        number = None
    if not sep or not _FIGURE.fullmatch(figure.strip()) or number is None \
            or not np.isfinite(number) or number < 0:
        raise argparse.ArgumentTypeError(
            f"{text!r}: expected [HOST:]FIGURE={kind}, FIGURE such as bw_read_local_gbs@node 1, "
            f"latency_remote or bw_local")
    return host, figure.strip(), number


def _text(column):
    return np.char.decode(column.astype(bytes), "utf-8", "replace")


def selected(rows, table, figure):
    """The mask of @p rows (of /TABLE) that FIGURE names."""
    m = _FIGURE.fullmatch(figure)
    where = m["lat"] or m["bw"]
    if table != ("latency" if m["lat"] else "bandwidth"):
        return np.zeros(len(rows), dtype=bool)
    keep = ((_text(rows["experiment"]) == ("latency_matrix" if m["lat"] else "bandwidth_matrix"))
            & (_text(rows["mem_policy"]) == "bind") & (rows["status"] == b"ok"))
    local = rows["cpu_node"] == rows["mem_node"]
    keep &= local if where == "local" else ~local
    if m["kernel"]:
        keep &= _text(rows["kernel"]) == m["kernel"]
    if m["node"] is not None:
        keep &= rows["cpu_node"] == int(m["node"])
    if m["cls"]:
        keep &= _text(rows["pair_class"]) == m["cls"]
    return keep


def scaled_columns(ds):
    """{column: latency|bandwidth} of the figures: the float columns whose unit is ns or GB/s
    (not a clock's resolution or a counter's count)."""
    names = [_decode(c) for c in ds.attrs.get("columns", [])]
    units = [_decode(u) for u in ds.attrs.get("units", [])]
    return {c: SCALED_UNITS[u] for c, u in zip(names, units)
            if u in SCALED_UNITS and ds.dtype[c].base.kind == "f"}


def _decode(x):
    return x.decode("utf-8", "replace") if isinstance(x, bytes) else str(x)


def tables(path):
    with h5py.File(path, "r") as f:
        return {name: scaled_columns(f[name]) for name in f
                if isinstance(f[name], h5py.Dataset) and "rank" in (f[name].dtype.names or ())}


def source_hosts(path):
    with h5py.File(path, "r") as f:
        if "hosts" not in f or "units" not in f["hosts"].attrs:
            raise Refused(f"{path}: no /hosts table with a units attribute (a results file of "
                          f"schema 0.6.0 or later is needed)")
        hosts = f["hosts"][()]
        attrs = {k: f.attrs[k] for k in ("world_size", "host_count", "hosts_ok", "hosts_failed")}
    names = sorted(set(_text(hosts["hostname"])))
    if len(names) != 1:
        raise Refused(f"{path} holds {len(names)} hosts ({', '.join(names)}): plant-fleet "
                      f"copies a file of one host")
    return len(hosts), attrs


def make(args, out):
    ranks, attrs = source_hosts(args.source)
    names = [f"{args.prefix}{i + 1:0{max(2, len(str(args.hosts)))}d}" for i in range(args.hosts)]
    rng = np.random.default_rng(args.seed)
    factors = np.exp(rng.normal(0.0, args.spread_pct / 100, (args.hosts, 2)))
    plants = ([(h, f, ("scale", v)) for h, f, v in args.scale]
              + [(h, f, ("noisy", v)) for h, f, v in args.noisy])
    for host, figure, _ in plants:
        if host is not None and host not in names:
            raise Refused(f"plant on {host!r}: no such host (hosts: {names[0]} .. {names[-1]})")
    hits = [0] * len(plants)
    shutil.copyfile(args.source, out)
    for table, columns in tables(out).items():
        def copy(rows, table=table, columns=columns):
            parts = []
            for i, name in enumerate(names):
                part = rows.copy()
                part["rank"] += i * ranks
                if "hostname" in part.dtype.names:
                    part["hostname"] = name.encode()
                if table == "hosts":
                    part["host_index"] = i
                    parts.append(part)
                    continue
                for column, kind in columns.items():
                    part[column] *= factors[i, 0 if kind == "latency" else 1]
                if args.uncertainty_pct is not None and "uncertainty_pct" in part.dtype.names:
                    part["uncertainty_pct"] = args.uncertainty_pct
                for k, (host, figure, (what, value)) in enumerate(plants):
                    if host not in (None, name):
                        continue
                    sel = selected(part, table, figure)
                    hits[k] += int(sel.sum())
                    if not sel.any():
                        continue
                    if what == "noisy":
                        part["uncertainty_pct"][sel] = value
                    else:
                        for column in columns:
                            part[column][sel] *= value
                parts.append(part)
            return np.concatenate(parts)
        fleet_edits.edit(out, table, copy)
    missed = [f"{'' if h is None else h + ':'}{f}" for (h, f, _), n in zip(plants, hits) if not n]
    if missed:
        raise Refused(f"{args.source}: no ok rows of {', '.join(missed)} to plant on")
    with h5py.File(out, "r+") as f:
        f.attrs["world_size"] = np.int64(ranks * args.hosts)
        f.attrs["host_count"] = np.int64(args.hosts)
        f.attrs["hosts_ok"] = np.int64(int(attrs["hosts_ok"]) * args.hosts)
        f.attrs["hosts_failed"] = np.int64(int(attrs["hosts_failed"]) * args.hosts)


def main(argv=None):
    p = argparse.ArgumentParser(prog="plant-fleet.py", description=__doc__.split("\n\n")[0],
                                epilog="Exit status: 0 written; 2 usage error or a source "
                                       "it cannot copy.")
    p.add_argument("source", metavar="SRC.h5", help="a results file of one host")
    p.add_argument("-n", "--hosts", type=int, default=12, metavar="N", help="hosts (default 12)")
    p.add_argument("-o", "--output", required=True, metavar="FLEET.h5")
    p.add_argument("--prefix", default="h", help="host names PREFIX01 .. (default h)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--spread-pct", type=float, default=2.0, metavar="PCT",
                   help="each host's figures' factor spreads by this much (default 2)")
    p.add_argument("--uncertainty-pct", type=float, metavar="PCT",
                   help="every row's uncertainty_pct (default: the source's)")
    p.add_argument("--scale", type=lambda t: plant(t, "FACTOR"), action="append", default=[],
                   metavar="[HOST:]FIGURE=FACTOR")
    p.add_argument("--noisy", type=lambda t: plant(t, "PCT"), action="append", default=[],
                   metavar="[HOST:]FIGURE=PCT")
    p.add_argument("--force", action="store_true", help="replace an existing FLEET.h5")
    args = p.parse_args(argv)
    if args.hosts < 1 or not (0 <= args.spread_pct < 50) or (
            args.uncertainty_pct is not None and not 0 <= args.uncertainty_pct < 1000):
        p.error("expected -n >= 1, 0 <= --spread-pct < 50, 0 <= --uncertainty-pct < 1000")
    if os.path.lexists(args.output) and not args.force:
        print(f"plant-fleet: {args.output} exists: --force replaces it", file=sys.stderr)
        return 2
    tmp = f"{args.output}.tmp.{os.getpid()}"
    try:
        make(args, tmp)
        os.replace(tmp, args.output)
    except (Refused, OSError) as e:
        print(f"plant-fleet: {e}", file=sys.stderr)
        return 2
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    print(f"{args.output}: {args.hosts} host(s) from {args.source}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
