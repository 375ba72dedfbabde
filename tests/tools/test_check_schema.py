# SPDX-License-Identifier: BSD-3-Clause
"""`numaprobe check` on the layout of a file: columns, types, tables and root attributes that
are missing or wrong, and the schema versions it reads (older and newer minors, another
major)."""

import h5py
import numpy as np
import numpy.lib.recfunctions as rfn
import pytest

from h5inputs import as_minor, copy, older_minor, replace_table, rows_of, set_attrs

pytestmark = pytest.mark.needs_options("exe", "results_dir")


def test_check_missing_column(numaprobe, mpi4, work):
    bad = copy(mpi4, work, "no-median.h5")
    rows = rows_of(bad, "latency")
    replace_table(bad, "latency", rfn.drop_fields(rows, "latency_ns_median", usemask=False))
    numaprobe.run(["check", bad], 4, ["/latency: column latency_ns_median missing"])


def test_check_wrong_type(numaprobe, mpi4, work):
    bad = copy(mpi4, work, "float32.h5")
    rows = rows_of(bad, "bandwidth")
    dtype = [(n, np.float32 if n == "gbs_best" else rows.dtype[n]) for n in rows.dtype.names]
    replace_table(bad, "bandwidth", rows.astype(dtype))
    numaprobe.run(["check", bad], 4, ["/bandwidth: column gbs_best is float32, expected float64"])


def test_check_major_version(numaprobe, mpi4, work):
    bad = copy(mpi4, work, "v9.h5")
    set_attrs(bad, schema_version="9.0.0")
    numaprobe.run(["check", bad], 4,
                  ["schema_version 9.0.0: major version 9", "tables not checked"])


def test_check_minor_version(numaprobe, mpi4, work):
    newer = copy(mpi4, work, "v0.99.h5")
    set_attrs(newer, schema_version="0.99.0")
    numaprobe.run(["check", newer], 0, ["warning: schema_version 0.99.0 is newer", "valid"])
    older = copy(mpi4, work, "v0.0.h5")
    set_attrs(older, schema_version="0.0.1", binding_summary=None)
    numaprobe.run(["check", older], 4, ["warning: schema_version 0.0.1 is older",
                                        "root attribute binding_summary missing"])


def test_check_missing_table(numaprobe, mpi4, work):
    bad = copy(mpi4, work, "no-placement.h5")
    with h5py.File(bad, "r+") as f:
        del f["placement"]
    numaprobe.run(["check", bad], 4, ["table /placement missing"])


def test_check_missing_attribute(numaprobe, mpi4, work):
    bad = copy(mpi4, work, "no-world-size.h5")
    set_attrs(bad, world_size=None, complete="yes")
    numaprobe.run(["check", bad], 4, ["root attribute world_size missing",
                                      "root attribute complete is not an integer"])


def test_check_minor_6(numaprobe, contract, mpi4, work):
    """A file of schema 0.6.0 has no /counters and lacks 0.7.0's columns: valid; under 0.7.0 the
    same absence is a problem."""
    old = copy(mpi4, work, "v0.6.h5")
    as_minor(old, contract, "0.6.0")
    numaprobe.run(["check", old], 0, ["valid (schema 0.6.0"])
    set_attrs(old, schema_version="0.7.0")
    numaprobe.run(["check", old], 4,
                  ["table /counters missing", "/bandwidth: column mc_bytes missing"])


def test_check_minor_7(numaprobe, contract, mpi4, work):
    """A file of schema 0.7.0 lacks /hosts restored: valid; under 0.8.0 it is missing."""
    old = copy(mpi4, work, "v0.7.h5")
    as_minor(old, contract, "0.7.0")
    numaprobe.run(["check", old], 0, ["valid (schema 0.7.0"])
    set_attrs(old, schema_version="0.8.0")
    numaprobe.run(["check", old], 4, ["/hosts: column restored missing"])


def test_check_minor_8(numaprobe, contract, mpi4, work):
    """A file of schema 0.8.0 lacks the pass columns of /latency and /bandwidth: valid; under
    0.9.0 they are missing."""
    old = copy(mpi4, work, "v0.8.h5")
    as_minor(old, contract, "0.8.0")
    numaprobe.run(["check", old], 0, ["valid (schema 0.8.0"])
    set_attrs(old, schema_version="0.9.0")
    numaprobe.run(["check", old], 4, ["/latency: column uncertainty_pct missing",
                                      "/bandwidth: column passes missing"])


def test_check_older_minor(numaprobe, contract, mpi4, work):
    """A file of schema 0.3.0 lacks the columns 0.4.0 added: valid, with a warning."""
    old = copy(mpi4, work, "v0.3.h5")
    older_minor(old, contract)
    numaprobe.run(["check", old], 0,
                  ["warning: schema_version 0.3.0 is older", "valid (schema 0.3.0"])
    # Under the newer minor version the same absence is a problem.
    set_attrs(old, schema_version="0.4.0")
    numaprobe.run(["check", old], 4, ["/numa_nodes: column free_bytes missing",
                                      "/latency: column pages_unreported missing"])


def test_check_string_width(numaprobe, mpi4, work):
    """A text column narrower than the contract's, as files written before it grew have it, reads
    back whole: valid. A wider one would be cut on reading: a problem."""
    for width, rc, says in ((160, 0, "valid"), (300, 4, "column binding_check is str300")):
        path = copy(mpi4, work, f"binding-{width}.h5")
        rows = rows_of(path, "hosts")
        dtype = [(n, f"S{width}" if n == "binding_check" else rows.dtype[n])
                 for n in rows.dtype.names]
        replace_table(path, "hosts", rows.astype(dtype))
        numaprobe.run(["check", path], rc, [says])
