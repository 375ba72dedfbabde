# SPDX-License-Identifier: BSD-3-Clause
"""The tables the report reads chunk by chunk, inflated itself (chunks.py), are what h5py reads:
every table of the binary's files, each block size, by libdeflate and by zlib; older files'
shuffled chunks; tables of other filters left to h5py; a damaged chunk fails as h5py's read
does."""

import h5py
import numpy as np
import pytest

from numaprobe_analysis import chunks, stream

INFLATERS = ["libdeflate", "zlib"]


@pytest.fixture(params=INFLATERS)
def inflater(request, monkeypatch):
    if request.param == "zlib":
        monkeypatch.setattr(chunks, "_LIBDEFLATE", None)
    elif chunks.inflater() != "libdeflate":
        pytest.skip("libdeflate is not installed (libdeflate0)")
    return request.param


def read_in_blocks(dataset, fields, block_rows):
    source = chunks.blocks(dataset, fields, block_rows)
    assert source is not None, dataset.name
    parts = [rows.copy() for _first, rows, _last in source]
    return np.concatenate(parts) if parts else np.empty(0)


def assert_same_rows(dataset, block_rows):
    fields = list(dataset.dtype.names)
    got = read_in_blocks(dataset, fields, block_rows)
    want = dataset[()]
    assert len(got) == len(want), dataset.name
    for f in fields:
        assert got[f].tobytes() == want[f].tobytes(), (dataset.name, f)


@pytest.mark.parametrize("block_rows", [1, 1000, 1 << 16])
def test_binary_files_read_as_h5py_reads_them(written, inflater, block_rows):
    with h5py.File(written, "r") as f:
        tables = [f[n] for n in f if isinstance(f[n], h5py.Dataset) and f[n].dtype.names]
        assert tables
        for dataset in tables:
            assert chunks.blocks(dataset, list(dataset.dtype.names), 1) is not None, \
                f"{dataset.name}: the writer's layout is no longer what chunks.py reads"
            assert_same_rows(dataset, block_rows)


def copy_table(written, path, table, **layout):
    with h5py.File(written, "r") as f:
        rows = f[table][()]
    with h5py.File(path, "w") as out:
        out.create_dataset(table, data=rows, maxshape=(None,), **layout)
    return rows


def test_shuffled_chunks_of_older_files(written, tmp_path, inflater):
    path = tmp_path / "shuffled.h5"
    copy_table(written, path, "latency", chunks=(87,), shuffle=True, compression="gzip",
               compression_opts=1)
    with h5py.File(path, "r") as f:
        assert_same_rows(f["latency"], 100)


def test_other_filters_are_left_to_h5py(written, tmp_path):
    path = tmp_path / "fletcher.h5"
    copy_table(written, path, "latency", chunks=(87,), compression="gzip", fletcher32=True)
    with h5py.File(path, "r") as f:
        assert chunks.blocks(f["latency"], ["rank"], 100) is None
    path = tmp_path / "contiguous.h5"
    with h5py.File(written, "r") as f:
        rows = f["latency"][()]
    with h5py.File(path, "w") as out:
        out.create_dataset("latency", data=rows)
    with h5py.File(path, "r") as f:
        assert chunks.blocks(f["latency"], ["rank"], 100) is None


def test_stream_reads_the_same_either_way(written, monkeypatch):
    fast = stream.read_reduced(written)
    monkeypatch.setattr(chunks, "blocks", lambda *_args: None)
    slow = stream.read_reduced(written)
    assert fast.tables.keys() == slow.tables.keys()
    for name in fast.tables:
        assert fast.tables[name].equals(slow.tables[name]), name


def test_damaged_chunk_fails_as_h5py_does(written, tmp_path, inflater):
    path = tmp_path / "damaged.h5"
    rows = copy_table(written, path, "latency", chunks=(5,),
                      compression="gzip", compression_opts=1)
    assert len(rows) > 5
    with h5py.File(path, "r+") as f:
        mask, data = f["latency"].id.read_direct_chunk((0,))
        data = bytearray(data)
        data[len(data) // 2] ^= 0xFF
        data[len(data) // 2 + 1] ^= 0xFF
        f["latency"].id.write_direct_chunk((0,), bytes(data), mask)
    with h5py.File(path, "r") as f:
        with pytest.raises(OSError):
            f["latency"][()]
        with pytest.raises(OSError):
            read_in_blocks(f["latency"], ["rank"], 100)
