# SPDX-License-Identifier: BSD-3-Clause
"""Edits of a synthetic fleet file (synthetic_fleet.py) that plant one case each: a host's
/hosts field changed (config drift), a table's rows changed or added (the sweeps the generator
does not write: bandwidth_sweep, thread_scaling, stride_sweep), cache levels judged otherwise.
Rows added take the generator's column layout, so `numaprobe check` calls the file valid."""

import h5py
import numpy as np

import h5inputs  # tests/tools/h5inputs.py: files as an older minor wrote them
import synthetic_fleet


def ranks_of(path):
    """hostname -> rank."""
    with h5py.File(path, "r") as f:
        hosts = f["hosts"][()]
    return {h.decode(): int(r) for h, r in zip(hosts["hostname"], hosts["rank"])}


def edit(path, table, fn):
    """Replaces /TABLE by fn(rows) (a numpy structured array, changed in place or new). A table
    the binary wrote (chunked, resizable) is rewritten in place with the same columns, keeping
    its attributes, which `numaprobe check` asks of a file; any other is made anew."""
    with h5py.File(path, "r+") as f:
        rows = f[table][()]
        out = fn(rows)
        rows = rows if out is None else out
        ds = f[table]
        if ds.maxshape[0] is None and rows.dtype == ds.dtype:
            ds.resize((len(rows),))
            ds[...] = rows
            return
        del f[table]
        f.create_dataset(table, data=rows)


def set_host(path, host, **fields):
    """Sets /hosts fields of every rank of @p host (e.g. thp_mode="always")."""
    def change(rows):
        sel = rows["hostname"] == host.encode()
        for k, v in fields.items():
            rows[k][sel] = v.encode() if isinstance(v, str) else v
    edit(path, "hosts", change)


def add_rows(path, table, new_rows):
    """Appends rows (dicts; fields not given: zero, empty or NaN) to /TABLE."""
    w = synthetic_fleet.Writer(np.random.default_rng(0))
    for r in new_rows:
        w.add(table, **r)
    extra = w.array(table)
    edit(path, table, lambda rows: np.concatenate([rows, extra.astype(rows.dtype)]))


def next_measurement(path, rank):
    with h5py.File(path, "r") as f:
        ids = [f[t]["measurement"][f[t]["rank"] == rank] for t in f
               if isinstance(f[t], h5py.Dataset) and f[t].dtype.names
               and "measurement" in f[t].dtype.names]
    return int(max(int(i.max()) if len(i) else 0 for i in ids)) + 1


OK = {"valid": 1, "status": "ok", "pages_on_target_frac": 1.0, "huge_page_frac": 0.0}


def add_sweeps(path, scale=None):
    """bandwidth_sweep (read, triad by working set), thread_scaling (read by threads) and
    stride_sweep (latency by stride) rows for every host; scale: host -> factor on its
    bandwidth."""
    scale = scale or {}
    bw, lat, place = [], [], []
    for host, rank in ranks_of(path).items():
        mid = next_measurement(path, rank)
        s = scale.get(host, 1.0) * (0.45 if host.startswith("rome") else 1.0)
        common = {"rank": rank, "hostname": host, "cpu_node": 0, "mem_node": 0,
                  "mem_policy": "bind", "pair_class": "local", "slit": 10, "page_bytes": 4096,
                  **OK}
        for kernel, k_scale in (("read", 1.0), ("triad", 0.8)):
            for exp in range(14, 31, 2):
                size = 1 << exp
                gbs = s * k_scale * (400.0 if size <= 1 << 20 else 200.0 if size <= 32 << 20
                                     else 90.0)
                bw.append({**common, "measurement": mid, "experiment": "bandwidth_sweep",
                           "size_bytes": size, "kernel": kernel, "init_mode": "threaded",
                           "threads": 16, "repetitions": 3, "passes_per_sample": 1,
                           "gbs_best": gbs, "gbs_median": 0.98 * gbs, "gbs_worst": 0.95 * gbs,
                           "bus_gbs_best": gbs, "threads_pinned_ok": 1})
                place.append({"rank": rank, "measurement": mid, "experiment": "bandwidth_sweep",
                              "node": 0, "pages": max(1, size // 4096)})
                mid += 1
            for threads in (1, 2, 4, 8, 16):
                gbs = s * k_scale * 90.0 * min(1.0, threads / 6)
                bw.append({**common, "measurement": mid, "experiment": "thread_scaling",
                           "size_bytes": 128 << 20, "kernel": kernel, "init_mode": "threaded",
                           "threads": threads, "repetitions": 3, "passes_per_sample": 1,
                           "gbs_best": gbs, "gbs_median": 0.98 * gbs, "gbs_worst": 0.95 * gbs,
                           "bus_gbs_best": gbs, "threads_pinned_ok": 1})
                place.append({"rank": rank, "measurement": mid, "experiment": "thread_scaling",
                              "node": 0, "pages": (128 << 20) // 4096})
                mid += 1
        for exp in range(3, 13):
            stride = 1 << exp
            ns = 2.0 if stride < 64 else 2.0 + 80.0 * min(1.0, (stride - 32) / 4000)
            ns *= 1.2 if host.startswith("rome") else 1.0
            lat.append({**common, "measurement": mid, "experiment": "stride_sweep",
                        "size_bytes": 64 << 20, "pattern": f"stride:{stride}",
                        "slot_bytes": stride, "threads": 1, "samples": 11,
                        "accesses_per_sample": 1 << 16, "latency_ns_min": 0.99 * ns,
                        "latency_ns_median": ns, "latency_ns_p90": 1.01 * ns,
                        "latency_ns_p99": 1.02 * ns, "latency_ns_max": 1.05 * ns})
            place.append({"rank": rank, "measurement": mid, "experiment": "stride_sweep",
                          "node": 0, "pages": (64 << 20) // 4096})
            mid += 1
    add_rows(path, "bandwidth", bw)
    add_rows(path, "latency", lat)
    add_rows(path, "placement", place)


def as_schema_0_6(path, contract):
    """The file as a numaprobe of schema 0.6.0 wrote it: without what later minors added by
    @p contract (`numaprobe --schema` as JSON; no /counters, none of 0.7.0's columns), and every
    table with the attributes 0.6.0 added (description, columns, units and
    column_descriptions)."""
    h5inputs.as_minor(path, contract, "0.6.0")
    describe_tables(path, contract)


def describe_tables(path, contract):
    """Every table of the file given the attributes `numaprobe check` asks of schema 0.6.0 and
    later (description, columns, units, column_descriptions), from @p contract: `numaprobe
    --schema` as JSON."""
    tables = {t["name"]: t for t in contract["tables"]}
    with h5py.File(path, "r+") as f:
        for name in f:
            documented = {c["name"]: c for c in tables[name]["columns"]}
            columns = list(f[name].dtype.names)
            a = f[name].attrs
            a["description"] = tables[name]["description"]
            a["columns"] = columns
            a["units"] = [documented[c]["unit"] or "" for c in columns]
            a["column_descriptions"] = [documented[c]["description"] for c in columns]


def rename_host(path, old, new):
    """Renames host @p old to @p new in every table that names hosts (@p new: str, written as
    UTF-8, or bytes, written as they are)."""
    with h5py.File(path, "r") as f:
        tables = [t for t in f if isinstance(f[t], h5py.Dataset) and f[t].dtype.names
                  and "hostname" in f[t].dtype.names]

    def change(rows):
        rows["hostname"][rows["hostname"] == old.encode()] = (
            new if isinstance(new, bytes) else new.encode())
    for table in tables:
        edit(path, table, change)


def fail_host(path, host, error="cannot allocate 1 GiB on NUMA node 0"):
    """@p host's run did not end ok: its /hosts status `failed` with an error, and the file's
    counts of failed hosts as the collector writes them (`numaprobe check` compares them)."""
    set_host(path, host, status="failed", error=error)
    with h5py.File(path, "r+") as f:
        failed = int(np.sum(f["hosts"]["status"] != b"ok"))
        f.attrs["hosts_failed"] = np.int64(failed)
        f.attrs["hosts_ok"] = np.int64(int(f.attrs["host_count"]) - failed)
        f.attrs["complete"] = np.int64(0)
