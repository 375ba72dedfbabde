# SPDX-License-Identifier: BSD-3-Clause
"""Every table of every kind of results file is a table of the HDF5 Table specification, as
PyTables and `ptdump` open it (docs/SCHEMA.md "Table attributes", schema 0.11.0): a job's file
(run.singleton, run.mpi4), a rank's checkpoint left by a killed job, and what `numaprobe merge`
rebuilt from checkpoints. PyTables opens a compound dataset as a Table even without the
specification's attributes, by guessing: so each table must also be known by its CLASS, carry the
attributes as H5TBmake_table writes them, and read back through PyTables as h5py reads it.
PyTables and its `ptdump` are Debian's python3-tables (tests/deps/analysis.txt): without it the
module is skipped, except under CI=true, where it fails."""

import os
import subprocess

import h5py
import numpy as np
import pytest

from h5inputs import split

try:
    import tables
except ImportError:
    if os.environ.get("CI") == "true":
        raise
    pytest.skip("PyTables is not installed (Debian python3-tables)", allow_module_level=True)

pytestmark = pytest.mark.needs_options("exe", "results_dir")

TINY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "configs", "tiny.yaml")


def spec_attr(ds, name):
    """Attribute @name of @ds as H5TBmake_table writes it (H5LTset_attribute_string): a scalar,
    fixed-length, NUL-terminated ASCII string as long as its text and its NUL. Its text, or a
    sentence saying how it differs."""
    if name not in ds.attrs:
        return f"attribute {name} missing"
    attr = h5py.h5a.open(ds.id, name.encode())
    t = attr.get_type()
    if attr.shape != () or t.get_class() != h5py.h5t.STRING or t.is_variable_str():
        return f"attribute {name} is not a fixed-length scalar string"
    value = ds.attrs[name].decode("ascii")
    if (t.get_strpad(), t.get_cset(), t.get_size()) != (h5py.h5t.STR_NULLTERM,
                                                        h5py.h5t.CSET_ASCII, len(value) + 1):
        return f"attribute {name} is not a NUL-terminated ASCII string of {len(value) + 1} bytes"
    return value


def assert_tables(path):
    """Every dataset of @path: the specification's attributes on it, PyTables' Table by its CLASS,
    its rows and field names as h5py reads them, and `ptdump -v` listing it with its title."""
    wrong = []
    with h5py.File(path, "r") as f:
        names = sorted(f)
        for name in names:
            ds = f[name]
            want = {"CLASS": "TABLE", "VERSION": "3.0", "TITLE": ds.attrs["description"]}
            wrong += [f"/{name}: {spec_attr(ds, k)}, expected {v!r}" for k, v in want.items()
                      if spec_attr(ds, k) != v]
            fields = [(spec_attr(ds, f"FIELD_{i}_NAME"), n) for i, n in enumerate(ds.dtype.names)]
            fields = [f"{got}, expected {n!r}" for got, n in fields if got != n]
            if fields:  # one line a table
                wrong.append(f"/{name}: {len(fields)} of {len(ds.dtype.names)} FIELD_<n>_NAME "
                             f"wrong, the first: {fields[0]}")
        rows = {name: f[name][()] for name in names}
    assert names, f"{path} holds no table"
    with tables.open_file(path, "r") as t:
        for name in names:
            node = t.get_node("/", name)
            if not isinstance(node, tables.Table):
                wrong.append(f"/{name}: PyTables opens it as {type(node).__name__}")
                continue
            cls = getattr(node._v_attrs, "CLASS", None)  # None: PyTables guessed from the type
            if cls != "TABLE":
                wrong.append(f"/{name}: PyTables reads CLASS {cls!r}, not 'TABLE'")
            got, h5 = node.read(), rows[name]
            if node.colnames != list(h5.dtype.names) or node.nrows != len(h5) or \
                    got.tobytes() != h5.tobytes():
                wrong.append(f"/{name}: PyTables reads {node.nrows} rows of {node.colnames}, "
                             f"h5py {len(h5)} of {list(h5.dtype.names)}")
    dump = subprocess.run(["ptdump", "-v", path], capture_output=True, text=True, check=False)
    assert dump.returncode == 0, f"ptdump -v {path}: exit {dump.returncode}\n{dump.stderr}"
    with h5py.File(path, "r") as f:
        for n in names:
            line = next((x for x in dump.stdout.splitlines() if x.startswith(f"/{n} (")), "")
            if not line.startswith(f"/{n} (Table({len(rows[n])},)"):
                wrong.append(f"ptdump -v lists /{n} as {line!r}, not as a Table")
            elif not line.endswith(" " + repr(f[n].attrs["description"])):
                wrong.append(f"ptdump -v lists /{n} without its title: {line!r}")
    assert not wrong, f"{path}:\n" + "\n".join(wrong)


@pytest.mark.parametrize("which", ["singleton.h5", "mpi4.h5"])
def test_job_file(pytestconfig, which):
    assert_tables(os.path.join(pytestconfig.getoption("results_dir"), which))


def test_checkpoint_and_its_merge(numaprobe, work):
    """A job killed as it writes its file leaves its checkpoint (the writer's other path), and
    merge rebuilds the file from it."""
    out = os.path.join(work, "r.h5")
    env = dict(os.environ, NUMAPROBE_FAULT="kill_writer")
    p = subprocess.run([numaprobe.exe, "-c", TINY, "--quiet", "-o", out], env=env,
                       capture_output=True, text=True, check=False, timeout=240)
    assert p.returncode in (137, -9), f"the killed job exited {p.returncode}\n{p.stderr}"
    checkpoint = os.path.join(work, "r.h5.checkpoints", "rank-00000.h5")
    assert os.path.isfile(checkpoint), "the killed job kept no checkpoint"
    assert_tables(checkpoint)
    merged = os.path.join(work, "merged.h5")
    numaprobe.run(["merge", os.path.dirname(checkpoint), "-o", merged], 0, ["(complete)"])
    assert_tables(merged)


def test_merge_of_four_ranks(numaprobe, mpi4, work):
    ckpt = os.path.join(work, "ckpt")
    split(mpi4, ckpt)
    out = os.path.join(work, "fleet.h5")
    numaprobe.run(["merge", ckpt, "-o", out], 0, ["(complete)"])
    assert_tables(out)


def test_check_wants_the_attributes(numaprobe, singleton, work):
    """check holds a file of this minor to them: one whose FIELD_<n>_NAME lies, or whose CLASS is
    another's, is refused (so a writer that stopped writing them would fail run.*'s checks too)."""
    path = os.path.join(work, "edited.h5")
    with open(singleton, "rb") as src, open(path, "wb") as dst:
        dst.write(src.read())
    with h5py.File(path, "r+") as f:
        f["latency"].attrs["FIELD_1_NAME"] = np.bytes_("nonsense")
        f["hosts"].attrs["CLASS"] = np.bytes_("ARRAY")
    numaprobe.run(["check", path], 4, [
        "/latency: attribute FIELD_1_NAME names 'nonsense', the table's column 1 is measurement",
        "/hosts: attribute CLASS is 'ARRAY', the HDF5 table specification's is 'TABLE'"])
