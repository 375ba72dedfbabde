# SPDX-License-Identifier: BSD-3-Clause
"""`pass_values`, each pass's headline, read whichever way a file stores it: files of schema
0.17.0 and later as a float64 array column padded with NaN beyond `passes`, older ones as
space-separated text. The loader turns an array column into one value a row (a frame's column
cannot hold an array a row), and noise.pass_values gives the same numbers from either form."""

import h5py
import numpy as np
import pandas as pd
import pytest

import fleet_edits
import synthetic_fleet
from numaprobe_analysis import load
from numaprobe_analysis.noise import pass_values

PASSES = [(46.7415, 44.7098, 31.2668), (145.3, 147.5), ()]
WIDTH = 5  # the array's fixed length; the rows above use 3, 2 and none of it


def with_passes(path, as_array):
    """@p path's /latency with its first rows' pass_values set to PASSES: as text, or (with
    @p as_array) as a float64 array column of WIDTH, NaN-padded."""
    def change(rows):
        kind = (np.float64, (WIDTH,)) if as_array else "S48"
        fields = [(n, kind if n == "pass_values" else rows.dtype[n]) for n in rows.dtype.names]
        out = np.zeros(len(rows), dtype=fields)
        for n in rows.dtype.names:
            if n != "pass_values":
                out[n] = rows[n]
        if as_array:
            out["pass_values"] = np.nan
        for i, values in enumerate(PASSES):
            if as_array:
                out["pass_values"][i, :len(values)] = values
            else:
                out["pass_values"][i] = " ".join(f"{x:g}" for x in values).encode()
        return out
    fleet_edits.edit(path, "latency", change)
    return path


def test_text_and_array_give_the_same_numbers(tmp_path):
    for name in ("text.h5", "array.h5"):
        synthetic_fleet.write_fleet(str(tmp_path / name), 4, seed=5)
    text = with_passes(tmp_path / "text.h5", False)
    array = with_passes(tmp_path / "array.h5", True)
    with h5py.File(array, "r") as f:
        assert f["latency"].dtype["pass_values"].subdtype == (np.dtype("f8"), (WIDTH,))
        # What the contract promises readers, and why the loader must split the column.
        try:
            pd.DataFrame(f["latency"][()])
            plain_frame_fails = False
        except ValueError:
            plain_frame_fails = True
        assert plain_frame_fails
    for path in (text, array):
        lat = load.read(str(path))["latency"]
        assert len(lat) > len(PASSES)
        got = pass_values(lat)
        assert [tuple(v) for v in got.iloc[:3]] == [pytest.approx(v, rel=1e-5) for v in PASSES], \
            (path, got.head())
        assert all(v == () for v in got.iloc[3:]), path
        # The rest of the frame is as ever: every other column one value a row.
        assert lat.latency_ns_median.dtype == np.float64


def test_array_column_costs_a_pointer_a_row(tmp_path):
    """Rows without passes share one None: a fleet's /latency is millions of rows."""
    synthetic_fleet.write_fleet(str(tmp_path / "a.h5"), 4, seed=6)
    lat = load.read(str(with_passes(tmp_path / "a.h5", True)))["latency"]
    assert lat.pass_values.dtype == object
    assert all(v is None for v in lat.pass_values.iloc[len(PASSES) - 1:])


def test_damaged_text_gives_no_passes():
    rows = pd.DataFrame({"pass_values": ["1.5 2.5", "1.5 x", "", None, np.nan]})
    assert list(pass_values(rows)) == [(1.5, 2.5), (), (), (), ()]
    assert list(pass_values(pd.DataFrame({"x": [1]}))) == [()]
