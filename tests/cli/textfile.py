#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""textfile.py MODE NUMAPROBE TINY OUTDIR [MPIEXEC... | FAKEHOSTS-MPIRUN]

numaprobe --textfile-dir DIR: each host writes its own OpenMetrics file, DIR/numaprobe.prom.

MODE local (one rank, then MPIEXEC's two ranks on this host):
- DIR is checked before anything is measured, --dry-run included: a missing directory, a file,
  a directory where the file goes and one this root cannot write in (/sys) are refused with
  exit 2, and no results file is begun;
- a run writes one file a host, mode 0644 whatever the umask, replacing the one there and
  leaving another collector's file and no temporary behind; promtool check metrics accepts it;
  its run id, config fingerprint, start and host are the results file's; each family it holds
  is, line for line, what `numaprobe-report openmetrics` writes of the same results file (two
  ranks of one host: one file, their cells together);
- a file that cannot be written at the end (NUMAPROBE_FAULT=textfile_full) is a warning: exit
  0, the results file written and valid, the previous file kept, no temporary left.
MODE fakehosts (FAKEHOSTS-MPIRUN over hosts a:1 and b:2, each host given its own directory):
one file on each host, its own host's, agreeing with the report's.

promtool is Debian's prometheus (tests/deps/analysis.txt): without it the rest still runs and the
test ends in a skip (77), except under CI=true, where it fails."""
import calendar
import os
import shutil
import stat
import subprocess
import sys
import time

try:
    import h5py
except ImportError as e:
    print(f"SKIP: {e}")
    sys.exit(77)

mode, exe, tiny, outdir = sys.argv[1:5]
launcher = sys.argv[5:]
exe, tiny = os.path.abspath(exe), os.path.abspath(tiny)
here = os.path.dirname(os.path.abspath(__file__))
report_cmd = os.path.join(here, "..", "..", "analysis", "numaprobe-report")
work = os.path.join(os.path.abspath(outdir), f"textfile-{mode}")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
PROMTOOL = shutil.which("promtool")
if PROMTOOL is None and os.environ.get("CI") == "true":
    print("FAIL: promtool not installed (Debian package prometheus, tests/deps/analysis.txt)")
    sys.exit(1)
FILE = "numaprobe.prom"
# The families a host always says of itself (numaprobe_noisy only where a figure is noisy).
ALWAYS = {"numaprobe_latency_seconds", "numaprobe_bandwidth_bytes_per_second",
          "numaprobe_host_ok", "numaprobe_run_start_timestamp_seconds", "numaprobe_host_info",
          "numaprobe_host_noisy_figures", "numaprobe_host_not_restored"}


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def run(args, prefix=(), env=None, umask=None):
    return subprocess.run([*prefix, exe, "-c", tiny, "-q", *args], capture_output=True, text=True,
                          timeout=300, env=env,
                          preexec_fn=(lambda: os.umask(umask)) if umask is not None else None)


def families(text):
    """{family: [its lines]}: its # HELP, # TYPE, # UNIT and samples, in the file's order."""
    out = {}
    for line in text.splitlines():
        if line == "# EOF":
            continue
        name = line.split(" ")[2] if line.startswith("# ") else line.split("{")[0]
        out.setdefault(name, []).append(line)
    return out


def label(line, key):
    return line.split(f'{key}="', 1)[1].split('"', 1)[0]


def check_file(path, h5, host):
    """The file at @p path: its mode, promtool's verdict, and the results file's facts."""
    mode_bits = stat.S_IMODE(os.stat(path).st_mode)
    if mode_bits != 0o644:
        fail(f"{path}: mode {oct(mode_bits)}, expected 0o644")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if not text.endswith("\n# EOF\n") or text.count("# EOF") != 1:
        fail(f"{path}: does not end with its one # EOF")
    if PROMTOOL is not None:
        p = subprocess.run([PROMTOOL, "check", "metrics"], input=text, capture_output=True,
                           text=True, timeout=60)
        if p.returncode != 0:
            fail(f"promtool check metrics {path}: {p.stdout}{p.stderr}")
    fam = families(text)
    missing = ALWAYS - set(fam)
    if missing:
        fail(f"{path}: no {sorted(missing)}")
    with h5py.File(h5, "r") as f:
        attrs = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in f.attrs.items()}
    info = fam["numaprobe_host_info"][-1]
    for key in ("run_id", "config_fingerprint"):
        if label(info, key) != attrs[key]:
            fail(f"{path}: {key} {label(info, key)}, the results file's {attrs[key]}")
    start = calendar.timegm(time.strptime(attrs["start_utc"], "%Y-%m-%dT%H:%M:%SZ"))
    if fam["numaprobe_run_start_timestamp_seconds"][-1].split()[-1] != f"{start}.0":
        fail(f"{path}: start {fam['numaprobe_run_start_timestamp_seconds'][-1]}, not {start}")
    hosts = {label(line, "host") for name, lines in fam.items() for line in lines
             if not line.startswith("#")}
    if hosts != {host}:
        fail(f"{path}: samples of hosts {sorted(hosts)}, expected {host} alone")
    if fam["numaprobe_host_ok"][-1].split()[-1] != "1":
        fail(f"{path}: host_ok is not 1 after a run that ended ok")
    return fam


def agrees_with_report(fam, h5, host, path):
    """Every family the host wrote is the report's of the same results file, line for line."""
    out = os.path.join(work, "report-" + os.path.basename(h5))
    env = dict(os.environ, NUMAPROBE_BIN=exe)
    p = subprocess.run(["/usr/bin/python3", report_cmd, "openmetrics", h5, "--out", out],
                       capture_output=True, text=True, timeout=300, env=env)
    if p.returncode != 0:
        fail(f"numaprobe-report openmetrics {h5}: exit {p.returncode}: {p.stderr[-500:]}")
    with open(os.path.join(out, f"{host}.prom"), encoding="utf-8") as f:
        theirs = families(f.read())
    for name, lines in fam.items():
        if theirs.get(name) != lines:
            fail(f"{path}: {name} differs from the report's:\n  ours:   {lines}\n"
                 f"  report: {theirs.get(name)}")


def hostname_of(h5):
    with h5py.File(h5, "r") as f:
        names = sorted({h.decode() for h in f["hosts"]["hostname"]})
    if len(names) != 1:
        fail(f"{h5}: hosts {names}, expected one")
    return names[0]


def refusals():
    """Refused before measuring: exit 2, the message naming the file, no results file begun."""
    plain = os.path.join(work, "plain-file")
    with open(plain, "w") as f:
        f.write("not a directory\n")
    holder = os.path.join(work, "holder")
    os.makedirs(os.path.join(holder, FILE))
    cases = [(os.path.join(work, "no-such-dir"), "No such file or directory"),
             (plain, "is not a directory"),
             (holder, "it is a directory"),
             ("/sys", "Permission denied")]
    h5 = os.path.join(work, "never.h5")
    for extra in ([], ["--dry-run"]):
        for d, why in cases:
            r = run(["-o", h5, "--textfile-dir", d, *extra])
            want = f"cannot write metrics to {os.path.join(d, FILE)}"
            if r.returncode != 2 or want not in r.stderr or why not in r.stderr:
                fail(f"--textfile-dir {d} {extra}: exit {r.returncode}: {r.stderr.strip()[-400:]}")
            if os.path.exists(h5) or os.path.exists(h5 + ".lock"):
                fail(f"--textfile-dir {d} refused, yet the results file was begun")
    print("ok: unusable directories refused before measuring (exit 2), --dry-run too")


def local():
    refusals()
    d = os.path.join(work, "textfile")
    os.makedirs(d)
    with open(os.path.join(d, "other.prom"), "w") as f:
        f.write("# another collector's file, left alone\n")
    with open(os.path.join(d, FILE), "w") as f:
        f.write("# an earlier run's, replaced\n")
    runs = [("singleton", ())] + ([("two ranks", tuple(launcher))] if launcher else [])
    for name, prefix in runs:
        h5 = os.path.join(work, f"{name.replace(' ', '-')}.h5")
        r = run(["-o", h5, "--textfile-dir", d], prefix=prefix, umask=0o077)
        if r.returncode != 0:
            fail(f"{name}: exit {r.returncode}: {r.stderr[-1500:]}")
        if sorted(os.listdir(d)) != ["numaprobe.prom", "other.prom"]:
            fail(f"{name}: {d} holds {sorted(os.listdir(d))}: one file, no temporary")
        host = hostname_of(h5)
        fam = check_file(os.path.join(d, FILE), h5, host)
        agrees_with_report(fam, h5, host, f"{name}: {FILE}")
        print(f"ok: {name}: {FILE} of {host}: {len(fam)} families, as the report writes them")

    # Written last and refused: a warning, the results file kept, the earlier file as it was.
    with open(os.path.join(d, FILE), encoding="utf-8") as f:
        before = f.read()
    h5 = os.path.join(work, "full.h5")
    r = run(["-o", h5, "--textfile-dir", d],
            env=dict(os.environ, NUMAPROBE_FAULT="textfile_full"))
    if r.returncode != 0 or "cannot write metrics to" not in r.stderr or \
            "No space left on device" not in r.stderr:
        fail(f"textfile_full: exit {r.returncode}: {r.stderr[-800:]}")
    c = subprocess.run([exe, "check", h5], capture_output=True, text=True, timeout=120)
    if c.returncode != 0:
        fail(f"textfile_full: the results file does not check: {c.stdout}{c.stderr}")
    with open(os.path.join(d, FILE), encoding="utf-8") as f:
        if f.read() != before:
            fail("textfile_full: the earlier file was changed")
    if sorted(os.listdir(d)) != ["numaprobe.prom", "other.prom"]:
        fail(f"textfile_full: {d} holds {sorted(os.listdir(d))}: the temporary was left")
    print("ok: a file that cannot be written: a warning, exit 0, results file kept")


def fakehosts():
    """Hosts a (one rank) and b (two): each host's ranks are given DIR/HOST, its own."""
    h5 = os.path.join(work, "fleet.h5")
    d = os.path.join(work, "nodes")
    for host in ("a", "b"):
        os.makedirs(os.path.join(d, host))
    inner = 'exec "$0" -c "$1" -q -o "$2" --textfile-dir "$3/$(hostname)"'
    r = subprocess.run([*launcher, "--hosts", "a:1,b:2", "--timeout", "240", "--",
                        "sh", "-c", inner, exe, tiny, h5, d],
                       capture_output=True, text=True, timeout=300)
    if r.returncode == 77:
        print(f"SKIP: fake hosts cannot run here: {r.stdout[-300:]}{r.stderr[-300:]}")
        sys.exit(77)
    if r.returncode != 0:
        fail(f"fake hosts: exit {r.returncode}: {r.stdout[-800:]}{r.stderr[-1500:]}")
    for host in ("a", "b"):
        there = os.path.join(d, host)
        if os.listdir(there) != [FILE]:
            fail(f"host {host}: {there} holds {sorted(os.listdir(there))}, expected {FILE}")
        fam = check_file(os.path.join(there, FILE), h5, host)
        agrees_with_report(fam, h5, host, f"host {host}: {FILE}")
        print(f"ok: host {host}: its own {FILE}, as the report writes it")


local() if mode == "local" else fakehosts()
if PROMTOOL is None:
    print("SKIP: promtool not installed (apt-get install prometheus): its checks did not run")
    sys.exit(77)
