# SPDX-License-Identifier: BSD-3-Clause
"""`numaprobe --schema` (src/results/contract.c and the row descriptors of results.c, the one
place the contract lives) describes every table and column; the analysis and the test checkers
take the rest from it when they run.

    /usr/bin/python3 -m pytest -q -p no:cacheprovider tests/test_schema_drift.py \\
        --exe NUMAPROBE --source-dir SOURCE_DIR"""

import json
import subprocess

import pytest

pytestmark = pytest.mark.needs_options("exe", "source_dir")


@pytest.fixture(scope="module")
def schema(exe):
    out = subprocess.run([exe, "--schema"], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def test_contract_descriptions(schema):
    wrong = [f"numaprobe --schema: /{t['name']} has no description"
             for t in schema["tables"] if not t["description"]] + \
        [f"numaprobe --schema: /{t['name']}.{c['name']} has no description"
         for t in schema["tables"] for c in t["columns"] if not c["description"]]
    assert not wrong, "\n".join(wrong)
