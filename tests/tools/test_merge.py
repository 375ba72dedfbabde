# SPDX-License-Identifier: BSD-3-Clause
"""`numaprobe merge` of per-rank checkpoints split from run.mpi4's file: all of them, some
missing or unfinished, unreadable ones, checkpoints of different jobs, and of an older schema.
Each merged file must hold the source's rows and attributes and pass `numaprobe check`."""

import os

import h5py
import numpy as np
import pytest

from h5inputs import garbage, older_minor, set_attrs, split
from merged import assert_merge_skips, assert_merged_attrs, assert_same_rows

pytestmark = pytest.mark.needs_options("exe", "results_dir")


def test_merge_full(numaprobe, mpi4, work):
    ckpt = os.path.join(work, "job.h5.checkpoints")
    split(mpi4, ckpt)
    garbage(os.path.join(ckpt, "rank-00001.h5.tmp-4242"))  # a writer killed mid-rewrite
    garbage(os.path.join(ckpt, "README"))
    out = os.path.join(work, "fleet.h5")
    numaprobe.run(["merge", ckpt, "-o", out], 0, ["(complete)"])
    assert_same_rows(mpi4, out)
    assert_merged_attrs(mpi4, out, "", "")
    with h5py.File(out, "r") as m:
        assert m.attrs["merged_from"] == ckpt, "merged_from is not the directory"
    numaprobe.run(["check", out], 0, ["valid", f"merged from {ckpt}"])
    assert not [n for n in os.listdir(work) if ".tmp-" in n], "temporary file left behind"


def test_merge_rank_missing(numaprobe, mpi4, work):
    ckpt = os.path.join(work, "ckpt")
    split(mpi4, ckpt, ranks=[0, 1, 3])
    out = os.path.join(work, "fleet.h5")
    numaprobe.run(["merge", ckpt, "-o", out], 5, ["ranks missing: 2", "(partial)"])
    assert_same_rows(mpi4, out, drop_ranks=[2])
    assert_merged_attrs(mpi4, out, "2", "")
    numaprobe.run(["check", out], 0, [
        "warning: complete=0: /hosts has 3 of 4 ranks (ranks missing: 2)", "valid"])
    set_attrs(out, ranks_missing="2,3")
    numaprobe.run(["check", out], 4, ["ranks_missing says '2,3' but /hosts lacks '2'"])


def test_merge_many_missing(numaprobe, mpi4, work):
    """A 300-rank job of which 4 checkpoints survive: the lists outgrow any fixed buffer."""
    ckpt = os.path.join(work, "ckpt")
    split(mpi4, ckpt, attrs={r: {"world_size": np.int64(300)} for r in range(4)})
    out = os.path.join(work, "fleet.h5")
    numaprobe.run(["merge", ckpt, "-o", out], 5, ["ranks missing: 4,5,6,"])
    with h5py.File(out, "r") as m:
        want = ",".join(str(r) for r in range(4, 300))
        assert m.attrs["ranks_missing"] == want, f"ranks_missing {m.attrs['ranks_missing']}"
    numaprobe.run(["check", out], 0, ["valid", "4 of 300 ranks"])


def test_merge_rank_unfinished(numaprobe, mpi4, work):
    ckpt = os.path.join(work, "ckpt")
    split(mpi4, ckpt, unfinished=[3])
    out = os.path.join(work, "fleet.h5")
    numaprobe.run(["merge", ckpt, "-o", out], 5, ["ranks that did not finish: 3"])
    assert_same_rows(mpi4, out)
    assert_merged_attrs(mpi4, out, "", "3")
    with h5py.File(out, "r") as m:
        h = m["hosts"][()]
        assert list(h["status"]) == [b"ok"] * 3 + [b"incomplete"], f"statuses {h['status']}"
        assert b"rank 3 stopped before finishing" in h["error"][3], f"error {h['error'][3]}"
    numaprobe.run(["check", out], 0, ["valid", "complete=0"])


def test_merge_unreadable_checkpoint(numaprobe, mpi4, work):
    assert_merge_skips(numaprobe, mpi4, work, 1, garbage, "not an HDF5 file")


def test_merge_nothing_readable(numaprobe, work):
    ckpt = os.path.join(work, "ckpt")
    os.makedirs(ckpt)
    for r in range(2):
        garbage(os.path.join(ckpt, f"rank-{r:05d}.h5"))
    out = os.path.join(work, "fleet.h5")
    numaprobe.run(["merge", ckpt, "-o", out], 1, ["none of the 2 checkpoint(s)"])
    assert not os.path.exists(out), "an output was written from nothing"
    assert os.listdir(work) == ["ckpt"], f"files left behind: {os.listdir(work)}"


def test_merge_mixed_jobs(numaprobe, mpi4, work):
    ckpt = os.path.join(work, "ckpt")
    split(mpi4, ckpt, attrs={2: {"start_utc": "2001-01-01T00:00:00Z"}})
    out = os.path.join(work, "fleet.h5")
    numaprobe.run(["merge", ckpt, "-o", out], 2,
                  ["belong to different jobs (start_utc differs", "rank-00002.h5"])
    assert not os.path.exists(out), "an output was written from a mixture"
    split(mpi4, ckpt, attrs={3: {"command_line": "numaprobe -o other.h5"}})
    numaprobe.run(["merge", ckpt, "-o", out], 2, ["command_line differs"])
    split(mpi4, ckpt, attrs={1: {"world_size": np.int64(8)}})
    numaprobe.run(["merge", ckpt, "-o", out], 2, ["world_size differs: '4' vs '8'"])
    assert sorted(os.listdir(work)) == ["ckpt"], f"left behind: {os.listdir(work)}"


def test_merge_older_minor(numaprobe, contract, mpi4, work):
    """Checkpoints of schema 0.3.0 merge; the merged file keeps 0.3.0 and is valid."""
    ckpt = os.path.join(work, "ckpt")
    split(mpi4, ckpt)
    for r in range(4):
        older_minor(os.path.join(ckpt, f"rank-{r:05d}.h5"), contract)
    out = os.path.join(work, "fleet.h5")
    numaprobe.run(["merge", ckpt, "-o", out], 0, ["(complete)"])
    numaprobe.run(["check", out], 0, ["valid (schema 0.3.0"])
    with h5py.File(out, "r") as m:
        assert m.attrs["schema_version"] == "0.3.0", "schema_version changed by merge"
        free = m["numa_nodes"]["free_bytes"]
        assert len(free) > 0 and int(free.max()) == 0, f"absent free_bytes not 0: {free}"
        # A column the contract gives another meaning in an older file: one pass, unknown
        # uncertainty (the descriptor row's absent value, not a zero).
        passes, spread = m["latency"]["passes"], m["latency"]["uncertainty_pct"]
        assert len(passes) > 0 and set(passes.tolist()) == {1}, f"absent passes not 1: {passes}"
        assert np.isnan(spread).all(), f"absent uncertainty_pct not NaN: {spread}"
