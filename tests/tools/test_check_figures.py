# SPDX-License-Identifier: BSD-3-Clause
"""`numaprobe check` on figures the report divides by and on /c2c_latency's names: an ok row's
latency or bandwidth of 0 (mlp's lines in flight would be infinite), a pair class or transfer
the schema does not know, and "-" as a class in an ok row are damage, named by row."""

import numpy as np
import pytest

from h5inputs import copy, edit_column, ok_rows, rows_of

pytestmark = pytest.mark.needs_options("exe", "results_dir")


def _mlp_ok_row(path):
    lat = rows_of(path, "latency")
    rows = [r for r in ok_rows(lat) if lat["experiment"][r] == b"mlp"]
    if not rows:
        pytest.skip("the results file has no ok mlp row")
    return rows[0]


def _c2c_ok_row(path):
    rows = ok_rows(rows_of(path, "c2c_latency"))
    if len(rows) == 0:
        pytest.skip("the results file has no ok /c2c_latency row")
    return rows[0]


def test_check_mlp_zero_ns(numaprobe, mpi4, work):
    bad = copy(mpi4, work, "mlp-zero.h5")
    row = _mlp_ok_row(bad)
    for column in ("latency_ns_min", "latency_ns_median"):
        edit_column(bad, "latency", column, row, 0.0)
    numaprobe.run(["check", bad], 4, [
        f"/latency row {row}: latency_ns_min is 0 in an ok row",
        f"/latency row {row}: latency_ns_median is 0 in an ok row", "INVALID"])


def test_check_bandwidth_zero(numaprobe, mpi4, work):
    bad = copy(mpi4, work, "bw-zero.h5")
    row = ok_rows(rows_of(bad, "bandwidth"))[0]
    for column in ("gbs_worst", "gbs_median", "gbs_best", "bus_gbs_best"):
        edit_column(bad, "bandwidth", column, row, 0.0)
    numaprobe.run(["check", bad], 4, [f"/bandwidth row {row}: gbs_best is 0 in an ok row",
                                      f"/bandwidth row {row}: bus_gbs_best is 0 in an ok row"])


def test_check_c2c_infinite(numaprobe, mpi4, work):
    bad = copy(mpi4, work, "c2c-inf.h5")
    row = _c2c_ok_row(bad)
    edit_column(bad, "c2c_latency", "latency_ns_max", row, np.inf)
    numaprobe.run(["check", bad], 4,
                  [f"/c2c_latency row {row}: latency_ns_max is inf in an ok row"])


def test_check_c2c_unknown_names(numaprobe, mpi4, work):
    bad = copy(mpi4, work, "c2c-names.h5")
    row = _c2c_ok_row(bad)
    edit_column(bad, "c2c_latency", "pair_class", row, b"same_rack")
    edit_column(bad, "c2c_latency", "transfer", row, b"hitx")
    numaprobe.run(["check", bad], 4, [
        f"/c2c_latency row {row}: pair_class 'same_rack' is not one of smt, same_l2, same_l3, "
        "same_node, same_package, cross_package",
        f"/c2c_latency row {row}: transfer 'hitx' is not hitm or hit", "INVALID"])


def test_check_c2c_dash_in_ok_row(numaprobe, mpi4, work):
    bad = copy(mpi4, work, "c2c-dash.h5")
    row = _c2c_ok_row(bad)
    edit_column(bad, "c2c_latency", "pair_class", row, b"-")
    numaprobe.run(["check", bad], 4, [f"/c2c_latency row {row}: pair_class '-' is not one of"])


def test_check_c2c_dash_in_skipped_row_is_valid(numaprobe, mpi4, work):
    """The writer's own "-" in a row that measured no pair stays valid (the rule is not blind)."""
    c2c = rows_of(mpi4, "c2c_latency")
    if not any(c2c["pair_class"] == b"-"):
        pytest.skip("the results file has no skipped /c2c_latency row")
    numaprobe.run(["check", mpi4], 0, [": valid ("], forbid=["pair_class"])
