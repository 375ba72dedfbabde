# SPDX-License-Identifier: BSD-3-Clause
"""`numaprobe check` on damaged files: a byte flipped anywhere, damage that crashes HDF5 and
damage that makes it loop. Check reads each file in a child process, so a crash or a loop is a
verdict on the file, never check's own end.

tests/tools.cmake runs this module with the sanitizers set for damaged files: HDF5's own error
paths leak, and its crashes must end the child by a signal as they would unsanitized."""

import os
import re
import subprocess

import pytest

from h5inputs import crash_hdf5, hang_hdf5, split

pytestmark = pytest.mark.needs_options("exe", "results_dir")


def sanitizer_culprit(out):
    """The first stack frame of a sanitizer's report that is not the sanitizer's own, or None
    without a report. UBSan reports name numaprobe's own source line (HDF5 is not built with
    it); ASan's may name libhdf5, whose own memory errors on a damaged file are HDF5's."""
    if "runtime error" in out:
        return "numaprobe (UBSan)"
    if "Sanitizer" not in out:
        return None
    for line in out.splitlines():
        line = line.strip()
        if re.match(r"#\d+ ", line) and not any(
                own in line for own in ("libsanitizer", "__interceptor_", "__asan")):
            return line
    return "unknown"


def test_sanitizer_culprit():
    """The sweep below passes a sanitizer report only when this names libhdf5 in it."""
    assert sanitizer_culprit("check: x.h5: valid") is None
    assert sanitizer_culprit("x.c:3:5: runtime error: signed integer overflow") == \
        "numaprobe (UBSan)"
    asan = ("==1==ERROR: AddressSanitizer: heap-buffer-overflow\n"
            "    #0 0x7f in __interceptor_memcpy ../libsanitizer/asan/asan_interceptors.cpp:1\n"
            "    #1 0x7f in H5VM_memcpyvv (/usr/lib/x86_64-linux-gnu/libhdf5_serial.so.103+0x1)\n")
    assert "libhdf5" in sanitizer_culprit(asan)
    assert "nprb_check" in sanitizer_culprit(asan.replace("H5VM_memcpyvv (/usr/lib/x86_64-linux-"
                                                          "gnu/libhdf5_serial.so.103+0x1)",
                                                          "nprb_check src/tools/check.c:9"))


def test_check_flipped_bytes(exe, mpi4, work):
    """One byte flipped at a time across the whole file: metadata, B-trees, heaps and rows. Check
    must never crash (a signal or a sanitizer report is a failure) and must reject the copies it
    cannot read; a flip in the signature always matters."""
    with open(mpi4, "rb") as f:
        data = bytearray(f.read())
    bad = os.path.join(work, "flipped.h5")
    rejected = in_hdf5 = looped = 0
    wrong = []
    # The first 16 KiB hold the superblock, object headers (types, extents) and B-trees.
    offsets = list(range(0, 16384, 41)) + list(range(16384, len(data), len(data) // 60))
    for off in offsets:
        copy = bytearray(data)
        copy[off] ^= 0xFF
        with open(bad, "wb") as f:
            f.write(copy)
        # Some flips make HDF5 loop: check gives up after --timeout, which keeps the sweep short.
        # A whole check of this file takes under 0.1 s, even under ASan: a second is plenty,
        # and a check cut short is a rejection, which the sweep allows.
        p = subprocess.run([exe, "check", "--timeout", "1", bad], capture_output=True, text=True,
                           check=False, errors="replace")
        out = p.stdout + p.stderr
        looped += "did not end within" in out
        culprit = sanitizer_culprit(out)
        in_hdf5 += culprit is not None and "libhdf5" in culprit
        if p.returncode not in (0, 4) or (culprit is not None and "libhdf5" not in culprit):
            wrong.append(f"byte {off} flipped: exit {p.returncode}\n{out}")
        if not out.isascii():
            wrong.append(f"byte {off} flipped: output is not plain ASCII\n{out}")
        if off == 0 and p.returncode != 4:
            wrong.append("flipped signature byte not detected")
        rejected += p.returncode == 4
    print(f"{len(offsets)} single-byte flips, {rejected} rejected ({looped} made HDF5 loop), "
          f"{in_hdf5} memory errors inside libhdf5 (under a sanitizer; the child process ended, "
          "the file was rejected)")
    assert not wrong, "\n".join(wrong)


def test_check_hdf5_crashes(numaprobe, mpi4, work):
    # A checkpoint as split() writes it: h5py's layout, whose heap damage HDF5 1.10.8 crashes on.
    split(mpi4, work, ranks=[0])
    bad = os.path.join(work, "rank-00000.h5")
    crash_hdf5(bad)
    numaprobe.run(["check", bad], 4, ["reading it crashed (signal",
                                      "damaged in a way HDF5 does not detect", "INVALID"])


def test_check_hdf5_loops(numaprobe, mpi4, work):
    split(mpi4, work, ranks=[0])
    bad = os.path.join(work, "rank-00000.h5")
    hang_hdf5(bad)
    numaprobe.run(["check", "--timeout", "3", bad], 4,
                  ["reading it did not end within 3 s", "makes HDF5 loop", "INVALID"])
    numaprobe.run(["check", "--timeout", "soon", bad], 2,
                  ["--timeout needs a whole number of seconds"])
