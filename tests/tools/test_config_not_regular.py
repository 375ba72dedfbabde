# SPDX-License-Identifier: BSD-3-Clause
"""A config path that is not a regular file is refused (exit 2) without waiting for a writer.

A module of its own: numaprobe itself runs here, and starts MPI, whose own leaks the sanitizers
must not count (tests/tools.cmake gives it the environment of whole runs)."""

import os

import pytest

pytestmark = pytest.mark.needs_options("exe")


def test_config_not_regular(numaprobe, work):
    fifo = os.path.join(work, "config.yaml")
    os.mkfifo(fifo)
    numaprobe.run(["-c", fifo, "--dry-run"], 2,
                  [f"cannot read config {fifo}: it is a FIFO (named pipe), not a regular file"],
                  timeout=20)
    numaprobe.run(["-c", "/dev/zero", "--dry-run"], 2,
                  ["it is a character device, not a regular file"], timeout=20)
    numaprobe.run(["-c", work, "--dry-run"], 2, ["Is a directory"], timeout=20)
