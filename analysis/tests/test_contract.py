# SPDX-License-Identifier: BSD-3-Clause
"""The analysis reads files by the binary's contract (`numaprobe --schema`), not by a copy of
its own: the tables it reads by name are the contract's, a column an older file lacks reads as
the contract's `absent`, and a binary whose contract it cannot read by (too old, another major,
without a column the analysis relies on) refuses every file with one line saying so."""

import copy
import glob
import json
import os
import re
import stat

import numpy as np
import pytest
from conftest import ANALYSIS, run_report

import h5inputs
import synthetic_fleet
from numaprobe_analysis import load, stream
from numaprobe_analysis.contract import contract
from numaprobe_analysis.validate import find_numaprobe

NUMAPROBE = find_numaprobe()[0]
pytestmark = pytest.mark.skipif(NUMAPROBE is None, reason="numaprobe binary not built")


@pytest.fixture(scope="module")
def fleet(tmp_path_factory):
    path = tmp_path_factory.mktemp("contract") / "fleet.h5"
    synthetic_fleet.write_fleet(str(path), 6, seed=2)
    return path


def stand_in(tmp_path, doc):
    """A numaprobe that prints @p doc for --schema (a dict; a str: that text on stderr, exit 2,
    as a binary without the option says) and is the real binary for everything else."""
    out = tmp_path / "schema.json"
    out.write_text(json.dumps(doc) if isinstance(doc, dict) else "")
    exe = tmp_path / "numaprobe"
    answer = f"cat '{out}'; exit 0" if isinstance(doc, dict) else f"echo \"{doc}\" >&2; exit 2"
    exe.write_text(f"#!/bin/sh\nif [ \"$1\" = --schema ]; then {answer}; fi\n"
                   f"exec '{NUMAPROBE}' \"$@\"\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    return str(exe)


def edited(change):
    """The real contract, changed by @p change (a function of a deep copy)."""
    doc = copy.deepcopy(contract())
    change(doc)
    return doc


def column(doc, table, name):
    t = next(t for t in doc["tables"] if t["name"] == table)
    return next(c for c in t["columns"] if c["name"] == name)


def test_tables_read_by_name_are_read():
    """Every table the package names (results["latency"], fleet["counters"], ...) is one the
    loader reads from the contract, so none is looked up in vain."""
    pattern = re.compile(r'\b(?:fleet|results|res|tables)\s*(?:\[\s*|\.get\(\s*)"(\w+)"')
    paths = sorted(glob.glob(os.path.join(ANALYSIS, "numaprobe_analysis", "**", "*.py"),
                             recursive=True))
    assert paths
    read = set(load.layout().tables)
    named = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for name in pattern.findall(f.read()):
                named.setdefault(name, os.path.basename(path))
    assert {"hosts", "latency", "bandwidth", "cache_levels"} <= set(named)  # the scan finds them
    assert not {n: p for n, p in named.items() if n not in read}


def test_tables_a_fleet_names_are_held():
    """A table the package looks up in a fleet (fleet["latency"], v.fleet["placement"]) is one
    the fleet loader keeps as rows: /counters, /numastat and /hugepages are not (stream.py)."""
    pattern = re.compile(r'\bfleet\s*\[\s*"(\w+)"')
    held = set(load.layout().tables) - set(stream.UNREAD) - {"counters"}
    named = {}
    for path in glob.glob(os.path.join(ANALYSIS, "numaprobe_analysis", "**", "*.py"),
                          recursive=True):
        with open(path, encoding="utf-8") as f:
            for name in pattern.findall(f.read()):
                named.setdefault(name, os.path.basename(path))
    assert {"latency", "placement"} <= set(named)  # the scan finds them
    assert not {n: p for n, p in named.items() if n not in held}


def test_what_the_analysis_names_is_in_the_contract():
    tables = {t["name"] for t in contract()["tables"]}
    assert set(load.NOT_READ) <= tables
    assert set(load.REQUIRED_COLUMNS) <= set(load.layout().tables)


def test_a_missing_column_reads_as_the_contracts_absent(fleet, tmp_path, monkeypatch):
    """Which fill an older file's missing column takes is the binary's to say: a contract that
    says 7 passes gets 7."""
    old = tmp_path / "old.h5"
    old.write_bytes(fleet.read_bytes())
    h5inputs.drop_columns(str(old), "0.8.0", {"latency": ["passes", "uncertainty_pct"]}, [])
    assert (load.read(str(old))["latency"].passes == 1).all()

    def seven(doc):
        column(doc, "latency", "passes")["absent"] = 7
    monkeypatch.setenv("NUMAPROBE_BIN", stand_in(tmp_path, edited(seven)))
    lat = load.read(str(old))["latency"]
    assert lat.passes.dtype == np.uint64 and (lat.passes == 7).all()
    assert lat.uncertainty_pct.dtype == np.float64 and lat.uncertainty_pct.isna().all()


def older(doc):
    for t in doc["tables"]:
        del t["since"]
        for c in t["columns"]:
            del c["absent"]


def other_major(doc):
    doc["schema_version"] = "1.0.0"


def without_pattern(doc):
    t = next(t for t in doc["tables"] if t["name"] == "latency")
    t["columns"] = [c for c in t["columns"] if c["name"] != "pattern"]


def without_fingerprint_rule(doc):
    del doc["config_fingerprint"]


@pytest.mark.parametrize("change, message", [
    (older, "is older than this analysis (its --schema gives /hosts no 'since', 'absent')"),
    (without_fingerprint_rule, "is older than this analysis (its --schema says not what "
                               "config_fingerprint leaves out)"),
    (other_major, "numaprobe --schema states numaprobe 1.0.0, and this analysis reads "
                  "numaprobe 0.x"),
    (without_pattern, "numaprobe --schema has no /latency column pattern, which this analysis "
                      "reads"),
], ids=["too-old", "no-fingerprint-rule", "other-major", "no-required-column"])
def test_a_contract_the_analysis_cannot_read_by(fleet, tmp_path, monkeypatch, change, message):
    exe = stand_in(tmp_path, edited(change))
    monkeypatch.setenv("NUMAPROBE_BIN", exe)
    with pytest.raises(load.ResultsError, match=re.escape(message)):
        load.read(str(fleet))
    proc = run_report(fleet, "--no-report", env=dict(os.environ, NUMAPROBE_BIN=exe))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and f"{fleet}: not read: " in lines[0] and message in lines[0], \
        proc.stderr
    assert "set NUMAPROBE_BIN to a numaprobe of the same release" in lines[0]


def test_a_binary_without_schema(fleet, tmp_path, monkeypatch):
    exe = stand_in(tmp_path, "numaprobe: unknown option '--schema'")
    monkeypatch.setenv("NUMAPROBE_BIN", exe)
    with pytest.raises(load.ResultsError, match=re.escape(
            f"{exe} is older than this analysis (it has no --schema)")):
        load.read(str(fleet))


def test_fingerprint_leaves_out_what_the_contract_says(tmp_path, monkeypatch):
    """Which keys change nothing measured is the binary's to say (`numaprobe --schema`'s
    config_fingerprint): a contract that calls latency_matrix unmeasured pools configs that
    differ only there, and one that calls `latency_matrix:` a neutral line drops that line."""
    from numaprobe_analysis.runs import config_fingerprint, measurement_lines
    base = synthetic_fleet.CONFIG
    other = base.replace("samples: 20", "samples: 40")
    assert "report_hosts: 8\n" not in measurement_lines(base)
    assert config_fingerprint(base) != config_fingerprint(other)

    def unmeasured(doc):
        doc["config_fingerprint"]["unmeasured_keys"].append("latency_matrix")
        doc["config_fingerprint"]["neutral_lines"].append("bandwidth_matrix:\n")
    monkeypatch.setenv("NUMAPROBE_BIN", stand_in(tmp_path, edited(unmeasured)))
    assert config_fingerprint(base) == config_fingerprint(other)
    assert not any(line.startswith(("latency_matrix", "bandwidth_matrix"))
                   for line in measurement_lines(base))


def test_noise_limit_is_the_binarys():
    """The analysis and the binary's stdout report and --summary-json call the same figures
    noisy: the limit is one number on both sides (`numaprobe --schema`'s noisy_pct)."""
    from numaprobe_analysis.noise import NOISY_PCT, is_noisy
    limit = contract()["noisy_pct"]
    assert limit == NOISY_PCT
    assert not is_noisy(limit) and is_noisy(limit + 0.01) and not is_noisy(float("nan"))
