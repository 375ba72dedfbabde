# SPDX-License-Identifier: BSD-3-Clause
"""The file explains itself: every table the binary writes carries
`description`, `columns`, `units` and `column_descriptions` attributes from the contract
(`numaprobe --schema`), h5py and the loader read them as str, and `numaprobe check` refuses a
file of schema 0.6.0 or later whose table lacks them, while an older file need not have them."""

import shutil
import subprocess

import h5py
import pytest

from numaprobe_analysis.contract import contract as binary_contract
from numaprobe_analysis.load import read
from numaprobe_analysis.validate import find_numaprobe

NUMAPROBE = find_numaprobe()[0]
pytestmark = pytest.mark.skipif(NUMAPROBE is None, reason="numaprobe binary not built")


def check(path):
    return subprocess.run([NUMAPROBE, "check", str(path)], capture_output=True, text=True,
                          errors="replace", check=False, timeout=120)


def test_every_table_carries_its_description_and_units(written):
    contract = binary_contract()
    with h5py.File(written, "r") as f:
        version = f.attrs["schema_version"]
        assert isinstance(version, str)
        for table in contract["tables"]:
            a = f[table["name"]].attrs
            assert isinstance(a["description"], str) and a["description"] == table["description"]
            columns = [str(c) for c in a["columns"]]
            assert columns == list(f[table["name"]].dtype.names)
            assert len(a["units"]) == len(a["column_descriptions"]) == len(columns)
            assert all(isinstance(u, str) for u in a["units"])
            documented = {c["name"]: c for c in table["columns"]}
            for name, unit, text in zip(columns, a["units"], a["column_descriptions"]):
                assert unit == (documented[name]["unit"] or ""), (table["name"], name)
                assert text == documented[name]["description"], (table["name"], name)
    assert version == contract["schema_version"]


def test_loader_decodes_text_and_keeps_the_units(written):
    res = read(written)
    assert res.meta["bandwidth"]["columns"]["gbs_best"]["unit"] == "GB/s"
    assert res.meta["latency"]["columns"]["latency_ns_median"]["unit"] == "ns"
    assert isinstance(res.meta["hosts"]["description"], str) and res.meta["hosts"]["description"]
    for name, frame in res.tables.items():
        for column in frame.columns:
            if frame[column].dtype == object and len(frame):
                assert not any(isinstance(x, bytes) for x in frame[column]), (name, column)
    assert all(isinstance(v, (str, int)) or hasattr(v, "dtype") for v in res.attrs.values())
    assert isinstance(res.attrs["schema_version"], str)


def test_check_refuses_a_table_without_its_attributes(written, tmp_path):
    fresh = check(written)
    assert fresh.returncode == 0, fresh.stdout
    bare = tmp_path / "bare.h5"
    shutil.copy(written, bare)
    with h5py.File(bare, "r+") as f:
        del f["latency"].attrs["units"]
        del f["bandwidth"].attrs["description"]
        f["hosts"].attrs["units"] = ["?"] * len(f["hosts"].dtype.names)
    proc = check(bare)
    assert proc.returncode == 4, proc.stdout
    assert "/latency: attribute units missing" in proc.stdout
    assert "/bandwidth: attribute description missing" in proc.stdout
    assert "/hosts: column rank has unit '?' in attribute units, the contract says ''" in proc.stdout
    # A file of an older minor (0.5.0) had no table attributes: accepted without them.
    with h5py.File(bare, "r+") as f:
        f.attrs["schema_version"] = "0.5.0"
    older = check(bare)
    assert older.returncode == 0, older.stdout
    assert read(str(bare)).meta["latency"]["columns"]["rank"]["unit"] == ""
