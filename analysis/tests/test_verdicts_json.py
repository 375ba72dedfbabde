# SPDX-License-Identifier: BSD-3-Clause
"""--json FILE: the verdicts of report and compare validate against
docs/report.schema.json (python3-jsonschema) and say what the tables say; a document that breaks
the schema is refused by the same check (negative control). history's JSON: test_history.py."""

import copy
import json
import os

import jsonschema
import pytest
from conftest import PLANTED, run_report

import synthetic_fleet

SCHEMA_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir,
                           "docs", "report.schema.json")


def validate(doc):
    with open(SCHEMA_PATH, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(doc)


@pytest.fixture(scope="module")
def report_json(tmp_path_factory):
    d = tmp_path_factory.mktemp("json")
    path = d / "fleet.h5"
    synthetic_fleet.write_fleet(str(path), 40, seed=1, factors=PLANTED)
    proc = run_report(path, "--no-report", "--json", d / "v.json", "--fail-on-outliers")
    assert proc.returncode == 1, proc.stderr
    return json.loads((d / "v.json").read_text()), path


def test_report_json_validates_and_names_outliers(report_json):
    doc, _ = report_json
    validate(doc)
    assert doc["command"] == "report" and doc["exit_status"] == 1
    assert {o["host"] for o in doc["outliers"] if o["verdict"] == "worse"} == set(PLANTED)
    assert len(doc["hosts"]) == 40 and {t["hosts"] for t in doc["node_types"]} == {20}
    assert doc["comparison"]["reference_type"] in {t["type"] for t in doc["node_types"]}
    assert doc["runs"][0]["config_fingerprint"] == \
        synthetic_fleet.config_fingerprint(synthetic_fleet.CONFIG)


def test_broken_document_is_refused(report_json):
    doc, _ = report_json
    for breaks in (lambda d: d.pop("outliers"), lambda d: d.update(exit_status=3),
                   lambda d: d["hosts"][0]["metrics"].update(latency_local_ns="fast")):
        bad = copy.deepcopy(doc)
        breaks(bad)
        with pytest.raises(jsonschema.ValidationError):
            validate(bad)


def test_compare_json(tmp_path, report_json):
    _, base = report_json
    new = tmp_path / "new.h5"
    synthetic_fleet.write_fleet(str(new), 40, seed=2, factors={"icx03": {"bw_local": 0.75}},
                                start_utc="2026-01-02T00:00:00Z")
    proc = run_report("compare", base, new, "--json", tmp_path / "c.json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    doc = json.loads((tmp_path / "c.json").read_text())
    validate(doc)
    regressions = {(c["host"], c["metric_key"]) for c in doc["changes"]
                   if c["verdict"] == "regression"}
    assert ("icx03", "bw_read_local_gbs") in regressions
    assert len(doc["runs"]) == 2
