# SPDX-License-Identifier: BSD-3-Clause
"""`numaprobe merge` and the paths it is given: its usage, an output refused before anything is
read, an output inside its own checkpoint directory, and checkpoints that are not regular
files."""

import os

import pytest

from h5inputs import content, garbage, split

pytestmark = pytest.mark.needs_options("exe", "results_dir")


def test_merge_output_checked_first(numaprobe, work):
    ckpt = os.path.join(work, "ckpt")
    os.makedirs(ckpt)
    garbage(os.path.join(ckpt, "rank-00000.h5"))
    # The unreadable checkpoint would be reported if anything were read before the output check.
    numaprobe.run(["merge", ckpt, "-o", "/proc/fleet.h5"], 2,
                  ["cannot write results to /proc/fleet.h5"], forbid=["skipping"])
    numaprobe.run(["merge", ckpt, "-o", work], 2, ["it is a directory"], forbid=["skipping"])
    numaprobe.run(["merge", os.path.join(work, "no-such-dir"), "-o", "/nonexistent-dir/f.h5"], 2,
                  ["cannot write results to /nonexistent-dir/f.h5"],
                  forbid=["checkpoint directory"])


def test_merge_usage(numaprobe, work):
    empty = os.path.join(work, "empty")
    os.makedirs(empty)
    out = os.path.join(work, "fleet.h5")
    numaprobe.run(["merge", empty, "-o", out], 2, ["no checkpoints (rank-NNNNN.h5) in"])
    numaprobe.run(["merge", os.path.join(work, "no-such-dir"), "-o", out], 2,
                  ["cannot read checkpoint directory"])
    numaprobe.run(["merge", empty], 2, ["no output file given (-o FILE)"])
    numaprobe.run(["merge", "-o", out], 2, ["no checkpoint DIR given"])
    numaprobe.run(["merge", empty, "-o"], 2, ["option -o needs a value"])
    assert not os.path.exists(out), "an output was written"
    assert sorted(os.listdir(work)) == ["empty"], f"left behind: {os.listdir(work)}"


def test_merge_output_inside_dir(numaprobe, mpi4, work):
    """Merge never writes into its own checkpoint directory."""
    ckpt = os.path.join(work, "ckpt")
    split(mpi4, ckpt)
    first = os.path.join(ckpt, "rank-00000.h5")
    before = content(first)
    numaprobe.run(["merge", ckpt, "-o", first], 2,
                  ["refusing to write", "inside the checkpoint directory"], forbid=["skipping"])
    assert content(first) == before, "merge overwrote its own input"
    numaprobe.run(["merge", ckpt, "-o", os.path.join(ckpt, "merged.h5")], 2,
                  ["inside the checkpoint directory"])
    numaprobe.run(["merge", ckpt + "/", "-o", os.path.join(ckpt, ".", "..", "ckpt", "m.h5")], 2,
                  ["inside the checkpoint directory"])
    link = os.path.join(work, "link.h5")  # an output that is one of the inputs under another name
    os.symlink(first, link)
    numaprobe.run(["merge", ckpt, "-o", link], 2, ["inside the checkpoint directory"])
    assert content(first) == before, "merge overwrote its own input through a link"
    assert sorted(os.listdir(ckpt)) == [f"rank-{r:05d}.h5" for r in range(4)], \
        f"left in the checkpoint directory: {os.listdir(ckpt)}"
    out = os.path.join(work, "fleet.h5")  # beside the directory, as a job writes it
    numaprobe.run(["merge", ckpt, "-o", out], 0, ["(complete)"])


def test_merge_not_regular(numaprobe, mpi4, work):
    """A FIFO, a symlink loop, a zero-byte file and a dangling link among the checkpoints are
    each skipped with the reason, at once (opening the FIFO would block)."""
    ckpt = os.path.join(work, "ckpt")
    split(mpi4, ckpt, ranks=[0])
    os.mkfifo(os.path.join(ckpt, "rank-00001.h5"))
    loop = os.path.join(ckpt, "rank-00002.h5")
    os.symlink(loop, loop)
    open(os.path.join(ckpt, "rank-00003.h5"), "wb").close()
    os.symlink(os.path.join(work, "gone.h5"), os.path.join(ckpt, "rank-00004.h5"))
    out = os.path.join(work, "fleet.h5")
    numaprobe.run(["merge", ckpt, "-o", out], 5, [
        f"skipping {ckpt}/rank-00001.h5: it is a FIFO (named pipe), not a regular file",
        f"skipping {ckpt}/rank-00002.h5: cannot stat it: Too many levels of symbolic links",
        f"skipping {ckpt}/rank-00003.h5: not an HDF5 file",
        f"skipping {ckpt}/rank-00004.h5: cannot stat it: No such file or directory",
        "ranks missing: 1,2,3"], forbid=["HDF5 loops"], timeout=30)
    numaprobe.run(["check", out], 0, ["valid"])
