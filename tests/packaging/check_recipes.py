#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""check_recipes.py ROOT: the packaging recipes agree with the build.

packaging/dependencies.txt is the one table of dependencies. This checks that its cmake column is
exactly what cmake/NprbDependencies.cmake finds (find_package, pkg_check_modules), that the Spack
recipe's depends_on() and the easyconfig's (build)dependencies are exactly its rows (with the
right dependency types), that the Python rows (Spack's py-NAME) are exactly the dependencies of
analysis/pyproject.toml (a row whose Debian package is PACKAGE:recommends: of its
optional-dependencies), and that every row gives a Debian and an RPM package or says why not.
Neither Spack nor EasyBuild can be run here: this is the consistency check packaging/README.md
promises, not a build. Exits 0 when consistent, 1 with every mismatch."""

import ast
import re
import sys
import tomllib
from pathlib import Path


def table(root):
    rows = []
    for line in (root / "packaging/dependencies.txt").read_text().splitlines():
        if not re.match(r"[a-z]", line):
            continue
        cols = [c.strip() for c in line.split("|")]
        if len(cols) != 6:
            sys.exit(f"packaging/dependencies.txt: malformed row: {line}")
        rows.append(dict(zip(("name", "cmake", "debian", "rpm", "spack", "easybuild"), cols)))
    return rows


def cmake_dependencies(root):
    text = (root / "cmake/NprbDependencies.cmake").read_text()
    found = set(re.findall(r"^\s*find_package\((\w+)", text, re.M))
    # pkg_check_modules(VAR [QUIET] [IMPORTED_TARGET] module[>=version]...)
    for args in re.findall(r"^\s*pkg_check_modules\(([^)]*)\)", text, re.M):
        words = [w for w in args.split()[1:] if w not in ("QUIET", "REQUIRED", "IMPORTED_TARGET")]
        found.update(re.split(r"[<>=]", w)[0] for w in words)
    return found


def with_type(entry, default):
    """'py-h5py:run' -> ('py-h5py', 'run'); 'hwloc@2:' -> ('hwloc@2:', default)."""
    spec, _, kind = entry.rpartition(":")
    return (spec, kind) if spec and kind in ("build", "run", "link") else (entry, default)


def spack_dependencies(path):
    deps = {}
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "depends_on":
            spec = node.args[0].value
            kind = "build,link"
            for kw in node.keywords:
                if kw.arg == "type":
                    kind = kw.value.value if isinstance(kw.value, ast.Constant) else ",".join(
                        e.value for e in kw.value.elts)
            deps[spec] = kind
    return deps


def easybuild_dependencies(path):
    scope = {}
    exec(compile(path.read_text(), str(path), "exec"), {}, scope)  # an easyconfig is Python
    deps = {name: "run" for name, *_ in scope.get("dependencies", [])}
    deps.update({name: "build" for name, *_ in scope.get("builddependencies", [])})
    return deps, scope.get("toolchain", {})


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    rows = table(root)
    problems = []

    in_table = {r["cmake"] for r in rows if r["cmake"] != "-"}
    in_cmake = cmake_dependencies(root)
    for name in sorted(in_cmake - in_table):
        problems.append(f"CMake finds {name}, which packaging/dependencies.txt lacks")
    for name in sorted(in_table - in_cmake):
        problems.append(f"packaging/dependencies.txt lists {name}, which CMake does not find")
    for r in rows:
        for col in ("debian", "rpm"):
            if not r[col]:
                problems.append(f"dependencies.txt: {r['name']} has no {col} entry (use -)")

    spack = spack_dependencies(root / "packaging/spack/package.py")
    wanted = {}
    for r in rows:
        if r["spack"] != "-":
            spec, kind = with_type(r["spack"], "build,link")
            wanted[spec] = kind
    for spec, kind in wanted.items():
        if spec not in spack:
            problems.append(f"package.py lacks depends_on({spec!r}) ({kind})")
        elif spack[spec] != kind:
            problems.append(f"package.py: {spec} has type {spack[spec]}, the table says {kind}")
    for spec in sorted(set(spack) - set(wanted)):
        problems.append(f"package.py depends on {spec}, which dependencies.txt lacks")

    ebs = sorted((root / "packaging/easybuild").glob("*.eb"))
    if not ebs:
        problems.append("no easyconfig in packaging/easybuild")
    for eb in ebs:
        have, toolchain = easybuild_dependencies(eb)
        if toolchain.get("name") not in ("foss", "gompi"):
            problems.append(f"{eb.name}: toolchain {toolchain} does not provide Open MPI")
        want = {}
        for r in rows:
            if r["easybuild"] not in ("-", "toolchain"):
                name, kind = with_type(r["easybuild"], "run")
                want[name] = kind
        for name, kind in want.items():
            if name not in have:
                problems.append(f"{eb.name} lacks {name} ({kind} dependency)")
            elif have[name] != kind:
                problems.append(f"{eb.name}: {name} is a {have[name]} dependency, "
                                f"the table says {kind}")
        for name in sorted(set(have) - set(want)):
            problems.append(f"{eb.name} depends on {name}, which dependencies.txt lacks")

    # analysis/pyproject.toml names its dependencies as PyPI does; Spack's names add py-.
    project = tomllib.loads((root / "analysis/pyproject.toml").read_text())["project"]
    def names(deps):
        return {re.split(r"[<>=!~;\[ ]", d)[0].lower() for d in deps}
    optional = {r["spack"] for r in rows if r["debian"].endswith(":recommends")}
    for what, key, want in (
            ("dependencies", "dependencies", lambda r: r["spack"] not in optional),
            ("optional-dependencies", "optional-dependencies", lambda r: r["spack"] in optional)):
        declared = project.get(key, [])
        if isinstance(declared, dict):
            declared = [d for extra in declared.values() for d in extra]
        have = names(declared)
        python_rows = {with_type(r["spack"], "")[0][len("py-"):] for r in rows
                       if r["spack"].startswith("py-") and want(r)}
        for name in sorted(python_rows - have):
            problems.append(f"analysis/pyproject.toml lacks the {what} {name}")
        for name in sorted(have - python_rows):
            problems.append(f"analysis/pyproject.toml {what} name {name}, which "
                            f"dependencies.txt lacks (or marks otherwise)")

    for p in problems:
        print(f"FAIL: {p}")
    if problems:
        return 1
    print(f"consistent: {len(rows)} dependencies; CMake finds {', '.join(sorted(in_cmake))}; "
          f"package.py, {len(ebs)} easyconfig(s) and analysis/pyproject.toml match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
