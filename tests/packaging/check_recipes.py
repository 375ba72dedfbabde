#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""check_recipes.py ROOT: the packaging recipes agree with the build.

packaging/dependencies.txt is the one table of dependencies. This checks that its cmake column is
exactly what cmake/NprbDependencies.cmake finds (find_package, pkg_check_modules), that the Spack
recipe's depends_on() and the easyconfig's (build)dependencies are exactly its rows (with the
right dependency types and when= conditions, every condition's variant declared, +analysis on by
default and passed to CMake), that the Python rows (Spack's py-NAME) are exactly the
dependencies of analysis/pyproject.toml (a row whose Debian package is PACKAGE:recommends: of its
optional-dependencies), that every row gives a Debian and an RPM package or says why not, and
that the easyconfig's module puts the completions on XDG_DATA_DIRS (modextrapaths).

It also checks what pins a release: each version() of package.py other than a branch has a
commit= (40 hex digits) or a sha256=; a pinned commit is one of this repository whose
CMakeLists.txt says that version; each easyconfig has one sha256 in checksums per source, and a
source made by `git archive` of the pinned commit has that archive's sha256; package.py has a
maintainers() directive whose names are GitHub handles, not placeholders. The repository checks
are skipped, with a note, where ROOT is not a git checkout with its history.

Neither Spack nor EasyBuild can be run here: this is the consistency check packaging/README.md
promises, not a build. Exits 0 when consistent, 1 with every mismatch."""

import ast
import hashlib
import re
import subprocess
import sys
import tomllib
from pathlib import Path

KINDS = ("build", "link", "run")
HEX40 = re.compile(r"[0-9a-f]{40}")
HEX64 = re.compile(r"[0-9a-f]{64}")
# GitHub's rule for user names: alphanumerics and single hyphens, at most 39 characters.
GITHUB_HANDLE = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}")
PLACEHOLDER = re.compile(r"example|placeholder|your|handle|todo|changeme|fixme|maintainer|^user",
                         re.I)


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


def kinds(text):
    """'run,build' -> 'build,run' (one order, whichever order the text has)."""
    return ",".join(k for k in KINDS if k in text.split(","))


def with_condition(entry):
    """'py-h5py:run when=+analysis' -> ('py-h5py:run', '+analysis'); 'mpi' -> ('mpi', None)."""
    spec, _, when = entry.partition(" when=")
    return spec.strip(), when.strip() or None


def with_type(entry, default):
    """'py-h5py:run' -> ('py-h5py', 'run'); 'py-numpy:build,run' -> ('py-numpy', 'build,run');
    'python:extends' -> ('python', 'extends'); 'hwloc@2:' -> ('hwloc@2:', default); a
    ' when=...' condition is left out (with_condition)."""
    spec, _, kind = with_condition(entry)[0].rpartition(":")
    if spec and (kind == "extends" or (kind and set(kind.split(",")) <= set(KINDS))):
        return spec, kind if kind == "extends" else kinds(kind)
    return with_condition(entry)[0], default


def calls(tree, name):
    return [n for n in ast.walk(tree)
            if isinstance(n, ast.Call) and getattr(n.func, "id", None) == name]


def spack_dependencies(tree):
    """depends_on(SPEC, type=..., when=...) -> {SPEC: ('build,link', WHEN or None)};
    extends(SPEC) -> {SPEC: ('extends', WHEN or None)}. A `with when(...)` block is not read:
    the recipe writes when= on each call."""
    deps = {}
    for node in calls(tree, "depends_on"):
        kind, when = "build,link", None
        for kw in node.keywords:
            if kw.arg == "type":
                kind = kw.value.value if isinstance(kw.value, ast.Constant) else ",".join(
                    e.value for e in kw.value.elts)
            elif kw.arg == "when":
                when = kw.value.value
        deps[node.args[0].value] = (kinds(kind), when)
    for node in calls(tree, "extends"):
        when = next((kw.value.value for kw in node.keywords if kw.arg == "when"), None)
        deps[node.args[0].value] = ("extends", when)
    return deps


def spack_variants(tree):
    """variant(NAME, default=D, ...) -> {NAME: D}."""
    found = {}
    for node in calls(tree, "variant"):
        default = next((kw.value.value for kw in node.keywords if kw.arg == "default"), None)
        found[node.args[0].value] = default
    return found


def git(root, *args):
    """git's stdout (bytes), or None where it fails."""
    try:
        return subprocess.run(["git", "-C", str(root), *args], check=True,
                              capture_output=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None


def has_history(root):
    return git(root, "rev-parse", "--is-shallow-repository") == b"false\n"


def spack_pins(tree, root, problems, notes):
    """Checks version() and maintainers(); returns {version: commit} of the pinned versions."""
    pins = {}
    for node in calls(tree, "version"):
        version = node.args[0].value
        kw = {k.arg: k.value.value for k in node.keywords if isinstance(k.value, ast.Constant)}
        if "branch" in kw:
            continue
        if "commit" in kw:
            if not HEX40.fullmatch(kw["commit"]):
                problems.append(f"package.py: version {version}: commit= is not 40 hex digits")
                continue
            pins[version] = kw["commit"]
        elif "sha256" in kw:
            if not HEX64.fullmatch(kw["sha256"]):
                problems.append(f"package.py: version {version}: sha256= is not 64 hex digits")
        else:
            problems.append(f"package.py: version {version} has neither commit= nor sha256=")
    if not [n for n in calls(tree, "version") if "branch" not in {k.arg for k in n.keywords}]:
        problems.append("package.py has no version pinned by commit= or sha256=")

    for version, commit in pins.items():
        if not has_history(root):
            notes.append(f"not a git checkout with its history: commit of {version} unchecked")
            continue
        text = git(root, "show", f"{commit}:CMakeLists.txt")
        if text is None:
            problems.append(f"package.py: version {version}: commit {commit} is not in the "
                            "repository")
            continue
        said = re.search(rb"project\(numaprobe\s+VERSION\s+([0-9.]+)", text)
        if not said or said.group(1).decode() != version:
            problems.append(f"package.py: version {version}: commit {commit[:12]}'s "
                            f"CMakeLists.txt says {said.group(1).decode() if said else 'none'}")

    found = calls(tree, "maintainers")
    if not found:
        problems.append("package.py has no maintainers() directive")
    for node in found:
        for arg in node.args:
            name = arg.value if isinstance(arg, ast.Constant) else None
            if not isinstance(name, str) or not GITHUB_HANDLE.fullmatch(name):
                problems.append(f"package.py: maintainers: {name!r} is not a GitHub handle")
            elif PLACEHOLDER.search(name):
                problems.append(f"package.py: maintainers: {name!r} is a placeholder")
    return pins


def easybuild_checksums(eb, scope, pins, root, problems, notes):
    """One sha256 per source; a source that `git archive` makes of a pinned commit has its."""
    sources = scope.get("sources", [])
    checksums = scope.get("checksums")
    if checksums is None:
        problems.append(f"{eb.name} has no checksums")
        return
    if len(checksums) != len(sources):
        problems.append(f"{eb.name}: {len(checksums)} checksums for {len(sources)} sources")
        return
    templates = {"name": scope.get("name", ""), "version": scope.get("version", "")}
    for source, checksum in zip(sources, checksums):
        filename = (source["filename"] if isinstance(source, dict) else source) % templates
        if not isinstance(checksum, str) or not HEX64.fullmatch(checksum):
            problems.append(f"{eb.name}: the checksum of {filename} is not a sha256")
            continue
        version = templates["version"]
        if filename != f"numaprobe-{version}.tar" or version not in pins:
            continue
        commit = pins[version]
        if commit not in eb.read_text():
            problems.append(f"{eb.name} does not name the commit package.py pins ({commit})")
        if not has_history(root):
            notes.append(f"not a git checkout with its history: {filename} unchecked")
            continue
        archive = git(root, "archive", "--format=tar", f"--prefix=numaprobe-{version}/", commit)
        if archive is None:
            problems.append(f"{eb.name}: cannot make {filename} of {commit[:12]} (git archive)")
        elif hashlib.sha256(archive).hexdigest() != checksum:
            problems.append(f"{eb.name}: {filename} of {commit[:12]} has sha256 "
                            f"{hashlib.sha256(archive).hexdigest()}, not {checksum}")


def easybuild_config(path):
    scope = {}
    exec(compile(path.read_text(), str(path), "exec"), {}, scope)  # an easyconfig is Python
    deps = {name: "run" for name, *_ in scope.get("dependencies", [])}
    deps.update({name: "build" for name, *_ in scope.get("builddependencies", [])})
    return deps, scope


# Flags and names that tie a build to one instruction set: a recipe carrying one fails to build,
# or builds a binary that cannot run, on the other ISA of a mixed x86 + Arm64 fleet. The
# kernels choose their SIMD level at run time, so no recipe needs any of them.
ISA_BOUND = re.compile(r"-march=|-mtune=|-mcpu=|-m(avx|sse|fma|bmi|arch)\w*|\bx86[_-]64\b|"
                       r"\bamd64\b|\baarch64\b|\barm64\b|\bneoverse|\bznver|\bskylake",
                       re.IGNORECASE)


def isa_bound(path, problems):
    for number, line in enumerate(path.read_text().splitlines(), 1):
        code = line.split("#", 1)[0]
        hit = ISA_BOUND.search(code)
        if hit:
            problems.append(f"{path.name}:{number}: {hit.group(0)!r} ties the build to one ISA")


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    rows = table(root)
    problems = []
    notes = []

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

    recipe = ast.parse((root / "packaging/spack/package.py").read_text())
    spack = spack_dependencies(recipe)
    pins = spack_pins(recipe, root, problems, notes)
    wanted = {}
    for r in rows:
        if r["spack"] != "-":
            spec, kind = with_type(r["spack"], "build,link")
            wanted[spec] = (kind, with_condition(r["spack"])[1])
    for spec, (kind, when) in wanted.items():
        if spec not in spack:
            problems.append(f"package.py lacks extends({spec!r})" if kind == "extends" else
                            f"package.py lacks depends_on({spec!r}) ({kind})")
            continue
        if spack[spec][0] != kind:
            problems.append(f"package.py: {spec} has type {spack[spec][0]}, the table says "
                            f"{kind}")
        if spack[spec][1] != when:
            problems.append(f"package.py: {spec} applies when={spack[spec][1]!r}, the table "
                            f"says when={when!r}")
    for spec in sorted(set(spack) - set(wanted)):
        problems.append(f"package.py depends on {spec}, which dependencies.txt lacks")
    # Every variant a condition names is declared; +analysis (numaprobe-report and its Python)
    # is on unless a site turns it off, so a plain `spack install numaprobe` has the analysis.
    variants = spack_variants(recipe)
    for when in sorted({w for _, w in wanted.values() if w}):
        name = when.lstrip("+~")
        if name not in variants:
            problems.append(f"package.py: the table's when={when} names no variant() {name!r}")
    if variants.get("analysis", True) is not True:
        problems.append("package.py: variant('analysis') is not on by default")
    # The variant reaches the build: CMake's NPRB_ANALYSIS leaves numaprobe-report out.
    if "analysis" in variants:
        if not re.search(r"define_from_variant\(\s*[\"']NPRB_ANALYSIS[\"']\s*,\s*[\"']analysis[\"']",
                         (root / "packaging/spack/package.py").read_text()):
            problems.append("package.py: cmake_args does not pass the analysis variant as "
                            "NPRB_ANALYSIS")
        if not re.search(r"^\s*option\(NPRB_ANALYSIS\b",
                         (root / "cmake/NprbInstall.cmake").read_text(), re.M):
            problems.append("cmake/NprbInstall.cmake has no option NPRB_ANALYSIS")

    ebs = sorted((root / "packaging/easybuild").glob("*.eb"))
    for recipe_file in [root / "packaging/spack/package.py", *ebs]:
        isa_bound(recipe_file, problems)
    if not ebs:
        problems.append("no easyconfig in packaging/easybuild")
    for eb in ebs:
        have, scope = easybuild_config(eb)
        toolchain = scope.get("toolchain", {})
        easybuild_checksums(eb, scope, pins, root, problems, notes)
        if toolchain.get("name") not in ("foss", "gompi"):
            problems.append(f"{eb.name}: toolchain {toolchain} does not provide Open MPI")
        # bash-completion looks in XDG_DATA_DIRS/bash-completion/completions, where CMake
        # installs the completions (share/, as the installed modulefiles set it too).
        xdg = scope.get("modextrapaths", {}).get("XDG_DATA_DIRS", [])
        if "share" not in ([xdg] if isinstance(xdg, str) else xdg):
            problems.append(f"{eb.name}: modextrapaths does not put share/ on XDG_DATA_DIRS: "
                            "bash-completion would not find the completions")
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

    for n in notes:
        print(f"note: {n}")
    for p in problems:
        print(f"FAIL: {p}")
    if problems:
        return 1
    print(f"consistent: {len(rows)} dependencies; CMake finds {', '.join(sorted(in_cmake))}; "
          f"package.py, {len(ebs)} easyconfig(s) and analysis/pyproject.toml match")
    print("pinned: " + ", ".join(f"{v} at commit {c}" for v, c in pins.items())
          + "; maintainers() present; each easyconfig has a sha256 per source; "
          "no recipe carries an ISA-bound flag")
    return 0


if __name__ == "__main__":
    sys.exit(main())
