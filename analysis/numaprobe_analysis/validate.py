# SPDX-License-Identifier: BSD-3-Clause
"""Validates a results file with `numaprobe check` before anything reads it.

HDF5 1.10 crashes or loops on some damaged files, and h5py would take the report down with it
(a SIGSEGV and no message). So the report reads a file only after `numaprobe check` called it
valid: check reads every attribute and every table in a child process with a time limit, and
applies the schema's rules (a negative latency in an ok row makes the file invalid). It runs here
in a subprocess with a time limit of its own, so nothing it meets can end the report.

The binary, first found wins (docs/ANALYSIS.md, "Validation"):
  1. $NUMAPROBE_BIN;
  2. `numaprobe` beside the report: beside the package (a checkout's analysis/) or beside the
     numaprobe-report command that runs it (an install that puts both in PREFIX/bin, the
     package in PREFIX/libexec);
  3. a checkout's build trees, ANALYSIS_DIR/../build/*/src/numaprobe, the newest first, leaving
     out a tree built for another machine (a cross build for Arm64 beside the x86 one);
  4. `numaprobe` on PATH.
Without one the report refuses every file: it has no other crash-isolated reader."""

import glob
import json
import os
import shutil
import subprocess
import sys

ANALYSIS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class InvalidFile(Exception):
    """A file `numaprobe check` refused, or could not judge: one line, naming the file."""


def elf_machine(path):
    """The ELF e_machine of @p path (62 x86-64, 183 AArch64), or None where it is not ELF or
    cannot be read."""
    try:
        with open(path, "rb") as f:
            head = f.read(20)
    except OSError:
        return None
    if len(head) < 20 or head[:4] != b"\x7fELF" or head[5] not in (1, 2):
        return None
    return int.from_bytes(head[18:20], "little" if head[5] == 1 else "big")


def runs_here(path):
    """Whether @p path is built for this machine (the interpreter's own ELF machine): a cross
    build tree's binary would run only under an emulator, where one is registered at all."""
    own = elf_machine("/proc/self/exe")
    return own is None or elf_machine(path) in (None, own)


def find_numaprobe():
    """The numaprobe binary to validate with, and where it was looked for (for the message)."""
    explicit = os.environ.get("NUMAPROBE_BIN")
    if explicit:
        return (explicit if os.access(explicit, os.X_OK) else None), \
            f"NUMAPROBE_BIN={explicit} (not an executable)"
    beside = os.path.join(ANALYSIS_DIR, "numaprobe")
    command = os.path.realpath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if os.path.basename(command) == "numaprobe-report":
        beside = os.path.join(os.path.dirname(command), "numaprobe")
    candidates = [beside] if os.access(beside, os.X_OK) and os.path.isfile(beside) else []
    builds = [p for p in glob.glob(os.path.join(ANALYSIS_DIR, os.pardir, "build", "*", "src",
                                                "numaprobe"))
              if os.access(p, os.X_OK) and runs_here(p)]
    candidates += sorted(builds, key=os.path.getmtime, reverse=True)
    on_path = shutil.which("numaprobe")
    if on_path:
        candidates.append(on_path)
    where = (f"$NUMAPROBE_BIN, {beside}, "
             f"{os.path.normpath(os.path.join(ANALYSIS_DIR, os.pardir, 'build'))}/*/src/, PATH")
    return (candidates[0] if candidates else None), where


def time_limit_s(path):
    """check's own limit (a minute and a second per MiB) and a minute more for the process."""
    try:
        mib = os.path.getsize(path) >> 20
    except OSError:
        mib = 0
    return 120 + mib


def _verdict(stdout):
    """The one file's object of `numaprobe check --json`'s document, or None."""
    try:
        entry = json.loads(stdout)["files"][0]
    except (ValueError, KeyError, IndexError, TypeError):
        return None
    return entry if isinstance(entry, dict) else None


def _first_problem(entry):
    """check's first complaint about the file, and how many more."""
    problems = entry.get("problems") or ["invalid"]
    total = max(int(entry.get("problem_count") or 1), len(problems))
    return problems[0] + (f" (and {total - 1} more problem(s))" if total > 1 else "")


def validate(path, exe=None):
    """Raises InvalidFile unless `numaprobe check --json PATH` says valid. Returns its verdict
    on the file (check --json's object: kind, schema_version, ranks, warnings, ...)."""
    if exe is None:
        exe, where = find_numaprobe()
        if exe is None:
            raise InvalidFile(f"{path}: not read: numaprobe, whose check must pass before the "
                              f"report reads a file, was not found (looked in {where}); set "
                              f"NUMAPROBE_BIN to the binary")
    limit = time_limit_s(path)
    arg = os.path.join(".", path) if path.startswith("-") else path  # never taken for an option
    try:
        proc = subprocess.run([exe, "check", "--json", arg], capture_output=True, text=True,
                              errors="replace", timeout=limit, check=False,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise InvalidFile(f"{path}: numaprobe check did not end within {limit} s") from None
    except OSError as e:
        raise InvalidFile(f"{path}: cannot run {exe} check: {e.strerror}") from None
    entry = _verdict(proc.stdout)
    if proc.returncode == 0 and entry is not None:
        return entry
    if proc.returncode == 4 and entry is not None:
        raise InvalidFile(f"{path}: invalid (numaprobe check): {_first_problem(entry)}")
    if proc.returncode == 2 and entry is not None:
        raise InvalidFile(f"{path}: cannot read: {(entry.get('problems') or ['cannot read it'])[0]}")
    last = (proc.stderr.strip().splitlines() or [""])[-1]
    if proc.returncode == 2 and "--json" in proc.stderr:
        raise InvalidFile(f"{path}: {exe} is older than this analysis (its check has no --json): "
                          f"set NUMAPROBE_BIN to a numaprobe of the same release")
    what = f"signal {-proc.returncode}" if proc.returncode < 0 else f"exit {proc.returncode}"
    raise InvalidFile(f"{path}: numaprobe check ({exe}) failed ({what}): {last}")
