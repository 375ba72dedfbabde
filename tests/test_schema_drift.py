# SPDX-License-Identifier: BSD-3-Clause
"""Everything that names the results file's tables, columns and root attributes outside
src/results/ agrees with `numaprobe --schema` (src/results/contract.c and the row descriptors of
results.c), the one place the contract lives:

- the analysis (analysis/numaprobe_analysis): its table and column constants, and the tables it
  reads by name;
- the synthetic fleet.

    /usr/bin/python3 -m pytest -q -p no:cacheprovider tests/test_schema_drift.py \\
        --exe NUMAPROBE --source-dir SOURCE_DIR

The Python files are read, not imported: constants() takes their module-level literals."""

import ast
import glob
import json
import os
import re
import subprocess

import pytest

pytestmark = pytest.mark.needs_options("exe", "source_dir")

NUMPY_TYPES = {"i1": "int8", "i4": "int32", "i8": "int64", "u8": "uint64", "f8": "float64"}


def constants(path):
    """The module-level NAME = literal assignments of a Python file, without importing it."""
    values = {}
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            try:
                values[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                pass
    return values


def literals(source, relpath, *names):
    """The named constants of a file, each of which must be there as a literal (one built by
    an expression would be skipped by constants(), and its comparison pass on nothing)."""
    values = constants(os.path.join(source, relpath))
    missing = [n for n in names if n not in values]
    assert not missing, f"{relpath}: no literal {', '.join(missing)}"
    return [values[n] for n in names]


def same_set(where, what, found, contract):
    found, contract = set(found), set(contract)
    return [f"{where}: {name} is no {what} of numaprobe --schema"
            for name in sorted(found - contract)] + \
        [f"{where}: lacks the {what} {name} of numaprobe --schema"
         for name in sorted(contract - found)]


def subset(where, what, found, contract):
    return [f"{where}: {name} is no {what} of numaprobe --schema"
            for name in sorted(set(found) - set(contract))]


def assert_none(wrong):
    assert not wrong, "\n".join(wrong)


@pytest.fixture(scope="module")
def schema(exe):
    out = subprocess.run([exe, "--schema"], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


@pytest.fixture(scope="module")
def tables(schema):
    """Each table's columns, {table: {column: type}}."""
    return {t["name"]: {c["name"]: c["type"] for c in t["columns"]} for t in schema["tables"]}


@pytest.fixture(scope="module")
def since(schema):
    """The version that added each column, {(table, column): "0.4.0"}."""
    return {(t["name"], c["name"]): c["since"] for t in schema["tables"] for c in t["columns"]}


def test_contract_descriptions(schema):
    assert_none([f"numaprobe --schema: /{t['name']} has no description"
                 for t in schema["tables"] if not t["description"]] +
                [f"numaprobe --schema: /{t['name']}.{c['name']} has no description"
                 for t in schema["tables"] for c in t["columns"] if not c["description"]])


# ---- the analysis -------------------------------------------------------------------------------

LOAD = "analysis/numaprobe_analysis/load.py"


def test_analysis_schema_name_and_major(schema, source_dir):
    name, major = literals(source_dir, LOAD, "SCHEMA_NAME", "SUPPORTED_MAJOR")
    assert name == schema["schema"], f"{LOAD}: SCHEMA_NAME {name!r}"
    assert str(major) == schema["schema_version"].split(".")[0], \
        f"{LOAD}: SUPPORTED_MAJOR {major} is not the schema's major"


def test_analysis_tables(source_dir, tables):
    required, optional = literals(source_dir, LOAD, "TABLES", "OPTIONAL_TABLES")
    assert_none(subset(LOAD, "table", required + optional, tables))


def test_analysis_added_columns(schema, source_dir, since):
    """ADDED_COLUMNS names exactly the columns a minor after the major's first added."""
    (added_here,) = literals(source_dir, LOAD, "ADDED_COLUMNS")
    first = f"{schema['schema_version'].split('.')[0]}.0.0"
    added = {}
    for (table, column), version in since.items():
        if version != first:
            added.setdefault(table, set()).add(column)
    wrong = same_set(LOAD + " ADDED_COLUMNS", "table", added_here, added)
    for table, columns in added_here.items():
        wrong += same_set(f"{LOAD} ADDED_COLUMNS[{table}]", "column a later minor added",
                          columns, added.get(table, ()))
    assert_none(wrong)


def test_analysis_required_columns(source_dir, tables):
    (required,) = literals(source_dir, LOAD, "REQUIRED_COLUMNS")
    wrong = []
    for table, columns in required.items():
        wrong += subset(LOAD + " REQUIRED_COLUMNS", "table", [table], tables)
        wrong += subset(f"{LOAD} REQUIRED_COLUMNS[{table}]", "column", columns,
                        tables.get(table, ()))
    assert_none(wrong)


def test_analysis_tables_read_by_name(source_dir, tables):
    """Tables read by name anywhere in the package: results["latency"], fleet.get("hosts"), ..."""
    pattern = re.compile(r'\b(?:fleet|results|res|tables)\s*(?:\[\s*|\.get\(\s*)"(\w+)"')
    paths = sorted(glob.glob(os.path.join(source_dir, "analysis", "numaprobe_analysis", "*.py")))
    assert paths, "analysis/numaprobe_analysis/*.py not found"
    wrong = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            named = pattern.findall(f.read())
        wrong += subset(os.path.relpath(path, source_dir), "table", named, tables)
    assert_none(wrong)


# ---- the test checkers --------------------------------------------------------------------------

def test_synthetic_fleet_layout(source_dir, schema):
    """The synthetic fleet writes the binary's layout: every table, column and type."""
    tables = {t["name"]: t["columns"] for t in schema["tables"]}
    fleets = glob.glob(os.path.join(source_dir, "*", "analysis", "synthetic_fleet.py")) + \
        glob.glob(os.path.join(source_dir, "analysis", "tests", "synthetic_fleet.py"))
    assert fleets, "synthetic_fleet.py not found (tests/analysis or analysis/tests)"
    wrong = []
    for path in fleets:
        where = os.path.relpath(path, source_dir)
        (layout,) = literals(source_dir, where, "SCHEMA")
        wrong += same_set(where + " SCHEMA", "table", layout, tables)
        for table, fields in layout.items():
            if table not in tables:
                continue
            mine = [tuple(f.split(":")) for f in fields.split()]
            mine = [(n, NUMPY_TYPES.get(t, "str" + t[1:] if t.startswith("S") else t))
                    for n, t in mine]
            theirs = [(c["name"], c["type"]) for c in tables[table]]
            if mine != theirs:
                wrong.append(f"{where} SCHEMA[{table}]: {mine} != numaprobe --schema {theirs}")
    assert_none(wrong)
