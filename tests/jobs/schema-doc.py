# SPDX-License-Identifier: BSD-3-Clause
"""schema-doc.py NUMAPROBE DOC [--write]: the title, the root attribute table and every table's
column table in docs/SCHEMA.md are made from `numaprobe --schema`, so the document cannot drift
from the contract's rows (src/results/contract.c, src/results/columns_*.c).

Each generated block sits between "<!-- begin: numaprobe --schema NAME -->" and
"<!-- end: numaprobe --schema NAME -->" lines, NAME being `root` or a table's `/name`; the
prose around them is written by hand. Without --write the document is compared with what the
binary makes, and every difference fails; --write puts the binary's version in place. A table
of the contract without its block, a block naming no table of it, or a table or column the
contract gives no description fails either way."""

import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs"))
from generated_doc import settle  # noqa: E402 (the shared module sits in tests/docs)

BEGIN = "<!-- begin: numaprobe --schema {} -->"
END = "<!-- end: numaprobe --schema {} -->"
SCOPES = {"every": "every file", "final": "job's, merged", "checkpoint": "checkpoint",
          "merged": "merged"}


def since(version):
    return "" if version.split(".")[1] == "0" else version


def cell(text):
    return (text or "").replace("|", "\\|")


def absent(column):
    """What a file older than the column reads it as, for the since cell."""
    value = column["absent"]
    if value == "":
        return "empty"
    return "NaN" if value is None else json.dumps(value)


def root_block(schema):
    lines = ["| attribute | type | unit | since | in | meaning |", "|---|---|---|---|---|---|"]
    for a in schema["root_attributes"]:
        where = SCOPES[a["in"]] + ("" if a["required"] else ", optional")
        lines.append(f"| `{a['name']}` | {a['type']} | {cell(a['unit'])} | {since(a['since'])} "
                     f"| {where} | {cell(a['description'])} |")
    return lines


def column_block(table):
    """One line per column, but columns next to each other that share everything but their
    name share a line, as `l1d_bytes`, `l2_bytes`, `l3_bytes` do."""
    rows = []
    for c in table["columns"]:
        added = since(c["since"])
        key = (c["type"], cell(c["unit"]),
               f"{added} (older: {absent(c)})" if added else "", cell(c["description"]))
        if rows and rows[-1][1] == key:
            rows[-1][0].append(c["name"])
        else:
            rows.append(([c["name"]], key))
    lines = ["| column | type | unit | since | meaning |", "|---|---|---|---|---|"]
    for names, (typ, unit, added, text) in rows:
        lines.append(f"| {', '.join(f'`{n}`' for n in names)} | {typ} | {unit} | {added} "
                     f"| {text} |")
    return lines


def blocks(schema):
    made = {"root": root_block(schema)}
    for table in schema["tables"]:
        made["/" + table["name"]] = column_block(table)
    return made


def undescribed(schema):
    """Tables and columns of the contract without a description: the meaning a reader of the
    file (its description attributes) and of this document would go without."""
    return [f"numaprobe --schema: /{t['name']} has no description"
            for t in schema["tables"] if not t["description"]] + \
        [f"numaprobe --schema: /{t['name']} column {c['name']} has no description"
         for t in schema["tables"] for c in t["columns"] if not c["description"]]


def render(doc_lines, schema):
    """The document with the title and every block made anew, and what went wrong."""
    made, problems, out, skip = blocks(schema), undescribed(schema), [], None
    title = f"# numaprobe results file, schema {schema['schema_version']}"
    seen = set()
    for number, line in enumerate(doc_lines, 1):
        if number == 1 and line.startswith("# numaprobe results file"):
            out.append(title)
            continue
        m = re.fullmatch(r"<!-- (begin|end): numaprobe --schema (\S+) -->", line)
        if m and m.group(1) == "begin":
            name = m.group(2)
            if skip is not None:
                problems.append(f"line {number}: block {skip} is not closed before {name}")
            if name not in made:
                problems.append(f"line {number}: no table {name} in numaprobe --schema")
            out.append(line)
            out.extend(made.get(name, []))
            seen.add(name)
            skip = name
            continue
        if m:
            if m.group(2) != skip:
                problems.append(f"line {number}: {line} closes no open block")
            skip = None
        if skip is None:
            out.append(line)
    if skip is not None:
        problems.append(f"block {skip} is never closed")
    problems += [f"no block for {name}: add the lines {BEGIN.format(name)} and "
                 f"{END.format(name)}" for name in made if name not in seen]
    if not doc_lines or not doc_lines[0].startswith("# numaprobe results file"):
        problems.append("line 1: the title '# numaprobe results file, schema X.Y.Z' is missing")
    return out, problems


def main(argv):
    if len(argv) not in (3, 4) or (len(argv) == 4 and argv[3] != "--write"):
        print("usage: schema-doc.py NUMAPROBE DOC [--write]", file=sys.stderr)
        return 2
    exe, path = argv[1], argv[2]
    schema = json.loads(subprocess.run([exe, "--schema"], check=True, capture_output=True,
                                       text=True).stdout)
    with open(path, encoding="utf-8") as f:
        doc = f.read().split("\n")
    made, problems = render(doc, schema)
    if problems:
        print("\n".join(f"FAIL: {path}: {p}" for p in problems))
        return 1
    tables = len(schema["tables"])
    return settle(path, doc, made, len(argv) == 4,
                  f"tests/jobs/schema-doc.py build/dev/src/numaprobe {path} --write",
                  f"{path} matches numaprobe --schema (title, root attributes, {tables} tables)")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
