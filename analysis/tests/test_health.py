# SPDX-License-Identifier: BSD-3-Clause
"""The loop from a fleet to its nodes' health checks, on fleets planted of a real host
(tests/tools/plant-fleet.py): this machine's quick run (NUMAPROBE_QUICK_ALL, set by ctest) and
tests/data's x86 host. `references` writes per node type and figure {ref, tol, hosts}, the refs
the type's medians, and `compare --references` reads the file back; `health` exits 0 on a
healthy host, 1 on a host with one node's bandwidth at 60% (its last line naming the metric and
node), 2 on a type not in the references, 2 on a noisy figure alone (even a low one), 1 on a
failure beside a noisy figure, 2 on a node the host has not; a type too small is left out and
named. Every health run ends on its one summary line (health.py's contract)."""

import json
import os
import re
import subprocess

import h5py
import pytest
from conftest import HERE, run_report
from fleet_edits import set_host

from numaprobe_analysis import health, references
from numaprobe_analysis.fleet import load_fleet
from numaprobe_analysis.metrics import hosts_frame

PLANT = os.path.normpath(os.path.join(HERE, os.pardir, os.pardir, "tests", "tools",
                                      "plant-fleet.py"))
DATA = os.path.normpath(os.path.join(HERE, os.pardir, os.pardir, "tests", "data"))
X86, ARM64 = (os.path.join(DATA, f"mixed-isa-{isa}.h5") for isa in ("x86", "arm64"))
QUICK = os.environ.get("NUMAPROBE_QUICK_ALL", "")
PER_NODE = ("latency_local_ns", "bw_read_local_gbs", "bw_triad_local_gbs")


def plant(source, out, *args):
    proc = subprocess.run(["/usr/bin/python3", PLANT, source, "-o", out, *map(str, args)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return out


def first_node(source):
    """The first NUMA node whose local read bandwidth the source measured."""
    with h5py.File(source, "r") as f:
        rows = f["bandwidth"][()]
    ok = ((rows["experiment"] == b"bandwidth_matrix") & (rows["status"] == b"ok")
          & (rows["kernel"] == b"read") & (rows["cpu_node"] == rows["mem_node"]))
    return int(rows["cpu_node"][ok].min())


def fingerprint(source):
    with h5py.File(source, "r") as f:
        return f["hosts"][()]["fingerprint"][0].decode()


def type_key(source):
    """The key references name the source's node type by (nodetypes.py's type_key)."""
    return str(hosts_frame(load_fleet([str(source)])).type_key.iloc[0])


def sources():
    out = [pytest.param(X86, id="data-x86")]
    reason = ("NUMAPROBE_QUICK_ALL not set: run through ctest" if not QUICK
              else f"{QUICK} absent: analysis.quick_run did not run")
    marks = [] if QUICK and os.path.exists(QUICK) else [pytest.mark.skip(reason=reason)]
    return out + [pytest.param(QUICK, id="quick-run", marks=marks)]


@pytest.fixture(scope="module", params=sources())
def site(request, tmp_path_factory):
    """12 hosts planted of the source (2% apart, uncertain by 2%), their references and the
    report's --json of the fleet (its type medians computed apart from the references)."""
    d = tmp_path_factory.mktemp("health")
    source = request.param
    fleet = plant(source, d / "fleet.h5", "-n", 12, "--uncertainty-pct", 2, "--spread-pct", 2)
    proc = run_report("references", fleet, "-o", d / "site.yaml")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    doc = d / "v.json"
    assert run_report(fleet, "--no-report", "--json", doc).returncode == 0
    return {"source": source, "dir": d, "fleet": fleet, "refs": d / "site.yaml", "proc": proc,
            "node": f"node {first_node(source)}", "json": json.loads(doc.read_text())}


def host(site, name, *plants):
    """One host (n01) of the source's figures exactly, quiet, with @p plants."""
    return plant(site["source"], site["dir"] / f"{name}.h5", "-n", 1, "--prefix", "n",
                 "--spread-pct", 0, "--uncertainty-pct", 2, "--force", *plants)


def check_health(refs, path):
    """health's run: (exit status, its lines but the last, the last). Every run, whatever its
    verdict, ends on one summary line under 120 characters (the drain reason's contract)."""
    proc = run_report("health", "--references", refs, path)
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    lines = proc.stdout.rstrip("\n").split("\n")
    last = lines[-1]
    assert last.startswith("numaprobe: ") and len(last) < 120, proc.stdout
    assert all(line.startswith("numaprobe health: ") for line in lines[:-1]), proc.stdout
    return proc.returncode, lines[:-1], last


def test_references_are_the_type_medians(site):
    """Every judged figure with enough quiet hosts, whole host and per node, the ref its type's
    median (the report's, rounded to 4 digits), resting on the 12 hosts."""
    refs = references.load(site["refs"])
    fp = type_key(site["source"])
    assert list(refs) == [fp], refs
    text = site["refs"].read_text()
    written = {k: v for k, v in ((json.loads(line.split(":")[0].strip()), line)
                                 for line in text.splitlines() if line.startswith("  "))}
    medians = {r["metric_key"]: r for r in site["json"]["type_medians"]}
    judged = {m["key"] for m in site["json"]["metrics"] if m["judged"]}
    expected = {k for k in judged if medians[k]["hosts"] >= 5}
    assert expected and expected <= set(refs[fp]), (expected, refs[fp])
    for key in expected:
        lo, hi, tol = refs[fp][key]
        assert hi is None and 5 <= tol < 100, (key, refs[fp][key])
        assert lo == float(f"{medians[key]['median']:.4g}"), (key, lo, medians[key])
        assert "hosts: 12}" in written[key], written[key]
    for key in PER_NODE:
        assert f"{key}@{site['node']}" in refs[fp], refs[fp]
    # The label above its key, for the people who edit it.
    label = site["json"]["node_types"][0]["type"]
    assert f"# {label}: 12 host(s)" in text
    proc = run_report("compare", "--references", site["refs"], site["fleet"])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "12 host(s) matched references, 0 outside them, 0 figure(s) not judged" in \
        proc.stdout


def test_an_existing_file_is_not_replaced(site):
    proc = run_report("references", site["fleet"], "-o", site["refs"])
    assert proc.returncode == 2 and "--force replaces it" in proc.stderr, proc.stderr
    again = site["dir"] / "again.yaml"
    again.write_text("# a site's edits\n")
    assert run_report("references", site["fleet"], "-o", again, "--force").returncode == 0
    assert references.load(again) == references.load(site["refs"])


def test_healthy_host(site):
    status, lines, last = check_health(site["refs"], host(site, "healthy"))
    n = len(references.load(site["refs"])[type_key(site["source"])])
    assert status == 0, lines + [last]
    assert lines == [f"numaprobe health: ok n01: {n} figure(s) judged, none worse than the "
                     f"references"]
    assert last == f"numaprobe: healthy, {n} figures"


def test_one_node_at_sixty_percent_fails(site):
    node = site["node"]
    path = host(site, "slow", "--scale", f"bw_read_local_gbs@{node}=0.6")
    status, lines, last = check_health(site["refs"], path)
    assert status == 1, lines + [last]
    fail = re.compile(rf"numaprobe health: FAIL n01 bw_read_local_gbs {node}: ([0-9.]+) GB/s "
                      rf"below min ([0-9.]+) GB/s \(ref ([0-9.]+), tol ([0-9]+)%\)")
    found = [m for m in map(fail.fullmatch, lines) if m]
    assert len(found) == 1, lines
    value, low, ref, tol = map(float, found[0].groups())
    assert value == pytest.approx(0.6 * ref, rel=0.03)
    assert low == pytest.approx(ref * (1 - tol / 100), abs=0.06)
    assert re.fullmatch(rf"numaprobe: bw_read_local_gbs {node} [0-9.]+ < [0-9.]+ GB/s"
                        rf"( \(\+[0-9]+ more\))?", last), last
    # Only the planted figures fail: the node's, and the host's median where it is the node's.
    assert all("bw_read_local_gbs" in line for line in lines), lines


def test_a_host_that_lost_a_dimm_is_judged_in_its_type(site):
    """Memory gone from the host (another fingerprint, less memory) leaves its type as it was:
    the health check finds it in the references and fails it on the node's bandwidth, where a
    type keyed by fingerprint would have let it pass as not judged."""
    node = site["node"]
    path = host(site, "dimm", "--scale", f"bw_read_local_gbs@{node}=0.6")
    with h5py.File(path, "r") as f:
        memory = int(f["hosts"][()]["memory_bytes"][0])
    set_host(path, "n01", fingerprint="0123456789abcdef", memory_bytes=memory * 3 // 4)
    assert fingerprint(path) != fingerprint(site["source"])
    status, lines, last = check_health(site["refs"], path)
    assert status == 1, lines + [last]
    assert last.startswith(f"numaprobe: bw_read_local_gbs {node} "), last


def test_faster_than_its_type_is_no_failure(site):
    """Bandwidth above max and latency below min are shown, never a reason to drain."""
    node = site["node"]
    path = host(site, "fast", "--scale", f"bw_read_local_gbs@{node}=1.6", "--scale",
                f"latency_local@{node}=0.5")
    status, lines, last = check_health(site["refs"], path)
    assert status == 0, lines + [last]
    assert any(line.startswith(f"numaprobe health: BETTER n01 bw_read_local_gbs {node}: ")
               and " GB/s above max " in line for line in lines), lines
    assert any(line.startswith(f"numaprobe health: BETTER n01 latency_local_ns {node}: ")
               and " ns below min " in line for line in lines), lines
    assert re.fullmatch(r"numaprobe: healthy, [0-9]+ figures", last), last


def test_type_not_in_the_references(site):
    status, lines, last = check_health(site["refs"], ARM64)
    assert status == 2 and last == "numaprobe: not judged: type not in references", lines
    assert len(lines) == 1 and "is not in the references" in lines[0], lines


def test_noise_alone_never_fails(site):
    """A noisy figure is not judged (2), even at 60% of its reference: noise alone never
    drains a node. The same 60% measured quietly fails (the control)."""
    node = site["node"]
    for plants in ([], ["--scale", f"bw_read_local_gbs@{node}=0.6"]):
        path = host(site, "noisy", "--noisy", f"bw_read_local_gbs@{node}=60", *plants)
        status, lines, last = check_health(site["refs"], path)
        assert status == 2, lines + [last]
        assert not any(" FAIL " in line for line in lines), lines
        assert f"NOT JUDGED n01 bw_read_local_gbs {node}: noisy: uncertainty 60%" in \
            "\n".join(lines), lines
        assert re.fullmatch(r"numaprobe: not judged: bw_read_local_gbs( node [0-9]+)? noisy"
                            r"( \(\+[0-9]+ more\))?", last), last


def test_a_failure_wins_over_a_noisy_figure(site):
    node = site["node"]
    path = host(site, "both", "--scale", f"latency_local@{node}=1.5", "--noisy",
                "bw_triad_local=60")
    status, lines, last = check_health(site["refs"], path)
    assert status == 1, lines + [last]
    assert any(line.startswith(f"numaprobe health: FAIL n01 latency_local_ns {node}: ")
               and " ns above max " in line for line in lines), lines
    assert any("NOT JUDGED n01 bw_triad_local_gbs" in line for line in lines), lines
    assert re.match(rf"numaprobe: latency_local_ns {node} [0-9.]+ > [0-9.]+ ns", last), last


def test_a_node_the_host_has_not(site):
    """A reference on node 7 of a host without it: not judged, naming the nodes it has."""
    refs = site["dir"] / "node7.yaml"
    refs.write_text(site["refs"].read_text() + '  "bw_read_local_gbs@node 7": {min: 1}\n')
    status, lines, last = check_health(refs, host(site, "healthy"))
    assert status == 2, lines + [last]
    assert (f"numaprobe health: NOT JUDGED n01 bw_read_local_gbs node 7: no value for node 7 "
            f"(this host has {site['node']})") in lines, lines
    assert last == "numaprobe: not judged: bw_read_local_gbs node 7 no such node"


def test_a_type_too_small_is_left_out(tmp_path):
    """12 x86 hosts and 3 Arm64 hosts of one config: the Arm64 type is named and left out."""
    x86 = plant(X86, tmp_path / "x86.h5", "-n", 12, "--uncertainty-pct", 2)
    arm = plant(ARM64, tmp_path / "arm.h5", "-n", 3, "--prefix", "arm", "--uncertainty-pct", 2)
    out = tmp_path / "site.yaml"
    proc = run_report("references", x86, arm, "-o", out)
    assert proc.returncode == 0, proc.stderr
    with h5py.File(ARM64, "r") as f:
        label = f["hosts"][()]["node_type"][0].decode()
    assert f"left out '{label}' (fingerprint {fingerprint(ARM64)}): 3 host(s), too few to " \
           f"judge (fewer than --min-hosts 5)" in proc.stderr, proc.stderr
    assert f"# left out: {label} (fingerprint {fingerprint(ARM64)}): 3 host(s)" in \
        out.read_text()
    assert list(references.load(out)) == [type_key(X86)]
    # None large enough: nothing written, exit 2.
    proc = run_report("references", arm, "-o", tmp_path / "none.yaml")
    assert proc.returncode == 2 and not (tmp_path / "none.yaml").exists(), proc.stderr


@pytest.mark.parametrize("text,why", [
    ('"x":\n  "bw_read_local_gbs@node1": {ref: 10, tol: "5%"}\n',
     "expected METRIC, METRIC@node N or METRIC@CLASS pairs"),
    ('"x":\n  "bw_read_local_gbs": {ref: 10, tol: "5%", hosts: many}\n',
     "hosts 'many': expected a whole number")], ids=["node-key", "hosts"])
def test_malformed_references_are_refused(tmp_path, text, why):
    refs = tmp_path / "bad.yaml"
    refs.write_text(text)
    status, lines, last = check_health(refs, X86)
    assert status == 2 and why in lines[0], lines
    assert last == "numaprobe: not judged: cannot read the references"
    proc = run_report("compare", "--references", refs, X86)
    assert proc.returncode == 2 and why in proc.stderr, proc.stderr


def test_summary_line_is_cut_to_fit():
    line = health.summary_line("not judged: " + "x" * 300)
    assert len(line) == health.LINE_MAX - 1 and line.endswith("...")
