# SPDX-License-Identifier: BSD-3-Clause
"""`numaprobe merge` with a checkpoint whose damage crashes HDF5 or makes it loop: merge reads
each checkpoint in a child process, skips that one, says why, and merges the others.

tests/tools.cmake runs this module with the sanitizers set for damaged files, as
test_check_damaged.py."""

import pytest

from h5inputs import crash_hdf5, hang_hdf5
from merged import assert_merge_skips

pytestmark = pytest.mark.needs_options("exe", "results_dir")


def test_merge_checkpoint_crashes_hdf5(numaprobe, mpi4, work):
    assert_merge_skips(numaprobe, mpi4, work, 2, crash_hdf5, "reading it crashed (signal")


def test_merge_checkpoint_hangs_hdf5(numaprobe, mpi4, work):
    assert_merge_skips(numaprobe, mpi4, work, 3, hang_hdf5, "reading it did not end within 3 s",
                       ["--timeout=3"])
