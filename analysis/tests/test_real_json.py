# SPDX-License-Identifier: BSD-3-Clause
"""The JSON contracts on a real run: this machine's `numaprobe -c quick` with every experiment
of configs/default.yaml enabled (analysis.quick_run; NUMAPROBE_QUICK_ALL): the report's --json
validates against docs/report.schema.json and the run's --summary-json against
docs/summary.schema.json, and so do the report's and compare's --json of a fleet planted of it
with one host's node at 60%. The documents carry the figures of every experiment that makes one
(mlp's lines in flight, injection's and max_bandwidth's GB/s, core-to-core latency), so a schema
that refused one of them fails here."""

import json
import os

import jsonschema
import pytest
from conftest import run_report
from test_health import first_node, plant
from test_verdicts_json import validate

QUICK = os.environ.get("NUMAPROBE_QUICK_ALL", "")
SUMMARY = QUICK[:-len(".h5")] + ".json" if QUICK.endswith(".h5") else ""
SUMMARY_SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir,
                              "docs", "summary.schema.json")
pytestmark = pytest.mark.skipif(not (QUICK and os.path.exists(QUICK)),
                                reason="NUMAPROBE_QUICK_ALL not set or absent: run through "
                                       "ctest (analysis.quick_run)")
# A figure of each experiment the quick config leaves out, and of those whose keys carry no
# unit suffix.
EXPECTED = ("mlp_lines_local", "injection_read_local", "max_bandwidth_read_local",
            "c2c_intra_l3_ns", "bw_read_local_gbs", "latency_local_ns")


def report_json(path, tmp_path, *args):
    out = tmp_path / "v.json"
    proc = run_report(path, "--no-report", "--json", out, *args)
    assert proc.returncode in (0, 1) and out.exists(), proc.stdout[-2000:] + proc.stderr
    return json.loads(out.read_text())


def test_report_json_of_the_real_run(tmp_path):
    doc = report_json(QUICK, tmp_path)
    validate(doc)
    keys = {m["key"] for m in doc["metrics"]}
    assert set(EXPECTED) <= keys, sorted(keys)
    assert set(EXPECTED) <= set(doc["hosts"][0]["metrics"]), doc["hosts"][0]["metrics"]


def test_summary_json_of_the_real_run():
    with open(SUMMARY_SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    with open(SUMMARY, encoding="utf-8") as f:
        doc = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(doc)
    assert len(doc["hosts"]) == 1, doc["hosts"]


def test_json_of_a_fleet_planted_of_it(tmp_path):
    """12 hosts of the real one, h03's node at 60% local read bandwidth: an outlier by node in
    the report's --json, a regression in compare's; both valid."""
    node = first_node(QUICK)
    base = plant(QUICK, tmp_path / "base.h5", "-n", 12, "--uncertainty-pct", 2)
    new = plant(QUICK, tmp_path / "new.h5", "-n", 12, "--uncertainty-pct", 2, "--scale",
                f"h03:bw_read_local_gbs@node {node}=0.6")
    doc = report_json(new, tmp_path)
    validate(doc)
    assert "h03" in {o["host"] for o in doc["outliers"] if o["metric_key"] == "bw_read_local_gbs"}
    out = tmp_path / "c.json"
    proc = run_report("compare", base, new, "--json", out)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    changes = json.loads(out.read_text())
    validate(changes)
    assert ("h03", "bw_read_local_gbs", "regression") in {
        (c["host"], c["metric_key"], c["verdict"]) for c in changes["changes"]}
