# SPDX-License-Identifier: BSD-3-Clause
"""Runs are never mixed: different measurement configs are refused with the keys
that differ, a host in several runs counts once (its latest run), and compare says when it
cannot judge (exit 2: configs differ, no host or too few matched)."""

import pandas as pd
from conftest import run_report

import synthetic_fleet
from numaprobe_analysis.runs import config_fingerprint, differing_keys

TINY = synthetic_fleet.CONFIG.replace("size: 1GiB", "size: 4MiB")


def test_fingerprint_ignores_unmeasured_keys():
    base = synthetic_fleet.CONFIG
    other = base.replace("report_hosts: 8", "report_hosts: 64").replace("10min", "1min")
    assert config_fingerprint(base) == config_fingerprint(other)
    assert config_fingerprint(base) != config_fingerprint(TINY)
    # A key at the default that changes nothing measured keeps an earlier version's hash; set,
    # it changes the plan and the hash.
    assert "time_budget" not in base
    assert config_fingerprint(base + "time_budget: 0s\n") == config_fingerprint(base)
    assert config_fingerprint(base + "time_budget: 5min\n") != config_fingerprint(base)
    assert differing_keys(base, TINY) == [("bandwidth_matrix.size", "1GiB", "4MiB"),
                                          ("latency_matrix.size", "1GiB", "4MiB")]


def test_fingerprint_ignores_section_order():
    """Versions before 0.12.0 echoed the sections in another order: the same config pools."""
    sections, block = [], []
    for line in synthetic_fleet.CONFIG.splitlines(keepends=True):
        if not line.startswith(" ") and block:
            sections.append(block)
            block = []
        block.append(line)
    sections.append(block)
    assert len(sections) > 3
    reordered = "".join("".join(b) for b in reversed(sections))
    assert config_fingerprint(reordered) == config_fingerprint(synthetic_fleet.CONFIG)
    # A changed value is another config.
    assert config_fingerprint(synthetic_fleet.CONFIG.replace("size: 1GiB", "size: 2GiB", 1)) != \
        config_fingerprint(synthetic_fleet.CONFIG)


def _two(tmp_path, config_b=synthetic_fleet.CONFIG, **kw):
    a, b = tmp_path / "a.h5", tmp_path / "b.h5"
    synthetic_fleet.write_fleet(str(a), 10, seed=1)
    synthetic_fleet.write_fleet(str(b), 10, seed=2, config=config_b,
                                start_utc="2026-01-02T00:00:00Z", **kw)
    return a, b


def test_report_refuses_mixed_configs_naming_keys(tmp_path):
    a, b = _two(tmp_path, TINY)
    proc = run_report(a, b, "--no-report")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "measurement configs differ" in proc.stderr
    assert "latency_matrix.size: 1GiB vs 4MiB" in proc.stderr
    assert "--allow-mixed-configs" in proc.stderr


def test_allow_mixed_configs_keeps_separate_groups(tmp_path):
    a, b = _two(tmp_path, TINY)
    out = tmp_path / "rep"
    proc = run_report(a, b, "--allow-mixed-configs", "-o", out)
    assert proc.returncode == 0, proc.stderr
    types = pd.read_csv(out / "node_types.csv")
    # Two node types, each split in two by config: never pooled.
    assert len(types) == 4 and set(types.hosts) == {5}
    assert types.type.str.contains(r"\(config [0-9a-f]{6}\)").all()


def test_duplicate_runs_latest_counts(tmp_path):
    # The same 10 hosts twice: the later run has icx02's local latency 35% higher.
    a, b = _two(tmp_path, factors={"icx02": {"latency_local": 1.35}})
    out = tmp_path / "rep"
    proc = run_report(a, b, "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert "icx02: 2 runs; the latest" in proc.stdout
    wide = pd.read_csv(out / "host_metrics.csv")
    assert len(wide) == 10
    lat = wide.set_index("host").latency_local_ns
    # Not the median of the two runs: the later run's figure (92 ns nominal x 1.35).
    assert 120 < lat["icx02"] < 130, lat["icx02"]
    # Order of the files on the command line does not matter: start_utc decides.
    proc = run_report(b, a, "-o", tmp_path / "rep2")
    lat2 = pd.read_csv(tmp_path / "rep2" / "host_metrics.csv").set_index("host").latency_local_ns
    assert lat2["icx02"] == lat["icx02"]


def test_all_runs_shows_each(tmp_path):
    a, b = _two(tmp_path)
    out = tmp_path / "rep"
    proc = run_report(a, b, "--all-runs", "-o", out)
    assert proc.returncode == 0, proc.stderr
    hosts = pd.read_csv(out / "hosts.csv")
    assert len(hosts) == 20
    assert {"icx01@2026-01-01T00:00:00Z", "icx01@2026-01-02T00:00:00Z"} <= set(hosts.host)


def test_compare_refuses_mixed_configs(tmp_path):
    a, b = _two(tmp_path, TINY)
    proc = run_report("compare", a, b)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "bandwidth_matrix.size: 1GiB vs 4MiB" in proc.stderr
    proc = run_report("compare", a, b, "--allow-mixed-configs")
    assert proc.returncode in (0, 1), proc.stderr
    assert "measurement configs differ" in proc.stdout


def test_compare_zero_matched_hosts_exits_2(tmp_path):
    # After a rename from short names to FQDNs nothing matches: not a green check.
    a, b = _two(tmp_path, host_suffix=".cluster.example")
    proc = run_report("compare", a, b)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "0 of 10 baseline host(s)" in proc.stderr


def test_compare_too_few_matched_exits_2(tmp_path):
    a, b = tmp_path / "a.h5", tmp_path / "b.h5"
    synthetic_fleet.write_fleet(str(a), 40, seed=1)
    synthetic_fleet.write_fleet(str(b), 10, seed=2)  # icx01-05 and rome01-05 of 40
    proc = run_report("compare", a, b)
    assert proc.returncode == 2, proc.stderr
    assert "10 of 40 baseline host(s) (25%)" in proc.stderr
    assert run_report("compare", a, b, "--min-matched", "20").returncode == 0


def test_compare_tolerance_per_metric(tmp_path):
    a, b = tmp_path / "a.h5", tmp_path / "b.h5"
    synthetic_fleet.write_fleet(str(a), 10, seed=1)
    synthetic_fleet.write_fleet(str(b), 10, seed=2, factors={"icx02": {"latency_remote": 1.2}})
    assert run_report("compare", a, b).returncode == 1
    proc = run_report("compare", a, b, "--tolerance", "latency_remote_ns=25")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert run_report("compare", a, b, "--tolerance", "nonsense=5").returncode == 2


def test_compare_against_references(tmp_path):
    b = tmp_path / "b.h5"
    synthetic_fleet.write_fleet(str(b), 10, seed=2, factors={"rome02": {"latency_local": 1.3}})
    icx, rome = (t["node_type"] for t in synthetic_fleet.TYPES)
    ref = tmp_path / "ref.yaml"
    ref.write_text(f'"{icx}":\n  bw_read_local_gbs: {{min: 0.2 * peak}}\n'
                   f'"{rome}":\n  latency_local_ns: {{max: 120}}\n')
    proc = run_report("compare", "--references", ref, b, "-o", tmp_path / "out")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    refs = pd.read_csv(tmp_path / "out" / "references.csv")
    assert set(refs[refs.verdict == "regression"].host) == {"rome02"}
    # 0.2 x 409.6 GB/s = 81.9 GB/s: the icx hosts' ~95 GB/s pass.
    assert (refs[refs.host.str.startswith("icx")].verdict == "same").all()
    # A reference naming no node type of the file matches nothing: exit 2.
    ref.write_text('"other type":\n  latency_local_ns: {max: 120}\n')
    assert run_report("compare", "--references", ref, b).returncode == 2


def test_noisy_host_is_shown_not_judged(tmp_path):
    # icx04's local bandwidth is 40% low, but its rows are noisy (median 30% of best): it is
    # listed as noisy, not as an outlier; icx07 (40% low, steady) is still an outlier.
    path = tmp_path / "f.h5"
    synthetic_fleet.write_fleet(str(path), 20, seed=3, factors={
        "icx04": {"bw_local": 0.6, "noise_bw_local": 0.3}, "icx07": {"bw_local": 0.6}})
    proc = run_report(path, "-o", tmp_path / "rep")
    assert proc.returncode == 0, proc.stderr
    outliers = pd.read_csv(tmp_path / "rep" / "outliers.csv")
    assert set(outliers.host) == {"icx07"}
    noisy = pd.read_csv(tmp_path / "rep" / "noisy.csv")
    assert set(noisy.host) == {"icx04"}
    assert set(noisy.metric) == {"bandwidth read local", "bandwidth triad local"}
    assert (noisy.spread_pct.between(69, 71)).all()
    assert "noisy figure(s) on 1 host(s) not judged" in proc.stdout
