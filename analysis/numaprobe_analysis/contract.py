# SPDX-License-Identifier: BSD-3-Clause
"""The results file's contract as the numaprobe binary states it, `numaprobe --schema`: every
table and column, its type and unit, the schema minor that added it, and what a column an older
file lacks reads as (`absent`).

The analysis keeps no copy of it: it asks the binary that validates its files (the one
validate.find_numaprobe finds, `$NUMAPROBE_BIN` first), once per process and binary. A binary
whose --schema predates `since` and `absent` cannot say how to read an older file, so it is
refused as too old, as validate refuses one without `check --json`."""

import functools
import json
import subprocess

from .validate import find_numaprobe


class ContractError(Exception):
    """No contract the analysis can read files by: numaprobe missing, failing or too old."""


# What `numaprobe --schema` gives each table and each column since it states how to read an
# older file; a binary without one of them is older than this analysis.
TABLE_KEYS = ("name", "since", "columns")
COLUMN_KEYS = ("name", "type", "since", "absent")
# What it says config_fingerprint leaves out of the hash (runs.py hashes by it).
FINGERPRINT_KEYS = ("unmeasured_keys", "neutral_lines")


def contract():
    """`numaprobe --schema` as a dict, of the binary find_numaprobe() finds. Raises
    ContractError (one line, naming the binary) where there is none or it is unusable."""
    exe, where = find_numaprobe()
    if exe is None:
        raise ContractError(f"numaprobe, whose --schema says what a results file holds, was not "
                            f"found (looked in {where}); set NUMAPROBE_BIN to the binary")
    return _schema_of(exe)


def _too_old(exe, what):
    return ContractError(f"{exe} is older than this analysis ({what}): set NUMAPROBE_BIN to a "
                         f"numaprobe of the same release")


@functools.lru_cache(maxsize=None)
def _schema_of(exe):
    """The parsed --schema of @p exe (cached: the binary's contract does not change while the
    report runs; an exception is not cached)."""
    try:
        proc = subprocess.run([exe, "--schema"], capture_output=True, text=True, errors="replace",
                              timeout=60, check=False, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise ContractError(f"{exe} --schema did not end within 60 s") from None
    except OSError as e:
        raise ContractError(f"cannot run {exe} --schema: {e.strerror}") from None
    if proc.returncode == 2 and "--schema" in proc.stderr:
        raise _too_old(exe, "it has no --schema")
    if proc.returncode != 0:
        what = f"signal {-proc.returncode}" if proc.returncode < 0 else f"exit {proc.returncode}"
        last = (proc.stderr.strip().splitlines() or [""])[-1]
        raise ContractError(f"{exe} --schema failed ({what}): {last}")
    try:
        doc = json.loads(proc.stdout)
    except ValueError:
        doc = None
    if not isinstance(doc, dict) or not isinstance(doc.get("tables"), list) \
            or not all(isinstance(doc.get(k), str) for k in ("schema", "schema_version")):
        raise ContractError(f"{exe} --schema printed no schema document")
    rule = doc.get("config_fingerprint")
    if not isinstance(rule, dict) or not all(isinstance(rule.get(k), list)
                                             for k in FINGERPRINT_KEYS):
        raise _too_old(exe, "its --schema says not what config_fingerprint leaves out")
    for table in doc["tables"]:
        lacking = [k for k in TABLE_KEYS if k not in table]
        lacking += sorted({k for c in table.get("columns", ()) for k in COLUMN_KEYS
                           if k not in c})
        if lacking:
            raise _too_old(exe, f"its --schema gives /{table.get('name', '?')} no "
                                f"{', '.join(repr(k) for k in lacking)}")
    return doc

