# SPDX-License-Identifier: BSD-3-Clause
"""The analysis's experiment list (numaprobe_analysis/experiments/): each module's experiment is
one the binary runs, in the binary's order (the order of the metrics catalogue), every figure is
drawn once, and the report's reading order names only figures there are."""

import subprocess

import pytest
import yaml

from numaprobe_analysis import plots
from numaprobe_analysis.experiments import EXPERIMENTS, NAMES
from numaprobe_analysis.validate import find_numaprobe

NUMAPROBE = find_numaprobe()[0]


def test_each_module_gives_its_own_experiment():
    assert [e.name for e in EXPERIMENTS] == list(NAMES)


@pytest.mark.skipif(NUMAPROBE is None, reason="numaprobe binary not built")
def test_experiments_are_the_binarys_in_its_order():
    """The config's sections are the binary's experiments in the order a run makes them
    (src/results/experiment_list.h)."""
    out = subprocess.run([NUMAPROBE, "--show-config"], capture_output=True, text=True,
                         check=True).stdout
    sections = [k for k, v in yaml.safe_load(out).items() if isinstance(v, dict)]
    assert set(NAMES) <= set(sections), set(NAMES) - set(sections)
    assert sorted(NAMES, key=sections.index) == list(NAMES)


def test_each_experiments_metrics_are_documented():
    """An experiment with metrics gives the rows of docs/ANALYSIS.md's table that say what they
    are (tests/docs/analysis-doc.py writes them there), and one without gives none."""
    for e in EXPERIMENTS:
        assert (e.metrics is not None) == bool(e.doc), e.name
        assert all(len(row) == 2 and all(row) for row in e.doc), e.name


def test_every_figure_once_in_the_reading_order():
    names = [f.name for f in plots.PLOTS]
    assert len(names) == len(set(names))
    drawn = {"host_strips"} | {f.name for e in EXPERIMENTS for f in e.figures}
    assert set(names) == drawn
    assert set(plots.READING_ORDER) <= drawn, set(plots.READING_ORDER) - drawn
    listed = [n for n in names if n in plots.READING_ORDER]
    assert listed == [n for n in plots.READING_ORDER if n in names]
    # what the order does not name comes last
    assert names[:len(listed)] == listed
