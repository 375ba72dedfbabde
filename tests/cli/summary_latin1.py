#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""summary_latin1.py NUMAPROBE TINY OUTDIR [MPIEXEC...]

--summary-json with text that is not UTF-8: a Latin-1 -o path and a Latin-1 host name (set in a
private UTS namespace, `unshare -u`, so this machine's own name is never touched). The summary
keeps every key docs/summary.schema.json requires, with each such byte as \\xNN (as Python's
backslashreplace decodes it), on one rank and on two ranks of that host, where rank 0 must not
crash on the second rank's name and the host stays one entry holding both ranks.
Needs root (a UTS namespace) and Debian's python3-jsonschema; skips (77) without them."""
import json
import os
import shlex
import subprocess
import sys

try:
    import jsonschema
except ImportError as e:
    print(f"SKIP: {e}")
    sys.exit(77)

exe, tiny, outdir = sys.argv[1:4]
mpiexec = sys.argv[4:]
if subprocess.run(["unshare", "-u", "true"], capture_output=True).returncode != 0:
    print("SKIP: cannot make a UTS namespace here (needs root)")
    sys.exit(77)
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "..", "..", "docs", "summary.schema.json")) as f:
    validator = jsonschema.Draft202012Validator(json.load(f))
work = os.path.join(os.path.abspath(outdir), "summary_latin1")
os.makedirs(work, exist_ok=True)

HOST = b"caf\xe9-n1"  # Latin-1 e-acute: not UTF-8


class Failed(Exception):
    pass


def fail(msg):
    raise Failed(msg)


def check(name, launcher):
    h5 = os.path.join(os.fsencode(work), b"r\xe9-" + name.encode() + b".h5")
    js = os.path.join(work, f"{name}.json")
    for p in (h5, os.fsencode(js)):
        if os.path.lexists(p):
            os.unlink(p)
    # Each rank renames its own UTS namespace: mpiexec refuses a node name that is not ASCII.
    octal = "".join(f"\\{b:03o}" for b in HOST)
    inner = (f"printf '{octal}' >/proc/sys/kernel/hostname && exec {shlex.quote(exe)} "
             f"-c {shlex.quote(tiny)} -q -o \"$1\" --summary-json {shlex.quote(js)}")
    r = subprocess.run([*launcher, "unshare", "-u", "sh", "-c", inner, "sh", h5],
                       capture_output=True, timeout=240)
    out = r.stdout.decode("utf-8", "backslashreplace") + r.stderr.decode("utf-8", "backslashreplace")
    if r.returncode != 0:
        fail(f"{name}: exited {r.returncode}:\n{out[-2000:]}")
    if not os.path.exists(js):
        fail(f"{name}: no summary written")
    with open(js, encoding="utf-8") as f:
        summary = json.load(f)
    problems = [e.message for e in validator.iter_errors(summary)]
    if problems:
        fail(f"{name}: the summary breaks its schema: {problems}")
    want_file = h5.decode("utf-8", "backslashreplace")
    if summary["results_file"] != want_file:
        fail(f"{name}: results_file {summary['results_file']!r}, expected {want_file!r}")
    hosts = summary["hosts"]
    want_host = HOST.decode("utf-8", "backslashreplace")
    if [h["host"] for h in hosts] != [want_host]:
        fail(f"{name}: hosts {[h['host'] for h in hosts]!r}, expected one, {want_host!r}")
    ranks = 2 if launcher else 1
    if hosts[0]["ranks"] != list(range(ranks)):
        fail(f"{name}: the host holds ranks {hosts[0]['ranks']}, expected {list(range(ranks))}")
    print(f"ok: {name}: every key, host {want_host}, results_file {want_file}")


failed = 0
for name, launcher in (("one_rank", []), ("two_ranks", mpiexec)):
    if name == "two_ranks" and not mpiexec:
        continue
    try:
        check(name, launcher)
    except Failed as e:
        print(f"FAIL: {e}")
        failed += 1
sys.exit(1 if failed else 0)
