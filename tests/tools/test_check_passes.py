# SPDX-License-Identifier: BSD-3-Clause
"""`numaprobe check` on the pass columns of the headline rows: a count a row cannot hold, pass
figures that are missing or past the count, a headline that is not its pass's figure, a
headline pass that is not one of the passes, an uncertainty that is not a percentage. Each is
damage, named by table and row."""

import numpy as np
import pytest

from h5inputs import copy, edit_column, rows_of

pytestmark = pytest.mark.needs_options("exe", "results_dir")


def passed_row(path, table):
    """An ok row measured in two passes or more."""
    rows = rows_of(path, table)
    found = np.flatnonzero((rows["status"] == b"ok") & (rows["passes"] >= 2))
    assert len(found), f"no /{table} row measured in passes in {path}"
    return int(found[0]), rows[found[0]]


@pytest.mark.parametrize("count", [-7, 2**31 - 1])
def test_check_passes_out_of_range(numaprobe, mpi4, work, count):
    bad = copy(mpi4, work, f"passes{count}.h5")
    row, _ = passed_row(bad, "latency")
    edit_column(bad, "latency", "passes", row, count)
    numaprobe.run(["check", bad], 4, [f"/latency row {row}: passes = {count}, outside 0..8"])


def test_check_pass_values_missing_and_past(numaprobe, mpi4, work):
    bad = copy(mpi4, work, "pass-values.h5")
    row, r = passed_row(bad, "bandwidth")
    values = np.array(r["pass_values"])
    n = int(r["passes"])
    values[1] = np.nan
    values[n] = 12.5
    edit_column(bad, "bandwidth", "pass_values", row, values)
    numaprobe.run(["check", bad], 4, [
        f"/bandwidth row {row}: pass_values[1] = nan, but passes = {n}",
        f"/bandwidth row {row}: pass_values[{n}] = 12.5 past passes = {n}"])


def test_check_headline_not_its_pass(numaprobe, mpi4, work):
    bad = copy(mpi4, work, "headline.h5")
    row, r = passed_row(bad, "latency")
    edit_column(bad, "latency", "headline_pass", row, 9)
    numaprobe.run(["check", bad], 4,
                  [f"/latency row {row}: headline_pass = 9, not one of the {r['passes']} pass"])
    bad = copy(mpi4, work, "headline-figure.h5")
    values = np.array(r["pass_values"])
    values[int(r["headline_pass"]) - 1] *= 0.5
    edit_column(bad, "latency", "pass_values", row, values)
    numaprobe.run(["check", bad], 4, [f"/latency row {row}: the headline"])


def test_check_uncertainty_not_a_percentage(numaprobe, mpi4, work):
    bad = copy(mpi4, work, "uncertainty.h5")
    row, _ = passed_row(bad, "c2c_latency")
    edit_column(bad, "c2c_latency", "uncertainty_pct", row, -3.0)
    numaprobe.run(["check", bad], 4,
                  [f"/c2c_latency row {row}: uncertainty_pct = -3, not a percentage"])


def test_check_passes_of_a_good_file(numaprobe, mpi4):
    """The file as the run wrote it passes: the rules above refuse damage, not the writer's."""
    numaprobe.run(["check", mpi4], 0, ["valid"])
