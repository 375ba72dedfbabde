#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Tests of `numaprobe check` and `numaprobe merge` on files the binary wrote.

    tools_test.py CASE --exe NUMAPROBE --src RESULTS.h5 --work DIR

Each CASE makes its inputs under DIR from RESULTS.h5 with h5py (a corrupted copy, per-rank
checkpoints split from the file, ...), runs the binary and checks its exit code, its messages
and, for merge, the file it wrote. Exits 0 when every expectation holds, 1 with the list of
failures otherwise."""

import argparse
import os
import re
import shutil
import struct
import subprocess
import sys

import h5py
import numpy as np
import numpy.lib.recfunctions as rfn

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


class Test:
    def __init__(self, args):
        self.exe, self.src, self.work = args.exe, args.src, args.work
        self.failures = []

    def expect(self, ok, message):
        if not ok:
            self.failures.append(message)
        return ok

    def path(self, name):
        return os.path.join(self.work, name)

    def run(self, args, rc, fragments=(), forbid=(), timeout=240):
        """Runs numaprobe ARGS; expects exit code RC and each fragment in its output."""
        try:
            p = subprocess.run([self.exe, *args], capture_output=True, text=True, check=False,
                               errors="replace", timeout=timeout)
        except subprocess.TimeoutExpired:
            self.expect(False, f"numaprobe {' '.join(args)}: still running after {timeout} s")
            return ""
        out = p.stdout + p.stderr
        what = f"numaprobe {' '.join(args)}"
        ok = self.expect(p.returncode == rc, f"{what}: exit {p.returncode}, expected {rc}")
        for frag in fragments:
            ok &= self.expect(frag in out, f"{what}: output lacks {frag!r}")
        for frag in forbid:
            ok &= self.expect(frag not in out, f"{what}: output has {frag!r}")
        if not ok:
            print(f"--- {what} (exit {p.returncode}):\n{out}---")
        return out

    def copy(self, name):
        dst = self.path(name)
        shutil.copyfile(self.src, dst)
        return dst


# ---- making inputs ------------------------------------------------------------------------------

def ok_rows(rows):
    return np.flatnonzero(rows["status"] == b"ok")


def edit_column(path, table, column, row, value):
    with h5py.File(path, "r+") as f:
        rows = f[table][()]
        rows[column][row] = value
        f[table][...] = rows


def set_attrs(path, **attrs):
    with h5py.File(path, "r+") as f:
        for name, value in attrs.items():
            if value is None:
                del f.attrs[name]
            else:
                f.attrs[name] = value


def replace_table(path, table, rows):
    """The table's rows replaced; its attributes (description, units: schema 0.6.0) kept."""
    with h5py.File(path, "r+") as f:
        attrs = dict(f[table].attrs)
        del f[table]
        ds = f.create_dataset(table, data=rows, maxshape=(None,), chunks=True)
        for k, v in attrs.items():
            ds.attrs[k] = v


def copy_table(src_ds, dst, name, rows):
    """A table as the writer makes it: the source's HDF5 type (fixed-length, NUL-terminated
    strings) and creation properties (chunks, filters)."""
    space = h5py.h5s.create_simple((len(rows),), (h5py.h5s.UNLIMITED,))
    ds = h5py.Dataset(h5py.h5d.create(dst.id, name.encode(), src_ds.id.get_type(), space,
                                      dcpl=src_ds.id.get_create_plist()))
    for k, v in src_ds.attrs.items():  # description, columns, units (schema 0.6.0)
        ds.attrs[k] = v
    if len(rows):
        ds[...] = rows


def split(src, outdir, ranks=None, unfinished=(), attrs=None):
    """Per-rank checkpoints as the job writes them (docs/SCHEMA.md): rank-RRRRR.h5 holding the
    rank's rows, the job's root attributes with complete=0, checkpoint_rank and
    checkpoint_complete; an unfinished rank's /hosts row says running."""
    os.makedirs(outdir, exist_ok=True)
    with h5py.File(src, "r") as f:
        world = int(f.attrs["world_size"])
        for r in range(world) if ranks is None else ranks:
            with h5py.File(os.path.join(outdir, f"rank-{r:05d}.h5"), "w") as g:
                for k, v in f.attrs.items():
                    g.attrs[k] = v
                g.attrs["complete"] = np.int64(0)
                g.attrs["checkpoint_rank"] = np.int64(r)
                g.attrs["checkpoint_complete"] = np.int64(0 if r in unfinished else 1)
                for k, v in (attrs or {}).get(r, {}).items():
                    g.attrs[k] = v
                for name in f:
                    rows = f[name][()]
                    rows = rows[rows["rank"] == r]
                    if name == "hosts" and r in unfinished:
                        rows["status"] = b"running"
                    copy_table(f[name], g, name, rows)


def garbage(path):
    with open(path, "wb") as f:
        f.write(b"this is not an HDF5 file\n" * 40)


def crash_hdf5(path):
    """Damage HDF5 1.10.8 does not detect and crashes on (SIGSEGV in H5HG_read): the first object
    of the global heap collection that holds the root attributes' text claims 1 TiB. Loading the
    collection takes the claim as it stands (the walk over the objects ends there), and reading
    that attribute copies 1 TiB out of a 4 KiB collection. Every reader reads every root
    attribute. An HDF5 that detects it would make check say "not readable" instead of "crashed":
    then this test needs another damage. (Flipping the collection's own size crashed HDF5 only
    when the bytes after the collection happened to parse as objects.)"""
    with open(path, "r+b") as f:
        data = bytearray(f.read())
        col = data.find(b"GCOL")
        assert col >= 0, f"{path} has no global heap"
        first = col + 16  # header: "GCOL", version, 3 reserved bytes, the collection's size
        struct.pack_into("<Q", data, first + 8, 1 << 40)  # object: index, refs, reserved, size
        f.seek(0)
        f.write(data)


def hang_hdf5(path):
    """Damage HDF5 1.10.8 loops on while it loads a global heap collection
    (H5HG__cache_heap_deserialize): an object header with index 0 and size 0, free space of no
    length, leaves the walk over the collection's objects where it is. The first collection holds
    the root attributes, which every reader reads first. The object before the first one of at
    least 64 bytes claims a size that ends 16 bytes into that one's text, which gets 16 zero bytes
    there. (Claiming "1000 bytes more" found zeros by chance, and stopped finding them when the
    tables gained their description and units attributes.)"""
    with open(path, "r+b") as f:
        data = bytearray(f.read())
        col = data.find(b"GCOL")
        assert col >= 0, f"{path} has no global heap"
        before, at = None, col + 16  # header: "GCOL", version, 3 reserved bytes, the size
        while True:
            index, _, _, size = struct.unpack_from("<HHIQ", data, at)
            assert index != 0, f"{path}: no object of 64 bytes in the first global heap"
            if size >= 64 and before is not None:
                break
            before, at = at, at + 16 + (size + 7) // 8 * 8
        target = at + 16 + 16
        data[target:target + 16] = bytes(16)
        struct.pack_into("<Q", data, before + 8, target - (before + 16))
        f.seek(0)
        f.write(data)


def rows_of(path, table, drop_ranks=()):
    with h5py.File(path, "r") as f:
        rows = f[table][()]
    return rows[~np.isin(rows["rank"], list(drop_ranks))]


# ---- check --------------------------------------------------------------------------------------

@case
def check_valid(t):
    t.run(["check", t.src], 0, ["valid (schema", "complete=1"], forbid=["INVALID"])


@case
def check_truncated(t):
    bad = t.copy("truncated.h5")
    with open(bad, "r+b") as f:
        f.truncate(os.path.getsize(bad) // 2)
    t.run(["check", bad], 4, ["truncated or damaged", "INVALID"])


def sanitizer_culprit(out):
    """The first stack frame of a sanitizer's report that is not the sanitizer's own, or None
    without a report. UBSan reports name numaprobe's own source line (HDF5 is not built with
    it); ASan's may name libhdf5, whose own memory errors on a damaged file are HDF5's."""
    if "runtime error" in out:
        return "numaprobe (UBSan)"
    if "Sanitizer" not in out:
        return None
    for line in out.splitlines():
        line = line.strip()
        if re.match(r"#\d+ ", line) and not any(
                own in line for own in ("libsanitizer", "__interceptor_", "__asan")):
            return line
    return "unknown"


@case
def check_flipped_bytes(t):
    """One byte flipped at a time across the whole file: metadata, B-trees, heaps and rows. Check
    must never crash (a signal or a sanitizer report is a failure) and must reject the copies it
    cannot read; a flip in the signature always matters."""
    size = os.path.getsize(t.src)
    with open(t.src, "rb") as f:
        data = bytearray(f.read())
    bad = t.path("flipped.h5")
    rejected = in_hdf5 = looped = 0
    # The first 16 KiB hold the superblock, object headers (types, extents) and B-trees.
    offsets = list(range(0, 16384, 41)) + list(range(16384, size, size // 60))
    for off in offsets:
        copy = bytearray(data)
        copy[off] ^= 0xFF
        with open(bad, "wb") as f:
            f.write(copy)
        # Some flips make HDF5 loop: check gives up after --timeout, which keeps the case short.
        p = subprocess.run([t.exe, "check", "--timeout", "5", bad], capture_output=True, text=True,
                           check=False, errors="replace")
        out = p.stdout + p.stderr
        looped += "did not end within" in out
        culprit = sanitizer_culprit(out)
        in_hdf5 += culprit is not None and "libhdf5" in culprit
        t.expect(p.returncode in (0, 4) and (culprit is None or "libhdf5" in culprit),
                 f"byte {off} flipped: exit {p.returncode}\n{out}")
        t.expect(out.isascii(), f"byte {off} flipped: output is not plain ASCII\n{out}")
        t.expect(off != 0 or p.returncode == 4, "flipped signature byte not detected")
        rejected += p.returncode == 4
    print(f"{len(offsets)} single-byte flips, {rejected} rejected ({looped} made HDF5 loop), "
          f"{in_hdf5} memory errors inside libhdf5 (under a sanitizer; the child process ended, "
          "the file was rejected)")


@case
def check_hdf5_crashes(t):
    # A checkpoint as split() writes it: h5py's layout, whose heap damage HDF5 1.10.8 crashes on.
    split(t.src, t.work, ranks=[0])
    bad = t.path("rank-00000.h5")
    crash_hdf5(bad)
    t.run(["check", bad], 4, ["reading it crashed (signal", "damaged in a way HDF5 does not detect",
                              "INVALID"])


@case
def check_hdf5_loops(t):
    split(t.src, t.work, ranks=[0])
    bad = t.path("rank-00000.h5")
    hang_hdf5(bad)
    t.run(["check", "--timeout", "3", bad], 4,
          ["reading it did not end within 3 s", "makes HDF5 loop", "INVALID"])
    t.run(["check", "--timeout", "soon", bad], 2, ["--timeout needs a whole number of seconds"])


@case
def check_rank_not_in_hosts(t):
    bad = t.copy("rank99.h5")
    edit_column(bad, "latency", "rank", 12, 99)
    t.run(["check", bad], 4, ["/latency row 12: rank 99 not in /hosts", "INVALID"])


@case
def check_missing_column(t):
    bad = t.copy("no-median.h5")
    rows = rows_of(bad, "latency")
    replace_table(bad, "latency", rfn.drop_fields(rows, "latency_ns_median", usemask=False))
    t.run(["check", bad], 4, ["/latency: column latency_ns_median missing"])


@case
def check_wrong_type(t):
    bad = t.copy("float32.h5")
    rows = rows_of(bad, "bandwidth")
    dtype = [(n, np.float32 if n == "gbs_best" else rows.dtype[n]) for n in rows.dtype.names]
    replace_table(bad, "bandwidth", rows.astype(dtype))
    t.run(["check", bad], 4, ["/bandwidth: column gbs_best is float32, expected float64"])


@case
def check_major_version(t):
    bad = t.copy("v9.h5")
    set_attrs(bad, schema_version="9.0.0")
    t.run(["check", bad], 4, ["schema_version 9.0.0: major version 9", "tables not checked"])


@case
def check_minor_version(t):
    newer = t.copy("v0.99.h5")
    set_attrs(newer, schema_version="0.99.0")
    t.run(["check", newer], 0, ["warning: schema_version 0.99.0 is newer", "valid"])
    older = t.copy("v0.0.h5")
    set_attrs(older, schema_version="0.0.1", binding_summary=None)
    t.run(["check", older], 4, ["warning: schema_version 0.0.1 is older",
                                "root attribute binding_summary missing"])


@case
def check_missing_table(t):
    bad = t.copy("no-placement.h5")
    with h5py.File(bad, "r+") as f:
        del f["placement"]
    t.run(["check", bad], 4, ["table /placement missing"])


@case
def check_missing_attribute(t):
    bad = t.copy("no-world-size.h5")
    set_attrs(bad, world_size=None, complete="yes")
    t.run(["check", bad], 4, ["root attribute world_size missing",
                              "root attribute complete is not an integer"])


@case
def check_not_hdf5(t):
    bad = t.path("text.h5")
    garbage(bad)
    t.run(["check", bad], 4, ["not an HDF5 file"])


@case
def check_usage(t):
    t.run(["check", t.path("does-not-exist.h5")], 2, ["cannot read", "No such file"])
    t.run(["check", t.work], 2, ["it is a directory"])
    t.run(["check"], 2, ["no FILE given"])
    t.run(["check", "--frobnicate"], 2, ["unknown option '--frobnicate'"])


@case
def check_nan_in_ok_row(t):
    bad = t.copy("nan.h5")
    row = ok_rows(rows_of(bad, "latency"))[0]
    edit_column(bad, "latency", "latency_ns_median", row, np.nan)
    t.run(["check", bad], 4, [f"/latency row {row}: latency_ns_median is nan in an ok row"])


@case
def check_fraction_range(t):
    bad = t.copy("frac.h5")
    edit_column(bad, "bandwidth", "pages_on_target_frac", 3, 1.5)
    t.run(["check", bad], 4, ["/bandwidth row 3: pages_on_target_frac = 1.5, outside [0, 1]"])


@case
def check_unknown_status(t):
    bad = t.copy("status.h5")
    edit_column(bad, "loaded_latency", "status", 1, b"great")
    t.run(["check", bad], 4, ["/loaded_latency row 1: status 'great' is not one of",
                              "valid is 1 but status is 'great'"])


@case
def check_placement_missing(t):
    bad = t.copy("no-placement-rows.h5")
    lat = rows_of(bad, "latency")
    row = ok_rows(lat)[0]
    rank, meas = lat["rank"][row], lat["measurement"][row]
    place = rows_of(bad, "placement")
    keep = ~((place["rank"] == rank) & (place["measurement"] == meas))
    with h5py.File(bad, "r+") as f:
        f["placement"].resize((int(keep.sum()),))
        f["placement"][...] = place[keep]
    t.run(["check", bad], 4, [f"/latency row {row}: status ok but no /placement rows for rank "
                              f"{rank} measurement {meas}"])


@case
def check_hosts_row_missing(t):
    bad = t.copy("three-hosts.h5")
    hosts = rows_of(bad, "hosts")
    with h5py.File(bad, "r+") as f:
        f["hosts"].resize((len(hosts) - 1,))
        f["hosts"][...] = hosts[:-1]
    last = hosts["rank"][-1]
    t.run(["check", bad], 4, [f"/hosts has {len(hosts) - 1} rows but world_size is "
                              f"{len(hosts)} and complete=1 (ranks missing: {last})",
                              f"rank {last} not in /hosts"])


@case
def check_host_counts(t):
    bad = t.copy("host-counts.h5")
    hosts = rows_of(bad, "hosts")
    edit_column(bad, "hosts", "ranks_on_host", 1, 1)
    edit_column(bad, "hosts", "host_index", 2, 5)
    set_attrs(bad, host_count=np.int64(2))
    same = int((hosts["host_index"] == hosts["host_index"][1]).sum()) - 1
    t.run(["check", bad], 4, [f"/hosts rank 1: ranks_on_host 1 but {same} rows have host_index",
                              "/hosts row 2: host_index 5 outside 0..host_count-1 (host_count 2)"])


@case
def check_orphan_and_duplicate_rows(t):
    bad = t.copy("joins.h5")
    edit_column(bad, "placement", "measurement", 0, 99999)
    lat = rows_of(bad, "latency")
    edit_column(bad, "bandwidth", "measurement", 0, lat["measurement"][0])
    edit_column(bad, "bandwidth", "rank", 0, lat["rank"][0])
    t.run(["check", bad], 4, ["/placement row 0: rank 0 measurement 99999 matches no measurement",
                              f"measurement {lat['measurement'][0]} is also /latency row 0"])


@case
def check_hung_rank(t):
    """As the writer leaves a rank its watchdog gave up: a /hosts row saying hung (written by
    rank 0, which knows only the host), no other rows, complete=0."""
    hung = t.copy("hung.h5")
    with h5py.File(hung, "r+") as f:
        last = int(f.attrs["world_size"]) - 1
        for name in f:
            rows = f[name][()]
            if name == "hosts":
                row = np.zeros(1, rows.dtype)
                row["rank"], row["host_index"] = last, rows["host_index"][last]
                row["hostname"], row["status"] = rows["hostname"][last], b"hung"
                row["error"] = b"watchdog: host silent for 4 s (limit 4 s: twice watchdog)"
                rows = np.concatenate([rows[rows["rank"] != last], row])
            else:
                rows = rows[rows["rank"] != last]
            f[name].resize((len(rows),))
            f[name][...] = rows
        f.attrs["complete"], f.attrs["hosts_failed"] = np.int64(0), np.int64(1)
    t.run(["check", hung], 0, ["valid", "complete=0"], forbid=["INVALID"])
    set_attrs(hung, hosts_failed=np.int64(0))
    t.run(["check", hung], 4, ["hosts_failed is 0 but 1 /hosts rows are not ok"])


@case
def check_checkpoint(t):
    split(t.src, t.work, ranks=[1], unfinished=[1])
    t.run(["check", t.path("rank-00001.h5")], 0,
          ["valid", "checkpoint of rank 1 (running)"])
    bad = t.path("rank-00001.h5")
    edit_column(bad, "latency", "rank", 0, 2)
    t.run(["check", bad], 4, ["/latency row 0: rank 2 in the checkpoint of rank 1"])


# ---- merge --------------------------------------------------------------------------------------

def merged_attrs_ok(t, out, missing, unfinished):
    with h5py.File(t.src, "r") as f, h5py.File(out, "r") as m:
        t.expect(m.attrs["ranks_missing"] == missing,
                 f"ranks_missing {m.attrs['ranks_missing']!r}, expected {missing!r}")
        t.expect(m.attrs["ranks_incomplete"] == unfinished,
                 f"ranks_incomplete {m.attrs['ranks_incomplete']!r}, expected {unfinished!r}")
        complete = int(not missing and not unfinished)
        t.expect(int(m.attrs["complete"]) == complete, f"complete {m.attrs['complete']}")
        t.expect("checkpoint_rank" not in m.attrs, "checkpoint_rank copied to the merged file")
        status = m["hosts"]["status"]
        t.expect(int(m.attrs["hosts_ok"]) == int((status == b"ok").sum()), "hosts_ok wrong")
        t.expect(int(m.attrs["hosts_failed"]) == int((status != b"ok").sum()),
                 "hosts_failed wrong")
        for k, v in f.attrs.items():
            if k not in ("complete", "hosts_ok", "hosts_failed"):
                t.expect(k in m.attrs and str(m.attrs[k]) == str(v),
                         f"root attribute {k}: {m.attrs.get(k)!r}, expected {v!r}")


def same_rows(t, out, drop_ranks=()):
    with h5py.File(out, "r") as m:
        for table in m:
            want, got = rows_of(t.src, table, drop_ranks), m[table][()]
            if table == "hosts":  # merge rewrites the status of unfinished ranks
                want, got = rfn.drop_fields(want, ["status", "error"], usemask=False), \
                    rfn.drop_fields(got, ["status", "error"], usemask=False)
            t.expect(want.dtype == got.dtype and want.tobytes() == got.tobytes(),
                     f"/{table}: merged rows differ from the original's "
                     f"({len(got)} rows, expected {len(want)})")


@case
def merge_full(t):
    ckpt = t.path("job.h5.checkpoints")
    split(t.src, ckpt)
    garbage(os.path.join(ckpt, "rank-00001.h5.tmp-4242"))  # a writer killed mid-rewrite
    garbage(os.path.join(ckpt, "README"))
    out = t.path("fleet.h5")
    t.run(["merge", ckpt, "-o", out], 0, ["(complete)"])
    same_rows(t, out)
    merged_attrs_ok(t, out, "", "")
    with h5py.File(out, "r") as m:
        t.expect(m.attrs["merged_from"] == ckpt, "merged_from is not the directory")
    t.run(["check", out], 0, ["valid", f"merged from {ckpt}"])
    t.expect(not [n for n in os.listdir(t.work) if ".tmp-" in n], "temporary file left behind")


@case
def merge_rank_missing(t):
    ckpt = t.path("ckpt")
    split(t.src, ckpt, ranks=[0, 1, 3])
    out = t.path("fleet.h5")
    t.run(["merge", ckpt, "-o", out], 5, ["ranks missing: 2", "(partial)"])
    same_rows(t, out, drop_ranks=[2])
    merged_attrs_ok(t, out, "2", "")
    t.run(["check", out], 0, ["warning: complete=0: /hosts has 3 of 4 ranks (ranks missing: 2)",
                              "valid"])
    set_attrs(out, ranks_missing="2,3")
    t.run(["check", out], 4, ["ranks_missing says '2,3' but /hosts lacks '2'"])


@case
def merge_many_missing(t):
    """A 300-rank job of which 4 checkpoints survive: the lists outgrow any fixed buffer."""
    ckpt = t.path("ckpt")
    split(t.src, ckpt, attrs={r: {"world_size": np.int64(300)} for r in range(4)})
    out = t.path("fleet.h5")
    t.run(["merge", ckpt, "-o", out], 5, ["ranks missing: 4,5,6,"])
    with h5py.File(out, "r") as m:
        want = ",".join(str(r) for r in range(4, 300))
        t.expect(m.attrs["ranks_missing"] == want, f"ranks_missing {m.attrs['ranks_missing']}")
    t.run(["check", out], 0, ["valid", "4 of 300 ranks"])


@case
def merge_rank_unfinished(t):
    ckpt = t.path("ckpt")
    split(t.src, ckpt, unfinished=[3])
    out = t.path("fleet.h5")
    t.run(["merge", ckpt, "-o", out], 5, ["ranks that did not finish: 3"])
    same_rows(t, out)
    merged_attrs_ok(t, out, "", "3")
    with h5py.File(out, "r") as m:
        h = m["hosts"][()]
        t.expect(list(h["status"]) == [b"ok"] * 3 + [b"incomplete"], f"statuses {h['status']}")
        t.expect(b"rank 3 stopped before finishing" in h["error"][3], f"error {h['error'][3]}")
    t.run(["check", out], 0, ["valid", "complete=0"])


def merge_skipping(t, rank, damage, message, options=()):
    """One damaged checkpoint: reported, skipped, the others merged (partial), check passes."""
    ckpt = t.path("ckpt")
    split(t.src, ckpt)
    damage(os.path.join(ckpt, f"rank-{rank:05d}.h5"))
    out = t.path("fleet.h5")
    t.run(["merge", ckpt, "-o", out, *options], 5,
          [f"skipping {ckpt}/rank-{rank:05d}.h5: {message}", f"ranks missing: {rank}"])
    same_rows(t, out, drop_ranks=[rank])
    merged_attrs_ok(t, out, str(rank), "")
    t.run(["check", out], 0, ["valid"])


@case
def merge_unreadable_checkpoint(t):
    merge_skipping(t, 1, garbage, "not an HDF5 file")


@case
def merge_checkpoint_crashes_hdf5(t):
    merge_skipping(t, 2, crash_hdf5, "reading it crashed (signal")


@case
def merge_checkpoint_hangs_hdf5(t):
    merge_skipping(t, 3, hang_hdf5, "reading it did not end within 3 s", ["--timeout=3"])


@case
def merge_nothing_readable(t):
    ckpt = t.path("ckpt")
    os.makedirs(ckpt, exist_ok=True)
    for r in range(2):
        garbage(os.path.join(ckpt, f"rank-{r:05d}.h5"))
    out = t.path("fleet.h5")
    t.run(["merge", ckpt, "-o", out], 1, ["none of the 2 checkpoint(s)"])
    t.expect(not os.path.exists(out), "an output was written from nothing")
    t.expect(os.listdir(t.work) == ["ckpt"], f"files left behind: {os.listdir(t.work)}")


@case
def merge_mixed_jobs(t):
    ckpt = t.path("ckpt")
    split(t.src, ckpt, attrs={2: {"start_utc": "2001-01-01T00:00:00Z"}})
    out = t.path("fleet.h5")
    t.run(["merge", ckpt, "-o", out], 2,
          ["belong to different jobs (start_utc differs", "rank-00002.h5"])
    t.expect(not os.path.exists(out), "an output was written from a mixture")
    split(t.src, ckpt, attrs={3: {"command_line": "numaprobe -o other.h5"}})
    t.run(["merge", ckpt, "-o", out], 2, ["command_line differs"])
    split(t.src, ckpt, attrs={1: {"world_size": np.int64(8)}})
    t.run(["merge", ckpt, "-o", out], 2, ["world_size differs: '4' vs '8'"])
    t.expect(sorted(os.listdir(t.work)) == ["ckpt"], f"left behind: {os.listdir(t.work)}")


@case
def merge_output_checked_first(t):
    ckpt = t.path("ckpt")
    os.makedirs(ckpt, exist_ok=True)
    garbage(os.path.join(ckpt, "rank-00000.h5"))
    # The unreadable checkpoint would be reported if anything were read before the output check.
    t.run(["merge", ckpt, "-o", "/proc/fleet.h5"], 2, ["cannot write results to /proc/fleet.h5"],
          forbid=["skipping"])
    t.run(["merge", ckpt, "-o", t.work], 2, ["it is a directory"], forbid=["skipping"])
    t.run(["merge", t.path("no-such-dir"), "-o", "/nonexistent-dir/f.h5"], 2,
          ["cannot write results to /nonexistent-dir/f.h5"], forbid=["checkpoint directory"])


@case
def merge_usage(t):
    empty = t.path("empty")
    os.makedirs(empty, exist_ok=True)
    out = t.path("fleet.h5")
    t.run(["merge", empty, "-o", out], 2, ["no checkpoints (rank-NNNNN.h5) in"])
    t.run(["merge", t.path("no-such-dir"), "-o", out], 2, ["cannot read checkpoint directory"])
    t.run(["merge", empty], 2, ["no output file given (-o FILE)"])
    t.run(["merge", "-o", out], 2, ["no checkpoint DIR given"])
    t.run(["merge", empty, "-o"], 2, ["option -o needs a value"])
    t.expect(not os.path.exists(out), "an output was written")
    t.expect(sorted(os.listdir(t.work)) == ["empty"], f"left behind: {os.listdir(t.work)}")


# ---- several files, files that are not regular, older and unusual layouts ------------------------

# The columns and tables schema 0.7.0 added (docs/SCHEMA.md "Versioning").
MINOR_7_DROPS = {
    "bandwidth": ["mc_bytes", "mc_bus_ratio"],
    "balancing": ["numa_hint_faults", "numa_pages_migrated"],
}
MINOR_7_TABLES = ["counters"]
OLDER_MINOR_DROPS = {  # the columns schema 0.4.0 added, and those of 0.7.0
    "latency": ["pages_unreported", "cpus", "flags"],
    "bandwidth": ["pages_unreported", "cpus", "flags"] + MINOR_7_DROPS["bandwidth"],
    "loaded_latency": ["pages_unreported", "cpus", "flags"],
    "balancing": ["pages_unreported"] + MINOR_7_DROPS["balancing"],
    "numa_nodes": ["free_bytes"],
}


def drop_columns(path, version, drops, tables):
    """The file as a numaprobe of schema @version wrote it: without @drops and @tables."""
    with h5py.File(path, "r+") as f:
        f.attrs["schema_version"] = version
        for table, columns in drops.items():
            rows = rfn.drop_fields(f[table][()], columns, usemask=False)
            attrs = dict(f[table].attrs)
            del f[table]
            f.create_dataset(table, data=rows, maxshape=(None,), chunks=True)
            # The table's own attributes (0.6.0 on), each per-column list without the columns.
            if "columns" in attrs:
                keep = [i for i, c in enumerate(attrs["columns"]) if str(c) not in columns]
                for name, value in attrs.items():
                    if name in ("columns", "units", "column_descriptions"):
                        value = [value[i] for i in keep]
                    f[table].attrs[name] = value
        for table in tables:
            del f[table]


def older_minor(path):
    """The file as a numaprobe of schema 0.3.0 wrote it: without the columns 0.4.0 added (nor
    what later minors added)."""
    drop_columns(path, "0.3.0", OLDER_MINOR_DROPS, MINOR_7_TABLES)


@case
def check_minor_6(t):
    """A file of schema 0.6.0 has no /counters and lacks 0.7.0's columns: valid; under 0.7.0 the
    same absence is a problem."""
    old = t.copy("v0.6.h5")
    drop_columns(old, "0.6.0", MINOR_7_DROPS, MINOR_7_TABLES)
    t.run(["check", old], 0, ["valid (schema 0.6.0"])
    set_attrs(old, schema_version="0.7.0")
    t.run(["check", old], 4, ["table /counters missing", "/bandwidth: column mc_bytes missing"])


@case
def check_counter_rows(t):
    """/counters rows join a measurement, name a known group and scope, and a rank's row
    (measurement -1) is exactly a not_applicable one."""
    bad = t.copy("counters.h5")
    rows = rows_of(bad, "counters")
    ok = ok_rows(rows)
    t.expect(len(ok) >= 4, f"too few ok counter rows: {len(ok)}")
    edit_column(bad, "counters", "measurement", ok[0], 99999)
    edit_column(bad, "counters", "group", ok[1], b"pmu")
    edit_column(bad, "counters", "scope", ok[2], b"core")
    edit_column(bad, "counters", "measurement", ok[3], -1)
    t.run(["check", bad], 4, [
        f"/counters row {ok[0]}: rank {rows['rank'][ok[0]]} measurement 99999 matches no "
        "measurement",
        f"/counters row {ok[1]}: group 'pmu' is not software, core, uncore or vmstat",
        f"/counters row {ok[2]}: scope 'core' is not thread, socket or system",
        f"/counters row {ok[3]}: measurement -1 with status ok"])


@case
def check_several_files(t):
    """Issue 13 item 19: with several files, an invalid one is never hidden by a missing one."""
    bad = t.copy("negative.h5")
    row = ok_rows(rows_of(bad, "latency"))[0]
    edit_column(bad, "latency", "latency_ns_min", row, -5.0)
    missing = t.path("missing.h5")
    summary = "check: 2 files: 0 valid, 1 invalid, 1 not readable as a file, 0 whose check failed"
    t.run(["check", bad, missing], 4, ["latency_ns_min is -5 in an ok row", "No such file",
                                       summary])
    t.run(["check", missing, bad], 4, [summary])
    t.run(["check", t.src, missing], 2, ["1 valid, 0 invalid, 1 not readable"])
    t.run(["check", t.src, t.src], 0, ["check: 2 files: 2 valid, 0 invalid"])
    t.run(["check", t.src], 0, forbid=["files:"])


@case
def check_not_regular(t):
    """Issue 13 item 20: a FIFO is refused before it is opened (opening it would block)."""
    fifo = t.path("fifo.h5")
    os.mkfifo(fifo)
    t.run(["check", fifo], 2, ["cannot read", "it is a FIFO (named pipe), not a regular file"],
          timeout=20)
    t.run(["check", "/dev/null"], 2, ["it is a character device, not a regular file"])
    loop = t.path("loop.h5")
    os.symlink(loop, loop)
    t.run(["check", loop], 2, ["Too many levels of symbolic links"])


@case
def check_older_minor(t):
    """A file of schema 0.3.0 lacks the columns 0.4.0 added: valid, with a warning."""
    old = t.copy("v0.3.h5")
    older_minor(old)
    t.run(["check", old], 0, ["warning: schema_version 0.3.0 is older", "valid (schema 0.3.0"])
    # Under the newer minor version the same absence is a problem.
    set_attrs(old, schema_version="0.4.0")
    t.run(["check", old], 4, ["/numa_nodes: column free_bytes missing",
                              "/latency: column pages_unreported missing"])


@case
def check_unusual_files(t):
    """HDF5 files that are not numaprobe's, tables with no rows, an extra table, odd text."""
    foreign = t.path("foreign.h5")
    with h5py.File(foreign, "w") as f:
        f["data"] = np.arange(10)
    t.run(["check", foreign], 4, ["root attribute schema missing", "INVALID"])
    empty = t.path("empty.h5")
    with h5py.File(empty, "w"):
        pass
    t.run(["check", empty], 4, ["root attribute schema missing"])
    extra = t.copy("extra-table.h5")
    with h5py.File(extra, "r+") as f:
        f["future_table"] = np.zeros(3, dtype=[("rank", "i4"), ("x", "f8")])
    t.run(["check", extra], 0, ["valid"])
    zero = t.copy("no-sweep-rows.h5")
    with h5py.File(zero, "r+") as f:
        f["cache_levels"].resize((0,))
    t.run(["check", zero], 0, ["valid"])
    utf = t.copy("bad-utf8.h5")
    edit_column(utf, "hosts", "cpu_model", 0, b"Xeon \xff\xfe\xc3(")
    t.run(["check", utf], 0, ["valid"])
    inf = t.copy("inf.h5")
    row = ok_rows(rows_of(inf, "bandwidth"))[0]
    edit_column(inf, "bandwidth", "gbs_best", row, np.inf)
    t.run(["check", inf], 4, [f"/bandwidth row {row}: gbs_best is inf in an ok row"])


@case
def config_not_regular(t):
    """Issue 13 item 20: a FIFO as the config is refused (exit 2) without waiting for a writer."""
    fifo = t.path("config.yaml")
    os.mkfifo(fifo)
    t.run(["-c", fifo, "--dry-run"], 2,
          [f"cannot read config {fifo}: it is a FIFO (named pipe), not a regular file"], timeout=20)
    t.run(["-c", "/dev/zero", "--dry-run"], 2, ["it is a character device, not a regular file"],
          timeout=20)
    t.run(["-c", t.work, "--dry-run"], 2, ["Is a directory"], timeout=20)


def digest(path):
    with open(path, "rb") as f:
        return f.read()


@case
def merge_output_inside_dir(t):
    """Issue 13 item 3: merge never writes into its own checkpoint directory."""
    ckpt = t.path("ckpt")
    split(t.src, ckpt)
    first = os.path.join(ckpt, "rank-00000.h5")
    before = digest(first)
    t.run(["merge", ckpt, "-o", first], 2, ["refusing to write", "inside the checkpoint directory"],
          forbid=["skipping"])
    t.expect(digest(first) == before, "merge overwrote its own input")
    t.run(["merge", ckpt, "-o", os.path.join(ckpt, "merged.h5")], 2,
          ["inside the checkpoint directory"])
    t.run(["merge", ckpt + "/", "-o", os.path.join(ckpt, ".", "..", "ckpt", "m.h5")], 2,
          ["inside the checkpoint directory"])
    link = t.path("link.h5")  # an output that is one of the inputs under another name
    os.symlink(first, link)
    t.run(["merge", ckpt, "-o", link], 2, ["inside the checkpoint directory"])
    t.expect(digest(first) == before, "merge overwrote its own input through a link")
    t.expect(sorted(os.listdir(ckpt)) == [f"rank-{r:05d}.h5" for r in range(4)],
             f"left in the checkpoint directory: {os.listdir(ckpt)}")
    out = t.path("fleet.h5")  # beside the directory, as a job writes it
    t.run(["merge", ckpt, "-o", out], 0, ["(complete)"])


@case
def merge_not_regular(t):
    """Issue 13 item 20 and hostile directories: a FIFO, a symlink loop, a zero-byte file and a
    dangling link among the checkpoints are each skipped with the reason, at once."""
    ckpt = t.path("ckpt")
    split(t.src, ckpt, ranks=[0])
    os.mkfifo(os.path.join(ckpt, "rank-00001.h5"))
    loop = os.path.join(ckpt, "rank-00002.h5")
    os.symlink(loop, loop)
    open(os.path.join(ckpt, "rank-00003.h5"), "wb").close()
    os.symlink(t.path("gone.h5"), os.path.join(ckpt, "rank-00004.h5"))
    out = t.path("fleet.h5")
    t.run(["merge", ckpt, "-o", out], 5,
          [f"skipping {ckpt}/rank-00001.h5: it is a FIFO (named pipe), not a regular file",
           f"skipping {ckpt}/rank-00002.h5: cannot stat it: Too many levels of symbolic links",
           f"skipping {ckpt}/rank-00003.h5: not an HDF5 file",
           f"skipping {ckpt}/rank-00004.h5: cannot stat it: No such file or directory",
           "ranks missing: 1,2,3"], forbid=["HDF5 loops"], timeout=30)
    t.run(["check", out], 0, ["valid"])


@case
def merge_older_minor(t):
    """Checkpoints of schema 0.3.0 merge; the merged file keeps 0.3.0 and is valid."""
    ckpt = t.path("ckpt")
    split(t.src, ckpt)
    for r in range(4):
        older_minor(os.path.join(ckpt, f"rank-{r:05d}.h5"))
    out = t.path("fleet.h5")
    t.run(["merge", ckpt, "-o", out], 0, ["(complete)"])
    t.run(["check", out], 0, ["valid (schema 0.3.0"])
    with h5py.File(out, "r") as m:
        t.expect(m.attrs["schema_version"] == "0.3.0", "schema_version changed by merge")
        free = m["numa_nodes"]["free_bytes"]
        t.expect(len(free) > 0 and int(free.max()) == 0, f"absent free_bytes not 0: {free}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("case", choices=sorted(CASES))
    p.add_argument("--exe", required=True)
    p.add_argument("--src", required=True, help="a results file the binary wrote")
    p.add_argument("--work", required=True, help="a directory for this case (emptied first)")
    args = p.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    t = Test(args)
    CASES[args.case](t)
    for failure in t.failures:
        print("FAIL:", failure)
    print(f"{args.case}: {'ok' if not t.failures else f'{len(t.failures)} failure(s)'}")
    return 1 if t.failures else 0


if __name__ == "__main__":
    sys.exit(main())
