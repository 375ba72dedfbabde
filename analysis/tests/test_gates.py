# SPDX-License-Identifier: BSD-3-Clause
"""Gates that fail safe, and the verdict where a reader looks. Exit 1 means a finding and only
that; what cannot be judged (a reference bound on an unknown peak, a figure missing, PyYAML
missing for a YAML file, a defect of the command) is exit 2 with one line, never a pass and
never a traceback. The report's stdout ends on one verdict line; the HTML caps its outlier
sentences and keeps every outlier in the table."""

import html
import os
import re

import pytest
from conftest import run_report

import fleet_edits
import synthetic_fleet

ICX, ROME = (t["node_type"] for t in synthetic_fleet.TYPES)


@pytest.fixture(scope="module")
def fleet(tmp_path_factory):
    """10 hosts: rome02 35% slower to local memory; icx03's peak unknown (peak_gbs 0: no DIMM
    speed from SMBIOS, none configured); icx02's local latency rows all failed."""
    d = tmp_path_factory.mktemp("gates")
    path = d / "b.h5"
    synthetic_fleet.write_fleet(str(path), 10, seed=2, factors={"rome02": {"latency_local": 1.3}})
    fleet_edits.set_host(str(path), "icx03", peak_gbs=0.0)

    def fail_local(rows):
        sel = (rows["hostname"] == b"icx02") & (rows["cpu_node"] == rows["mem_node"])
        rows["status"][sel], rows["valid"][sel] = b"failed", 0
        rows["note"][sel] = b"cannot allocate 1 GiB on node 0"
    fleet_edits.edit(str(path), "latency", fail_local)
    return path


def _refs(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def _one_line(proc):
    """Exit 2 with one line on stderr and no traceback; returns that line."""
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


def test_bound_on_unknown_peak_is_not_judged(fleet, tmp_path):
    ref = _refs(tmp_path, "ref.yaml", f'"{ICX}":\n  bw_read_local_gbs: {{min: 0.2 * peak}}\n')
    proc = run_report("compare", "--references", ref, fleet, "-o", tmp_path / "out")
    line = _one_line(proc)
    assert "not judged" in line and "icx03" in line and "peak is unknown" in line, line
    assert proc.stdout.strip().splitlines()[-1].endswith("exit 2: cannot judge"), proc.stdout
    rows = (tmp_path / "out" / "references.csv").read_text().splitlines()
    assert [r for r in rows if r.startswith("icx03,")][0].count("not judged") == 1


def test_missing_figure_is_not_judged(fleet, tmp_path):
    ref = _refs(tmp_path, "ref.yaml", f'"{ICX}":\n  latency_local_ns: {{max: 120}}\n')
    line = _one_line(run_report("compare", "--references", ref, fleet))
    assert "icx02 latency_local_ns: no value" in line, line


def test_tolerance_form(fleet, tmp_path):
    # rome's local latency is 115 ns nominal, rome02's 30% more: outside 115 +- 10%.
    ref = _refs(tmp_path, "ref.yaml", f'"{ROME}":\n  latency_local_ns: {{ref: 115, tol: 10%}}\n')
    proc = run_report("compare", "--references", ref, fleet, "-o", tmp_path / "out")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    regressions = [r.split(",")[0] for r in
                   (tmp_path / "out" / "references.csv").read_text().splitlines()
                   if ",regression," in r]
    assert regressions == ["rome02"]
    assert proc.stdout.strip().splitlines()[-1].endswith("exit 1: findings"), proc.stdout
    # A bare number is ambiguous (0.1 or 10 for 10%?): refused, not guessed.
    ref.write_text(f'"{ROME}":\n  latency_local_ns: {{ref: 115, tol: 0.1}}\n')
    assert "expected a percentage" in _one_line(run_report("compare", "--references", ref,
                                                           fleet))


def test_reference_by_fingerprint_names_the_type(tmp_path):
    """A fingerprint names the node type of the hosts that carry it: hosts of the same hardware
    written before schema 0.10.0 carry another fingerprint and are judged with the rest."""
    path = tmp_path / "f.h5"
    synthetic_fleet.write_fleet(str(path), 10, seed=2, factors={"rome02": {"latency_local": 1.3}})
    fingerprint = next(t["fingerprint"] for t in synthetic_fleet.TYPES if t["node_type"] == ROME)
    for host in ("rome01", "rome02"):
        fleet_edits.set_host(str(path), host, fingerprint="00000000" + fingerprint[:8])
    ref = _refs(tmp_path, "ref.yaml", f'"{fingerprint}":\n  latency_local_ns: {{ref: 115, tol: 10%}}\n')
    proc = run_report("compare", "--references", ref, path, "-o", tmp_path / "out")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    rows = (tmp_path / "out" / "references.csv").read_text().splitlines()
    assert [r.split(",")[0] for r in rows if ",regression," in r] == ["rome02"]
    assert {r.split(",")[0] for r in rows[1:]} >= {"rome01", "rome02", "rome03"}


def test_json_references_without_pyyaml(fleet, tmp_path):
    """JSON needs no PyYAML; a YAML file without it is one line and exit 2, not a traceback."""
    shadow = tmp_path / "shadow"
    shadow.mkdir()
    (shadow / "yaml.py").write_text('raise ImportError("No module named \'yaml\'")\n')
    env = {**os.environ, "PYTHONPATH": str(shadow)}
    body = f'{{"{ROME}": {{"latency_local_ns": {{"max": 120}}}}}}\n'
    for name in ("ref.json", "ref.refs"):  # by the extension, and by the content
        proc = run_report("compare", "--references", _refs(tmp_path, name, body), fleet,
                          env=env)
        assert proc.returncode == 1, proc.stdout + proc.stderr
        assert re.search(r"^rome02 .* idle latency local", proc.stdout, re.M), proc.stdout
    yml = _refs(tmp_path, "ref.yaml", f'"{ROME}":\n  latency_local_ns: {{max: 120}}\n')
    assert "needs PyYAML" in _one_line(run_report("compare", "--references", yml, fleet,
                                                  env=env))


def test_internal_error_is_exit_2_in_one_line(fleet, capsys, monkeypatch):
    from numaprobe_analysis import cli, report

    def broken(*_args, **_kw):
        raise ZeroDivisionError("float division by zero")
    monkeypatch.setattr(report, "text", broken)  # a defect met once the file is read
    assert cli.main(["report", str(fleet), "--no-report"]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == ["numaprobe-report: internal error, nothing judged: "
                                "ZeroDivisionError: float division by zero"]


def test_report_ends_on_the_verdict(fleet):
    proc = run_report(fleet, "--no-report")
    assert proc.returncode == 0, proc.stderr
    last = proc.stdout.strip().splitlines()[-1]
    assert last == ("verdict: 10 host(s), 2 node type(s), 1 outlier host(s), 0 degraded, "
                    "0 failed, 0 noisy figure(s); exit 0: findings reported, not failed on "
                    "(without --fail-on-outliers)"), last
    # Types of 5 hosts, 6 needed: nobody judged, and the line says so.
    last = run_report(fleet, "--no-report", "--min-hosts", "6").stdout.strip().splitlines()[-1]
    assert last == ("verdict: 10 host(s), 2 node type(s), 0 outlier host(s), 0 degraded, "
                    "0 failed, 0 noisy figure(s), 10 host(s) not judged (node type too small); "
                    "exit 0: nothing found"), last


def test_verdict_counts_and_gate(tmp_path):
    path = tmp_path / "f.h5"
    synthetic_fleet.write_fleet(str(path), 20, seed=3, factors={
        "icx07": {"bw_remote": 0.6}, "icx04": {"noise_bw_local": 0.3}})
    # A run that did not end ok is failed, not degraded: degraded is a host short of its
    # type's hardware (test_node_types.py).
    fleet_edits.fail_host(str(path), "rome02")
    last = run_report(path, "--no-report").stdout.strip().splitlines()[-1]
    assert last.startswith("verdict: 20 host(s), 2 node type(s), 1 outlier host(s), "
                           "0 degraded, 1 failed, 2 noisy figure(s); exit 0: "), last
    proc = run_report(path, "--no-report", "--fail-on-outliers")
    assert proc.returncode == 1
    assert proc.stdout.strip().splitlines()[-1].endswith("exit 1: findings "
                                                         "(--fail-on-outliers)")


def test_html_caps_outlier_sentences(tmp_path):
    """7 hosts of 20 with 40% less remote bandwidth: 14 outlier figures, 10 sentences, the
    table with all 14."""
    slow = [f"icx{i:02d}" for i in range(1, 8)]
    path = tmp_path / "f.h5"
    synthetic_fleet.write_fleet(str(path), 40, seed=4, factors={h: {"bw_remote": 0.6}
                                                                for h in slow})
    proc = run_report(path, "-o", tmp_path / "r")
    assert proc.returncode == 0, proc.stderr
    page = (tmp_path / "r" / "report.html").read_text()
    items = [html.unescape(x) for x in re.findall(
        r"<li>(.*?)</li>", re.search(r'id="table-comparison".*?<ul[^>]*>(.*?)</ul>', page,
                                  re.S).group(1))]
    sentences = [x for x in items if re.match(r"icx\d\d \(", x)]
    assert len(sentences) == 10, items
    assert "and 4 more: see the table (all of them in outliers.csv)" in items
    table = re.search(r'<table[^>]*id="table-outliers".*?</table>', page, re.S).group(0)
    assert len(re.findall(r"<tr>\s*<td>", table)) == 14
    assert {h for h in slow if h in table} == set(slow)
