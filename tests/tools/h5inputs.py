# SPDX-License-Identifier: BSD-3-Clause
"""Inputs for the tests of `numaprobe check` and `numaprobe merge`, made with h5py from a file
the binary wrote: edited and corrupted copies, per-rank checkpoints split from it, files as an
older minor version of the schema wrote them (what each minor added is the binary's contract,
`numaprobe --schema`: the `contract` fixture of tests/conftest.py)."""

import os
import shutil
import struct

import h5py
import numpy as np
import numpy.lib.recfunctions as rfn


def copy(src, workdir, name):
    dst = os.path.join(workdir, name)
    shutil.copyfile(src, dst)
    return dst


def ok_rows(rows):
    return np.flatnonzero(rows["status"] == b"ok")


def rows_of(path, table, drop_ranks=()):
    with h5py.File(path, "r") as f:
        rows = f[table][()]
    return rows[~np.isin(rows["rank"], list(drop_ranks))]


def edit_column(path, table, column, row, value):
    with h5py.File(path, "r+") as f:
        rows = f[table][()]
        rows[column][row] = value
        f[table][...] = rows


def set_attrs(path, **attrs):
    """Root attributes set, or deleted where the value is None."""
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


def keep_rows(path, table, rows):
    """The table cut down to @rows, in place (its type and attributes kept)."""
    with h5py.File(path, "r+") as f:
        f[table].resize((len(rows),))
        f[table][...] = rows


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
        # A measurement a later minor's table holds was never made by the older numaprobe: the
        # rows that describe it go with it.
        describing = ("placement", "numastat", "counters")
        gone = set()
        for table in tables:
            rows = f[table][()]
            if table not in describing and "measurement" in (rows.dtype.names or ()):
                gone.update(zip(rows["rank"].tolist(), rows["measurement"].tolist()))
            del f[table]
        for table in describing:
            if not gone or table not in f:
                continue
            rows = f[table][()]
            keep = np.array([(int(r), int(m)) not in gone
                             for r, m in zip(rows["rank"], rows["measurement"])], dtype=bool)
            attrs = dict(f[table].attrs)
            del f[table]
            f.create_dataset(table, data=rows[keep], maxshape=(None,), chunks=True)
            for name, value in attrs.items():
                f[table].attrs[name] = value


def version_key(text):
    """A schema version "MAJOR.MINOR.PATCH" as a tuple of ints, to compare."""
    return tuple(int(part) for part in text.split("."))


def added_after(contract, older):
    """What a file of schema @p older lacks, by @p contract (`numaprobe --schema`, the
    `contract` fixture): {table: [columns a later minor added]} and [tables a later minor added]."""
    def later(item):
        return version_key(item["since"]) > version_key(older)
    drops = {t["name"]: [c["name"] for c in t["columns"] if later(c)]
             for t in contract["tables"] if not later(t)}
    return ({t: columns for t, columns in drops.items() if columns},
            [t["name"] for t in contract["tables"] if later(t)])


def as_minor(path, contract, older):
    """The file as a numaprobe of schema @p older wrote it: without what later minors added."""
    drop_columns(path, older, *added_after(contract, older))


def older_minor(path, contract):
    """The file as a numaprobe of schema 0.3.0 wrote it: without the columns 0.4.0 added (nor
    what later minors added)."""
    as_minor(path, contract, "0.3.0")


def content(path):
    with open(path, "rb") as f:
        return f.read()
