#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""check-docs.py ROOT [--installed PREFIX] [--run-blocks --path DIR...] | --self-test

The README and docs say what is true of this checkout, and of an installation of it:

- names: every repository path they give (`src/...`, `docs/...`, `jobs/...`: a path whose
  first part is a top-level directory of the repository) exists, in prose and in shell blocks
  (output blocks, which show what a run printed, are not read); a name with a placeholder part
  (NAME, VERSION) or followed by a glob or <...> is a pattern, not a name;
- schema versions: every "schema X.Y.Z" is NPRB_SCHEMA_VERSION of src/results/results.h, unless
  the words just before it say it is about an older file ("since", "before", "older", "until",
  "up to", "added in", "a file of", "the binary of", "as of");
- package names: every numaprobe_*.deb is the name CPack writes, numaprobe_VERSION-RELEASE_ARCH.deb
  (the project's version in CMakeLists.txt, the Debian revision in cmake/NprbPackaging.cmake);
- links: every relative link resolves, to a file or directory of the checkout, and its #anchor
  to a heading of the target (GitHub's anchors); with --installed, the same for every Markdown
  file of PREFIX/share/doc/numaprobe and PREFIX/share/numaprobe/jobs, and every doc read here is
  installed (packaging/README.md as PACKAGING.md; the job scripts' READMEs with them);
- runnable blocks: with --run-blocks, each shell block right after a `<!-- runnable -->` line
  runs (bash -e -o pipefail, in ROOT, with each --path DIR first on PATH) and exits 0 within
  120 s. Mark only blocks that are cheap and change nothing (--version, --dry-run).

Docs read: README.md, docs/*.md, packaging/README.md, jobs/README.md and jobs/nightly/README.md. Exits 0 when all hold, 1 listing every fault.
--self-test checks the checker: a planted fault of each kind must be found, and the same docs
without them must pass."""

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

RUNNABLE = "<!-- runnable -->"
PACKAGING_READMES = ("packaging/README.md", "jobs/README.md", "jobs/nightly/README.md")
SHELL = {"sh", "bash", "shell", "console"}
OLDER = re.compile(r"(since|before|older|until|up to|added in|files? of|binary of|as of)\W*$",
                   re.I)
SCHEMA = re.compile(r"\bschema(?: version)? (\d+\.\d+\.\d+)\b")
LINK = re.compile(r"\[([^\]]*)\]\(([^)\s]+)\)")
PLACEHOLDER = re.compile(r"^[A-Z][A-Z_]+$")
DEB = re.compile(r"\bnumaprobe_[\w.+~-]*\.deb\b")


def docs_of(root):
    """README.md, docs/*.md, and the READMEs of packaging and the job scripts that the README
    sends a site to."""
    return [root / "README.md", *sorted((root / "docs").glob("*.md")),
            *(root / d for d in PACKAGING_READMES if (root / d).exists())]


def schema_version(root):
    text = (root / "src/results/results.h").read_text()
    m = re.search(r'#define NPRB_SCHEMA_VERSION "([0-9.]+)"', text)
    if not m:
        sys.exit(f"{root}/src/results/results.h: no NPRB_SCHEMA_VERSION")
    return m.group(1)


def deb_name(root):
    """The .deb's name as CPack writes it, its architecture as a pattern."""
    version = re.search(r"project\(numaprobe\s+VERSION\s+([0-9.]+)",
                        (root / "CMakeLists.txt").read_text())
    release = re.search(r"set\(CPACK_DEBIAN_PACKAGE_RELEASE\s+(\S+)\)",
                        (root / "cmake/NprbPackaging.cmake").read_text())
    if not version or not release:
        sys.exit(f"{root}: no project version in CMakeLists.txt or no Debian revision in "
                 "cmake/NprbPackaging.cmake")
    return re.compile(r"numaprobe_(%s|VERSION)-%s_(amd64|arm64|ARCH)\.deb" % (
        re.escape(version.group(1)), re.escape(release.group(1))))


def check_debs(doc, text, wanted, faults):
    for number, line, _, _ in lines_to_read(text):
        for m in DEB.finditer(line):
            if "*" in line[m.start():m.end() + 1] or wanted.fullmatch(m.group(0)):
                continue
            faults.append(f"{doc}:{number}: names {m.group(0)}; CPack writes "
                          f"{wanted.pattern.replace(chr(92), '').replace('|VERSION', '')}")


def top_dirs(root):
    """The folders of the project: in a checkout those git tracks, so that what a run left there
    (quickstart's results/, a build) is never taken for one; elsewhere (an installation) all."""
    tracked = subprocess.run(["git", "-C", str(root), "ls-files"], capture_output=True,
                             text=True, check=False)
    if tracked.returncode == 0 and tracked.stdout:
        return sorted({f.split("/")[0] for f in tracked.stdout.splitlines() if "/" in f})
    return sorted(p.name for p in root.iterdir()
                  if p.is_dir() and p.name not in (".git",) and not p.name.startswith("build"))


def lines_to_read(text):
    """(number, line, in_shell_block, runnable) of the prose and the shell blocks; the lines of
    other fenced blocks (output, YAML, JSON, Python) are left out, and so are the fences."""
    out, fence, lang, runnable, marked = [], None, "", False, False
    for number, line in enumerate(text.splitlines(), 1):
        m = re.match(r"^\s*(```+)\s*(\w*)", line)
        if fence is None and m:
            fence, lang, runnable = m.group(1), m.group(2).lower(), marked
            marked = False
            continue
        if fence is not None:
            if line.strip() == fence:
                fence = None
            elif lang in SHELL:
                out.append((number, line, True, runnable))
            continue
        marked = line.strip() == RUNNABLE
        out.append((number, line, False, False))
    return out


def check_names(doc, text, root, faults):
    dirs = top_dirs(root)
    path = re.compile(r"(?<![\w./~$@-])((?:%s)/[\w.+/-]*[\w+/])" % "|".join(map(re.escape, dirs)))
    for number, line, _, _ in lines_to_read(text):
        line = re.sub(r"\b[a-z]+://\S+", "", line)
        for m in path.finditer(line):
            name = m.group(1).rstrip("/")
            if line[m.end():m.end() + 1] in ("<", "*", "{", "$", "[") or (root / name).exists():
                continue
            stems = [part.split(".")[0] for part in name.split("/")]
            if any(PLACEHOLDER.match(s) for s in stems):
                continue
            faults.append(f"{doc}:{number}: names {name}, which is not in the repository")


def check_schema(doc, text, current, faults):
    for number, line, _, _ in lines_to_read(text):
        for m in SCHEMA.finditer(line):
            if m.group(1) == current or OLDER.search(line[:m.start()][-30:]):
                continue
            faults.append(f"{doc}:{number}: names schema {m.group(1)}, the current one is "
                          f"{current} (src/results/results.h): update it, or say it is about "
                          f"an older file (\"since schema {m.group(1)}\", \"a file of schema "
                          f"...\")")


def anchors(md):
    """GitHub's anchors of a Markdown file's headings: lower case, punctuation dropped but - and
    _, spaces as -, a repeated one numbered."""
    seen, found = {}, set()
    fence = None
    for line in md.read_text().splitlines():
        m = re.match(r"^\s*(```+)", line)
        if m:
            fence = None if fence == m.group(1) else (fence or m.group(1))
            continue
        h = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if fence is None and h:
            slug = re.sub(r"[^\w\- ]", "", h.group(1).lower().replace("`", "")).replace(" ", "-")
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def check_links(doc, text, faults, shown=None):
    for number, line, in_shell, _ in lines_to_read(text):
        if in_shell:
            continue
        for m in LINK.finditer(line):
            target = m.group(2)
            if re.match(r"^[a-z]+:", target) or target.startswith("/"):
                continue
            path, _, anchor = target.partition("#")
            dest = (doc.parent / path).resolve() if path else doc
            where = f"{shown or doc}:{number}"
            if not dest.exists():
                faults.append(f"{where}: link {target}: {dest} does not exist")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                faults.append(f"{where}: link {target}: {dest.name} has no heading #{anchor}")


def blocks(text):
    """The runnable shell blocks: (first line number, script)."""
    found, current = [], None
    for number, line, in_shell, runnable in lines_to_read(text):
        if in_shell and runnable:
            if current is None or number != current[2] + 1:
                current = [number, [], number]
                found.append(current)
            current[1].append(line)
            current[2] = number
    return [(n, "\n".join(body)) for n, body, _ in found]


def run_blocks(doc, text, root, paths, faults):
    env = dict(os.environ, PATH=os.pathsep.join([*paths, os.environ.get("PATH", "")]))
    ran = 0
    for number, script in blocks(text):
        ran += 1
        try:
            proc = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=root,
                                  env=env, capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            faults.append(f"{doc}:{number}: the runnable block did not end within 120 s")
            continue
        if proc.returncode != 0:
            faults.append(f"{doc}:{number}: the runnable block exited {proc.returncode}:\n"
                          f"{script}\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    return ran


def check(root, installed=None, run=False, paths=()):
    root = Path(root).resolve()
    faults, current, deb, ran = [], schema_version(root), deb_name(root), 0
    for doc in docs_of(root):
        text = doc.read_text()
        rel = doc.relative_to(root)
        check_names(rel, text, root, faults)
        check_schema(rel, text, current, faults)
        check_debs(rel, text, deb, faults)
        check_links(doc, text, faults, shown=rel)
        if run:
            ran += run_blocks(rel, text, root, paths, faults)
    if run and ran == 0:
        faults.append("no block is marked runnable (<!-- runnable --> before a ```sh block)")
    if installed:
        docdir = Path(installed).resolve() / "share/doc/numaprobe"
        for doc in docs_of(root):
            rel = str(doc.relative_to(root))
            if rel.startswith("jobs/"):
                continue  # installed with the job scripts, share/numaprobe/jobs
            name = "PACKAGING.md" if rel == "packaging/README.md" else doc.name
            if not (docdir / name).exists():
                faults.append(f"{rel} is not installed in {docdir} (as {name})")
        jobs = Path(installed).resolve() / "share/numaprobe/jobs"
        for md in [*sorted(docdir.glob("*.md")), *sorted(jobs.rglob("*.md"))]:
            check_links(md, md.read_text(), faults)
    return faults, ran


def self_test():
    """Each planted fault is found, by the kind of check meant to find it; without them, none."""
    good = """# Top
## The part
See [the config](docs/CONFIG.md#keys), [here](#the-part), [LICENSE](LICENSE), `src/a.c`,
`src/NAME.c`, `configs/*.yaml`, the schema 0.9.0 (files of schema 0.2.0 too; since schema 0.3.0).
`numaprobe_1.2.0-1_amd64.deb`, `numaprobe_1.2.0-1_ARCH.deb`.

<!-- runnable -->
```sh
true
```

```
src/printed-by-a-run.c is output, not a name
```
"""
    planted = {
        "dead link": ("[gone](docs/GONE.md)", "docs/GONE.md"),
        "dead anchor": ("[gone](docs/CONFIG.md#nowhere)", "has no heading #nowhere"),
        "missing name": ("`src/missing.c`", "names src/missing.c"),
        "stale schema": ("schema 0.6.0", "names schema 0.6.0"),
        "failing block": ("<!-- runnable -->\n```sh\nfalse\n```", "exited 1"),
        "package name": ("`numaprobe_1.2.0_amd64.deb`", "names numaprobe_1.2.0_amd64.deb"),
    }
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for name, text in {"docs/CONFIG.md": "# Config\n## Keys\n", "LICENSE": "",
                           "src/a.c": "", "src/results/results.h":
                           '#define NPRB_SCHEMA_VERSION "0.9.0"\n',
                           "CMakeLists.txt": "project(numaprobe VERSION 1.2.0 LANGUAGES C)\n",
                           "cmake/NprbPackaging.cmake": "set(CPACK_DEBIAN_PACKAGE_RELEASE 1)\n"
                           }.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
        (root / "README.md").write_text(good)
        faults, ran = check(root, run=True)
        problems = [f"the good docs fail: {f}" for f in faults]
        if ran != 1:
            problems.append(f"the good docs ran {ran} runnable block(s), not 1")
        for what, (line, expect) in planted.items():
            (root / "README.md").write_text(good + "\n" + line + "\n")
            faults, _ = check(root, run=True)
            if not any(expect in f for f in faults):
                problems.append(f"a planted {what} ({line!r}) was not found: {faults}")
    for p in problems:
        print(f"FAIL: {p}")
    if not problems:
        print(f"the checker finds each of {len(planted)} planted faults and passes the docs "
              "without them")
    return 1 if problems else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    args, installed, run, paths = argv[1:], None, False, []
    root = args.pop(0)
    while args:
        opt = args.pop(0)
        if opt == "--installed":
            installed = args.pop(0)
        elif opt == "--run-blocks":
            run = True
        elif opt == "--path":
            paths.append(args.pop(0))
        else:
            sys.exit(f"check-docs.py: unknown option {opt}")
    faults, ran = check(root, installed, run, paths)
    for f in faults:
        print(f"FAIL: {f}")
    if faults:
        return 1
    print(f"README.md, docs/*.md and {', '.join(PACKAGING_READMES)}: names, schema versions, "
          "package names and links hold"
          + (f"; {ran} runnable block(s) ran" if run else "")
          + (f"; the installed docs' links resolve in {installed}" if installed else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
