# SPDX-License-Identifier: BSD-3-Clause
"""Shared fixtures of the analysis tests: the report command, files the numaprobe binary wrote
(NUMAPROBE_RESULTS, NUMAPROBE_FLEET3, set by tests/analysis.cmake) and synthetic fleets."""

import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ANALYSIS = os.path.dirname(HERE)
sys.path.insert(0, ANALYSIS)
sys.path.insert(0, HERE)
# The tools tests' inputs (tests/tools/h5inputs.py): damaged files, older minors.
sys.path.insert(0, os.path.join(ANALYSIS, os.pardir, "tests", "tools"))

import synthetic_fleet  # noqa: E402

REPORT = os.environ.get("NUMAPROBE_REPORT", os.path.join(ANALYSIS, "numaprobe-report"))
# The two planted bad hosts of the synthetic fleet and what is wrong with them.
PLANTED = {"icx07": {"bw_remote": 0.6}, "rome13": {"latency_local": 1.35}}


def run_report(*args, cwd=None, env=None):
    return subprocess.run(["/usr/bin/python3", REPORT, *map(str, args)], capture_output=True,
                          text=True, timeout=300, cwd=cwd, env=env)


def assert_refused_option(proc, option, value):
    """A numeric option's value refused as a usage error: exit 2, one line naming it, no
    traceback."""
    out = proc.stdout + proc.stderr
    assert proc.returncode == 2, out
    assert "Traceback" not in out, out
    last = proc.stderr.strip().splitlines()[-1]
    assert f"error: argument {option}: '{value}': expected " in last, out


@pytest.fixture(scope="session")
def synthetic(tmp_path_factory):
    """40 hosts of 2 node types with the PLANTED hosts, and its report directory."""
    d = tmp_path_factory.mktemp("synthetic")
    path = d / "fleet.h5"
    synthetic_fleet.write_fleet(str(path), 40, seed=1, factors=PLANTED)
    proc = run_report(path, "-o", d / "report")
    assert proc.returncode == 0, proc.stderr
    return {"path": path, "report": d / "report", "proc": proc}


def binary_files():
    """Files the numaprobe binary wrote in this test run: (id, path or None, skip reason)."""
    files = [(os.path.basename(p), p, None)
             for p in os.environ.get("NUMAPROBE_RESULTS", "").split(":") if p]
    if not files:
        files.append(("results", None, "NUMAPROBE_RESULTS not set: run through ctest"))
    fleet3 = os.environ.get("NUMAPROBE_FLEET3", "")
    if not fleet3:
        files.append(("fleet3", None, "NUMAPROBE_FLEET3 not set: run through ctest"))
    elif not os.path.exists(fleet3):
        files.append(("fleet3", None, f"{fleet3} absent: the fake-hosts run (analysis.fleet3) "
                      "was skipped (namespaces not permitted?)"))
    else:
        files.append(("fleet3", fleet3, None))
    return files


@pytest.fixture(params=binary_files(), ids=lambda f: f[0])
def written(request):
    _name, path, reason = request.param
    if path is None:
        pytest.skip(reason)
    return path
