#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""summary_json.py NUMAPROBE TINY OUTDIR [MPIEXEC...]

numaprobe --summary-json FILE: the path is checked before anything is measured (exit 2, no
results file: an existing file without --force, a directory, a FIFO, a missing directory, and
any of the job's own files however spelled: the results file, its lock, its checkpoint
directory and what is in it, its temporary names); a run writes a summary that
docs/summary.schema.json accepts, whose run id, config fingerprint and hosts agree with the
results file; --summary-json - puts that JSON alone on stdout and the report on stderr; two
ranks on one host (a rank per NUMA node) give one host entry holding both ranks, whose figures
cover both; each figure's uncertainty_pct is the largest of its local cells' in the results file
and noisy says whether it is above `numaprobe --schema`'s noisy_pct.
Needs Debian's python3-jsonschema and python3-h5py; skips (77) without them."""
import json
import os
import subprocess
import sys

try:
    import h5py
    import jsonschema
except ImportError as e:
    print(f"SKIP: {e}")
    sys.exit(77)

exe, tiny, outdir = sys.argv[1:4]
mpiexec = sys.argv[4:]
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "..", "..", "docs", "summary.schema.json")) as f:
    schema = json.load(f)
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
os.makedirs(outdir, exist_ok=True)


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def run(args, launcher=()):
    return subprocess.run([*launcher, exe, "-c", tiny, "-q", *args], capture_output=True,
                          text=True, timeout=240)


def fresh(*paths):
    for p in paths:
        if os.path.lexists(p):
            os.unlink(p)


h5 = os.path.join(outdir, "summary.h5")
js = os.path.join(outdir, "summary.json")

# Refused before measuring: exit 2, a message naming the summary, no results file.
taken = os.path.join(outdir, "taken.json")
with open(taken, "w") as f:
    f.write("{}")
fifo = os.path.join(outdir, "fifo.json")
fresh(fifo)
os.mkfifo(fifo)
checkpoints = h5 + ".checkpoints"
elsewhere = os.path.basename(outdir)
refusals = [
    (taken, "exists"),
    (outdir, "directory"),
    (fifo, "a FIFO"),
    (os.path.join(outdir, "no-such-dir", "s.json"), "no-such-dir"),
    # The job's own files, by what the path names, not how it is spelled.
    (h5, "it is the results file"),
    (os.path.join(outdir, ".", "summary.h5"), "it is the results file"),
    (os.path.join(outdir, "..", elsewhere, "summary.h5"), "it is the results file"),
    (h5 + ".lock", "it is the lock of the results file"),
    (checkpoints, "it is the checkpoint directory of the results file"),
    (h5 + ".tmp-1", "it is a temporary name of the results file"),
]
for path, why in refusals:
    fresh(h5)
    r = run(["-o", h5, "--summary-json", path])
    if r.returncode != 2 or "cannot write the summary to" not in r.stderr or why not in r.stderr:
        fail(f"--summary-json {path}: exit {r.returncode}, stderr: {r.stderr.strip()[-300:]}")
    if os.path.exists(h5) or os.path.exists(h5 + ".lock"):
        fail(f"--summary-json {path} refused, yet something was measured or locked")
with open(taken) as f:
    if f.read() != "{}":
        fail("an existing summary was overwritten without --force")
# The checkpoint directory as it exists (an earlier job's, or an empty one), and a file in it.
os.makedirs(checkpoints, exist_ok=True)
for path in (checkpoints, os.path.join(checkpoints, "s.json")):
    fresh(h5)
    r = run(["-o", h5, "--summary-json", path])
    if r.returncode != 2 or "checkpoint directory of the results file" not in r.stderr:
        fail(f"--summary-json {path}: exit {r.returncode}, stderr: {r.stderr.strip()[-300:]}")
os.rmdir(checkpoints)
# A hard link to an existing results file is that file, even with --force.
with open(h5, "w") as f:
    f.write("earlier")
linked = os.path.join(outdir, "linked.json")
fresh(linked)
os.link(h5, linked)
r = run(["-o", h5, "--summary-json", linked, "--force"])
if r.returncode != 2 or "it is the results file" not in r.stderr:
    fail(f"--summary-json (hard link): exit {r.returncode}, stderr: {r.stderr.strip()[-300:]}")
with open(h5) as f:
    if f.read() != "earlier":
        fail("a refused summary path let the results file be replaced")
fresh(linked, fifo)


def check(summary_path, h5_path, ranks, text=None):
    """The summary at summary_path (or in text, from stdout) against the schema and h5_path."""
    if text is None:
        with open(summary_path) as f:
            text = f.read()
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        fail(f"{summary_path} is not one JSON document: {e}: {text[:300]!r}")
    errors = sorted(validator.iter_errors(doc), key=str)
    if errors:
        fail(f"{summary_path} does not match the schema: {errors[0]}")
    with h5py.File(h5_path, "r") as f:
        attrs = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in f.attrs.items()}
        hosts = f["hosts"][()]
    for key in ("run_id", "config_fingerprint"):
        if doc[key] != attrs[key]:
            fail(f"{key}: summary {doc[key]}, results file {attrs[key]}")
    if doc["status"] != "ok" or doc["exit_code"] != 0 or not doc["results_written"]:
        fail(f"statuses: {doc['status']} {doc['exit_code']} {doc['results_written']}")
    if doc["ranks"] != ranks:
        fail(f"ranks {doc['ranks']}, expected {ranks}")
    names = sorted(set(h["hostname"].decode() for h in hosts))
    if sorted(h["host"] for h in doc["hosts"]) != names:
        fail(f"hosts {[h['host'] for h in doc['hosts']]} against {names}: one entry a host")
    by_host = {n: sorted(int(h["rank"]) for h in hosts if h["hostname"].decode() == n)
               for n in names}
    for h in doc["hosts"]:
        if sorted(h["ranks"]) != by_host[h["host"]]:
            fail(f"{h['host']}: ranks {h['ranks']}, the results file says {by_host[h['host']]}")
    first = doc["hosts"][0]
    if first["local_latency_ns"] is None or first["local_read_gbs"] is None:
        fail(f"rank 0 lacks its headline figures: {first}")
    with h5py.File(h5_path, "r") as f:
        lat, bw = f["latency"][()], f["bandwidth"][()]
    for h in doc["hosts"]:
        for key, rows, kernel in (("local_latency_ns", lat, None), ("local_read_gbs", bw, b"read"),
                                  ("local_triad_gbs", bw, b"triad")):
            want = cells_uncertainty(rows, h["host"], kernel)
            got = h["uncertainty_pct"][key]
            if (got is None) != (want is None) or (got is not None
                                                   and abs(got - want) > 1e-3 * max(1, want)):
                fail(f"{h['host']} {key}: uncertainty_pct {got}, its cells say {want}")
            if h["noisy"][key] != (want is not None and want > noisy_pct):
                fail(f"{h['host']} {key}: noisy {h['noisy'][key]} for {want}% (limit "
                     f"{noisy_pct}%)")
    return doc


def cells_uncertainty(rows, host, kernel):
    """The largest uncertainty of @p host's local bound cells of the matrix (latency when
    @p kernel is None), the burst's spread where a row has none; None without such a cell."""
    sel = [r for r in rows if r["hostname"].decode() == host and r["mem_policy"] == b"bind"
           and r["pair_class"] == b"local" and r["status"] == b"ok"
           and r["experiment"] == (b"latency_matrix" if kernel is None else b"bandwidth_matrix")
           and (kernel is None or r["kernel"] == kernel)]
    values = []
    for r in sel:
        u = float(r["uncertainty_pct"])
        if u != u:  # NaN: the burst's spread
            u = (100 * (r["latency_ns_p90"] - r["latency_ns_min"]) / r["latency_ns_min"]
                 if kernel is None else 100 * abs(r["gbs_best"] - r["gbs_median"]) / r["gbs_best"])
        values.append(float(u))
    return max(values) if values else None


noisy_pct = json.loads(subprocess.run([exe, "--schema"], capture_output=True, text=True,
                                      check=True).stdout)["noisy_pct"]


fresh(h5, js)
r = run(["-o", h5, "--summary-json", js])
if r.returncode != 0:
    fail(f"run: exit {r.returncode}: {r.stderr.strip()[-500:]}")
check(js, h5, 1)
# --force replaces an existing summary, as it does the results file.
r = run(["-o", h5, "--summary-json", js, "--force"])
if r.returncode != 0:
    fail(f"--force run: exit {r.returncode}: {r.stderr.strip()[-500:]}")
doc = check(js, h5, 1)
# "-": the JSON alone on stdout, the report on stderr, the results file as ever.
fresh(h5)
r = run(["-o", h5, "--summary-json", "-"])
if r.returncode != 0:
    fail(f"--summary-json -: exit {r.returncode}: {r.stderr.strip()[-500:]}")
check("stdout", h5, 1, text=r.stdout)
if "NUMA matrices per host" not in r.stderr:
    fail(f"--summary-json -: the report is not on stderr: {r.stderr.strip()[-500:]}")
if mpiexec:
    h5b, jsb = os.path.join(outdir, "summary2.h5"), os.path.join(outdir, "summary2.json")
    fresh(h5b, jsb)
    r = run(["-o", h5b, "--summary-json", jsb], launcher=mpiexec)
    if r.returncode != 0:
        fail(f"mpirun: exit {r.returncode}: {r.stderr.strip()[-500:]}")
    check(jsb, h5b, 2)
    # No other rank writes to stdout: it still holds the one JSON document.
    fresh(h5b)
    r = run(["-o", h5b, "--summary-json", "-"], launcher=mpiexec)
    if r.returncode != 0:
        fail(f"mpirun, --summary-json -: exit {r.returncode}: {r.stderr.strip()[-500:]}")
    check("stdout", h5b, 2, text=r.stdout)
print(f"ok: summaries valid against docs/summary.schema.json; local latency "
      f"{doc['hosts'][0]['local_latency_ns']:.1f} ns")
