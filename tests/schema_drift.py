#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""schema_drift.py NUMAPROBE SOURCE_DIR: everything that names the results file's tables, columns
and root attributes outside src/results/ agrees with `numaprobe --schema` (src/results/contract.c
and the row descriptors of results.c), the one place the contract lives:

- docs/SCHEMA.md: its root attribute rows and its table sections, with their columns and types;
- the analysis (analysis/numaprobe_analysis): its table and column constants, and the tables it
  reads by name;
- the test checkers: tests/check_results.py, tests/tools/tools_test.py and the synthetic fleet.

Exits 0 when they agree, 1 with every difference."""

import ast
import glob
import json
import os
import re
import subprocess
import sys

NUMPY_TYPES = {"i1": "int8", "i4": "int32", "i8": "int64", "u8": "uint64", "f8": "float64"}
DOC_ATTR_TYPES = {"string": "text", "int64": "int"}


class Drift:
    def __init__(self):
        self.failures = []

    def expect(self, ok, message):
        if not ok:
            self.failures.append(message)

    def same_set(self, where, what, found, contract):
        found, contract = set(found), set(contract)
        for name in sorted(found - contract):
            self.failures.append(f"{where}: {name} is no {what} of numaprobe --schema")
        for name in sorted(contract - found):
            self.failures.append(f"{where}: lacks the {what} {name} of numaprobe --schema")

    def subset(self, where, what, found, contract):
        for name in sorted(set(found) - set(contract)):
            self.failures.append(f"{where}: {name} is no {what} of numaprobe --schema")


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


def doc_sections(path):
    """docs/SCHEMA.md as {"": {attr: type}, table: {column: type or ""}}."""
    sections, current = {}, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^## `/(\w+)`", line)
            if m:
                current = sections.setdefault(m.group(1), {})
                continue
            if line.startswith("## "):
                current = sections.setdefault("", {}) if line.strip() == "## Root attributes" \
                    else None
                continue
            if current is not None and line.startswith("| `"):
                cells = [c.strip() for c in line.strip()[1:-1].split("|")]
                for name in re.findall(r"`(\w+)`", cells[0]):
                    current[name] = cells[1]
    return sections


def check_docs(d, schema, source):
    path = os.path.join(source, "docs", "SCHEMA.md")
    where = "docs/SCHEMA.md"
    sections = doc_sections(path)
    attrs = {a["name"]: a["type"] for a in schema["root_attributes"]}
    doc_attrs = sections.pop("", {})
    d.same_set(where, "root attribute", doc_attrs, attrs)
    for name, typ in doc_attrs.items():
        if name in attrs:
            d.expect(DOC_ATTR_TYPES.get(typ) == attrs[name],
                     f"{where}: root attribute {name} is {typ}, numaprobe --schema says "
                     f"{attrs[name]}")
    tables = {t["name"]: {c["name"]: c["type"] for c in t["columns"]} for t in schema["tables"]}
    d.same_set(where, "table", sections, tables)
    for table, columns in sections.items():
        if table not in tables:
            continue
        d.same_set(f"{where} /{table}", "column", columns, tables[table])
        for name, typ in columns.items():
            if typ and name in tables[table]:
                d.expect(typ == tables[table][name],
                         f"{where}: /{table}.{name} is {typ}, numaprobe --schema says "
                         f"{tables[table][name]}")
    d.expect(f"schema {schema['schema_version']}" in open(path, encoding="utf-8").readline(),
             f"{where}: its title does not say schema {schema['schema_version']}")


def check_analysis(d, schema, source):
    tables = {t["name"]: {c["name"] for c in t["columns"]} for t in schema["tables"]}
    added = {}
    for t in schema["tables"]:
        for c in t["columns"]:
            if c["since"] != f"{schema['schema_version'].split('.')[0]}.0.0":
                added.setdefault(t["name"], set()).add(c["name"])
    package = os.path.join(source, "analysis", "numaprobe_analysis")
    where = "analysis/numaprobe_analysis/load.py"
    load = constants(os.path.join(package, "load.py"))
    d.expect(load.get("SCHEMA_NAME") == schema["schema"], f"{where}: SCHEMA_NAME")
    d.expect(str(load.get("SUPPORTED_MAJOR")) == schema["schema_version"].split(".")[0],
             f"{where}: SUPPORTED_MAJOR is not the schema's major")
    d.subset(where, "table", load.get("TABLES", ()) + load.get("OPTIONAL_TABLES", ()), tables)
    d.same_set(where + " ADDED_COLUMNS", "table", load.get("ADDED_COLUMNS", {}), added)
    for table, columns in load.get("ADDED_COLUMNS", {}).items():
        d.same_set(f"{where} ADDED_COLUMNS[{table}]", "column a later minor added", columns,
                   added.get(table, ()))
    for table, columns in load.get("REQUIRED_COLUMNS", {}).items():
        d.subset(where + " REQUIRED_COLUMNS", "table", [table], tables)
        d.subset(f"{where} REQUIRED_COLUMNS[{table}]", "column", columns, tables.get(table, ()))
    # Tables read by name anywhere in the package: results["latency"], fleet.get("hosts"), ...
    pattern = re.compile(r'\b(?:fleet|results|res|tables)\s*(?:\[\s*|\.get\(\s*)"(\w+)"')
    for path in sorted(glob.glob(os.path.join(package, "*.py"))):
        with open(path, encoding="utf-8") as f:
            named = pattern.findall(f.read())
        d.subset(os.path.relpath(path, source), "table", named, tables)


def check_test_checkers(d, schema, source):
    tables = {t["name"]: t["columns"] for t in schema["tables"]}
    attrs = {a["name"] for a in schema["root_attributes"]
             if a["in"] in ("every", "final") and a["required"]}
    where = "tests/check_results.py"
    checker = constants(os.path.join(source, "tests", "check_results.py"))
    d.subset(where + " REQUIRED_ATTRS", "required root attribute",
             checker.get("REQUIRED_ATTRS", ()), attrs)
    d.subset(where + " TABLES", "table", checker.get("TABLES", ()), tables)

    where = "tests/tools/tools_test.py OLDER_MINOR_DROPS"
    drops = constants(os.path.join(source, "tests", "tools", "tools_test.py"))
    for table, columns in drops.get("OLDER_MINOR_DROPS", {}).items():
        since = {c["name"]: c["since"] for c in tables.get(table, ())}
        for column in columns:
            d.expect(since.get(column) == "0.4.0",
                     f"{where}: /{table}.{column} is not a column schema 0.4.0 added")

    # The synthetic fleet writes the binary's layout: every table, column and type.
    fleets = glob.glob(os.path.join(source, "*", "analysis", "synthetic_fleet.py")) + \
        glob.glob(os.path.join(source, "analysis", "tests", "synthetic_fleet.py"))
    d.expect(len(fleets) > 0, "synthetic_fleet.py not found (tests/analysis or analysis/tests)")
    for path in fleets:
        where = os.path.relpath(path, source)
        layout = constants(path).get("SCHEMA", {})
        d.same_set(where + " SCHEMA", "table", layout, tables)
        for table, fields in layout.items():
            if table not in tables:
                continue
            mine = [tuple(f.split(":")) for f in fields.split()]
            mine = [(n, NUMPY_TYPES.get(t, "str" + t[1:] if t.startswith("S") else t))
                    for n, t in mine]
            theirs = [(c["name"], c["type"]) for c in tables[table]]
            d.expect(mine == theirs, f"{where} SCHEMA[{table}]: {mine} != numaprobe --schema "
                                     f"{theirs}")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    exe, source = sys.argv[1:]
    out = subprocess.run([exe, "--schema"], check=True, capture_output=True, text=True).stdout
    schema = json.loads(out)
    d = Drift()
    for t in schema["tables"]:
        d.expect(t["description"], f"numaprobe --schema: /{t['name']} has no description")
        for c in t["columns"]:
            d.expect(c["description"],
                     f"numaprobe --schema: /{t['name']}.{c['name']} has no description")
    check_docs(d, schema, source)
    check_analysis(d, schema, source)
    check_test_checkers(d, schema, source)
    for f in d.failures:
        print(f"FAIL: {f}")
    print(f"schema_drift: {len(d.failures)} difference(s)" if d.failures else
          f"schema_drift: docs, analysis and test checkers agree with numaprobe --schema "
          f"({len(schema['tables'])} tables, {len(schema['root_attributes'])} root attributes)")
    sys.exit(1 if d.failures else 0)


if __name__ == "__main__":
    main()
