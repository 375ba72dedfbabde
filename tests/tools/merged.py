# SPDX-License-Identifier: BSD-3-Clause
"""What every test of `numaprobe merge` asks of the file merge wrote: the source's rows and
root attributes back, with the counts and lists merge computes right."""

import os

import h5py
import numpy.lib.recfunctions as rfn

from h5inputs import rows_of, split


def assert_merged_attrs(src, out, missing, unfinished):
    """Root attributes: the job's, with ranks_missing, ranks_incomplete, complete and the hosts'
    counts as merge finds them, and no checkpoint attribute left over."""
    with h5py.File(src, "r") as f, h5py.File(out, "r") as m:
        assert m.attrs["ranks_missing"] == missing, \
            f"ranks_missing {m.attrs['ranks_missing']!r}, expected {missing!r}"
        assert m.attrs["ranks_incomplete"] == unfinished, \
            f"ranks_incomplete {m.attrs['ranks_incomplete']!r}, expected {unfinished!r}"
        complete = int(not missing and not unfinished)
        assert int(m.attrs["complete"]) == complete, f"complete {m.attrs['complete']}"
        assert "checkpoint_rank" not in m.attrs, "checkpoint_rank copied to the merged file"
        status = m["hosts"]["status"]
        assert int(m.attrs["hosts_ok"]) == int((status == b"ok").sum()), "hosts_ok wrong"
        assert int(m.attrs["hosts_failed"]) == int((status != b"ok").sum()), "hosts_failed wrong"
        wrong = [f"root attribute {k}: {m.attrs.get(k)!r}, expected {v!r}"
                 for k, v in f.attrs.items()
                 if k not in ("complete", "hosts_ok", "hosts_failed")
                 and not (k in m.attrs and str(m.attrs[k]) == str(v))]
        assert not wrong, "\n".join(wrong)


def assert_same_rows(src, out, drop_ranks=()):
    """Every table of the merged file holds the source's rows of the ranks merged, byte for
    byte (but /hosts' status and error, which merge rewrites for unfinished ranks)."""
    wrong = []
    with h5py.File(out, "r") as m:
        for table in m:
            want, got = rows_of(src, table, drop_ranks), m[table][()]
            if table == "hosts":
                want = rfn.drop_fields(want, ["status", "error"], usemask=False)
                got = rfn.drop_fields(got, ["status", "error"], usemask=False)
            if not (want.dtype == got.dtype and want.tobytes() == got.tobytes()):
                wrong.append(f"/{table}: merged rows differ from the original's "
                             f"({len(got)} rows, expected {len(want)})")
    assert not wrong, "\n".join(wrong)


def assert_merge_skips(numaprobe, src, work, rank, damage, message, options=()):
    """One damaged checkpoint: reported, skipped, the others merged (partial), check passes."""
    ckpt = os.path.join(work, "ckpt")
    split(src, ckpt)
    damage(os.path.join(ckpt, f"rank-{rank:05d}.h5"))
    out = os.path.join(work, "fleet.h5")
    numaprobe.run(["merge", ckpt, "-o", out, *options], 5,
                  [f"skipping {ckpt}/rank-{rank:05d}.h5: {message}", f"ranks missing: {rank}"])
    assert_same_rows(src, out, drop_ranks=[rank])
    assert_merged_attrs(src, out, str(rank), "")
    numaprobe.run(["check", out], 0, ["valid"])
