# SPDX-License-Identifier: BSD-3-Clause
"""The line printed for noisy hosts measures them again as their run did: the run's config, its
`--set` options, its `--time-budget` and its `--only`, read back from the file's command line, so that the new
file pools with the first one (the same measurement config) without --allow-mixed-configs. Run
with the numaprobe binary on the tiny test plan; without the options the two files would be
refused as runs of different configs (the control)."""

import os
import shlex
import subprocess

import h5py
import pytest
from conftest import ANALYSIS, run_report

from numaprobe_analysis.remeasure import run_options
from numaprobe_analysis.validate import find_numaprobe

NUMAPROBE = find_numaprobe()[0]
TINY = os.path.join(ANALYSIS, os.pardir, "tests", "configs", "tiny.yaml")
OPTIONS = ["-c", TINY, "--set", "latency_matrix.samples=4", "-s", "bandwidth_matrix.repetitions=2",
           "--time-budget", "10min"]


def noisy(path):
    """Every bandwidth_matrix row of @p path uncertain by 60% (its passes disagreed), written in
    place so the table keeps the attributes `numaprobe check` asks for."""
    with h5py.File(path, "r+") as f:
        rows = f["bandwidth"][()]
        rows["uncertainty_pct"][rows["experiment"] == b"bandwidth_matrix"] = 60.0
        f["bandwidth"][...] = rows


def test_options_read_back():
    line = (f"/usr/bin/numaprobe -q -o x.h5 -cquick --set=a.b=1 -s c.d=2 --time-budget 5min "
            f"--progress 10s --only mlp,page_size --config {TINY}")
    assert run_options(line) == [("--config", "quick"), ("--set", "a.b=1"), ("--set", "c.d=2"),
                                 ("--time-budget", "5min"), ("--only", "mlp,page_size"),
                                 ("--config", TINY)]
    assert run_options("numaprobe --only=mlp") == [("--only", "mlp")]
    assert run_options("numaprobe -o x.h5", "configs/quick.yaml") == [
        ("--config", "configs/quick.yaml")]
    assert run_options("numaprobe -o x.h5", "built-in defaults") == []


@pytest.mark.skipif(NUMAPROBE is None, reason="numaprobe binary not built")
def test_remeasured_file_pools_with_the_first(tmp_path):
    first = tmp_path / "first.h5"
    proc = subprocess.run([NUMAPROBE, *OPTIONS, "-q", "-o", first], capture_output=True,
                          text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr[-2000:]
    host = os.uname().nodename
    noisy(first)
    proc = run_report(first, "--no-report")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    line = next(x for x in proc.stdout.splitlines() if x.startswith("re-measure the noisy"))
    words = shlex.split(line.split(": ", 1)[1])
    assert words[:3] == ["mpirun", "--host", host], line
    args = words[words.index("numaprobe") + 1:]
    for option in ("--set latency_matrix.samples=4", "--set bandwidth_matrix.repetitions=2",
                   "--time-budget 10min", f"--config {TINY}"):
        assert option in " ".join(args), (option, line)
    assert args[-2:] == ["-o", "remeasure.h5"], line
    # Run it here, as a singleton (no launcher), into the test's directory.
    again = subprocess.run([NUMAPROBE, *args[:-2], "-q", "-o", tmp_path / "remeasure.h5"],
                           capture_output=True, text=True, timeout=240)
    assert again.returncode == 0, again.stderr[-2000:]
    proc = run_report(first, tmp_path / "remeasure.h5", "--no-report")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # One fleet: the host measured twice, its latest run counting.
    assert f"{host}: 2 runs; the latest" in proc.stdout, proc.stdout
    # The control: the first file's config alone, without its --set and --time-budget, is
    # another measurement config, refused.
    bare = subprocess.run([NUMAPROBE, "-c", TINY, "-q", "-o", tmp_path / "bare.h5"],
                          capture_output=True, text=True, timeout=240)
    assert bare.returncode == 0, bare.stderr[-2000:]
    proc = run_report(first, tmp_path / "bare.h5", "--no-report")
    assert proc.returncode == 2 and "differ" in proc.stderr, proc.stdout + proc.stderr


def test_line_names_at_most_a_tables_worth_of_hosts():
    """A fleet with hundreds of noisy hosts gets a line of the first ones and where the rest
    are, not a screen of names."""
    from numaprobe_analysis import remeasure
    hosts = {f"h{i:03d}" for i in range(60)}
    line = remeasure.remeasure_line(hosts, {"command_line": "numaprobe -c quick -o x.h5"}, 50)
    assert "the first 50 of 60 noisy hosts" in line and "noisy.csv" in line
    assert "h049" in line and "h050" not in line
    assert "h059" in remeasure.remeasure_line(hosts, {}, None)
