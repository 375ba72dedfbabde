# SPDX-License-Identifier: BSD-3-Clause
"""numaprobe-report openmetrics: one HOST.prom per host that `promtool check metrics` (what
node_exporter reads) and the OpenMetrics parser of prometheus_client both accept, in Prometheus
base units, with the documented names and labels and the report's verdicts on the host; written
atomically. promtool is Debian's prometheus package, the parser python3-prometheus-client
(tests/deps/analysis.txt): without them the tests that need them are skipped, except under
CI=true, where they fail."""

import json
import os
import re
import shutil
import subprocess
from urllib.parse import unquote

import pytest
from conftest import run_report

import fleet_edits
import synthetic_fleet
from numaprobe_analysis.load import load


def _promtool():
    exe = shutil.which("promtool")
    if exe is None:
        if os.environ.get("CI") == "true":
            pytest.fail("promtool not installed (Debian package prometheus, tests/deps)")
        pytest.skip("promtool not installed (apt-get install prometheus)")
    return exe


def openmetrics_families(text):
    """The families prometheus_client's OpenMetrics parser reads from @p text (it raises on a
    file that breaks the format: no # EOF, a # UNIT its name does not end in, ...)."""
    try:
        from prometheus_client.openmetrics.parser import text_string_to_metric_families
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail("python3-prometheus-client not installed (tests/deps)")
        pytest.skip("python3-prometheus-client not installed")
    return {f.name: f for f in text_string_to_metric_families(text)}


def promtool_check(text):
    proc = subprocess.run([_promtool(), "check", "metrics"], input=text, capture_output=True,
                          text=True, timeout=60)
    return proc.returncode, proc.stdout + proc.stderr


@pytest.fixture(scope="module")
def textfiles(tmp_path_factory):
    d = tmp_path_factory.mktemp("om")
    path = d / "fleet.h5"
    synthetic_fleet.write_fleet(str(path), 20, seed=3, factors={
        "icx04": {"bw_remote": 0.6}, "icx06": {"noise_bw_local": 0.3}})
    fleet_edits.set_host(str(path), "icx05", thp_mode="always")
    # icx07 found kernel.numa_balancing left changed and could not put it back; icx03 did.
    fleet_edits.set_host(str(path), "icx07", restore_outcome="failed")
    fleet_edits.set_host(str(path), "icx03", restore_outcome="restored")
    out = d / "textfile"
    out.mkdir()
    (out / "other.prom").write_text("# another collector's file, left alone\n")
    proc = run_report("openmetrics", path, "--out", out)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


def test_one_file_per_host_passes_promtool(textfiles):
    names = sorted(p.name for p in textfiles.iterdir())
    hosts = synthetic_fleet.host_names(20)
    assert names == sorted([f"{h}.prom" for h in hosts] + ["other.prom"])  # no temporary left
    for h in hosts:
        rc, out = promtool_check((textfiles / f"{h}.prom").read_text())
        assert rc == 0, f"{h}.prom: {out}"


def test_names_units_and_labels(textfiles):
    text = (textfiles / "icx04.prom").read_text()
    assert "# TYPE numaprobe_latency_seconds gauge" in text
    assert "# HELP numaprobe_bandwidth_bytes_per_second " in text
    names = set(re.findall(r"^(\w+)\{", text, re.M))
    assert names and all(n.startswith("numaprobe_") for n in names)
    lat = re.search(r'^numaprobe_latency_seconds\{host="icx04",node_type="Intel[^"]*",'
                    r'cpu_node="0",mem_node="0",pattern="random"\} (\S+)$', text, re.M)
    assert lat and 80e-9 < float(lat.group(1)) < 105e-9  # 92 ns nominal, in seconds
    bw = re.search(r'^numaprobe_bandwidth_bytes_per_second\{[^}]*cpu_node="0",mem_node="1",'
                   r'kernel="read"\} (\S+)$', text, re.M)
    assert bw and 25e9 < float(bw.group(1)) < 32e9  # 48 GB/s x 0.6, in bytes per second
    assert re.search(r'^numaprobe_host_info\{[^}]*os_kernel="6\.1\.0-18-amd64"', text, re.M)
    assert re.search(r'^numaprobe_outlier\{[^}]*metric="bw_read_remote_gbs"\} 1$', text, re.M)
    assert "numaprobe_outlier" not in (textfiles / "icx05.prom").read_text()
    assert re.search(r"^numaprobe_run_start_timestamp_seconds\{[^}]*\} 1767225600", text, re.M)


def test_every_file_is_openmetrics(textfiles):
    for h in synthetic_fleet.host_names(20):
        text = (textfiles / f"{h}.prom").read_text()
        assert text.endswith("\n# EOF\n") and text.count("# EOF") == 1, h
        families = openmetrics_families(text)
        assert families["numaprobe_latency_seconds"].unit == "seconds", h
        assert families["numaprobe_bandwidth_bytes_per_second"].unit == "bytes_per_second", h
        assert families["numaprobe_run_start_timestamp_seconds"].unit == "seconds", h
        assert all(f.documentation and f.type == "gauge" for f in families.values()), h


def test_openmetrics_parser_rejects_a_broken_file(textfiles):
    # Negative control: the parser used above can fail, here on a file without its # EOF.
    text = (textfiles / "icx01.prom").read_text().replace("# EOF\n", "")
    with pytest.raises(ValueError):
        openmetrics_families(text)


def _value(families, name, **labels):
    found = [s.value for s in families[name].samples
             if all(s.labels.get(k) == v for k, v in labels.items())]
    assert len(found) == 1, (name, labels, families[name].samples)
    return found[0]


def test_verdicts_per_host(textfiles):
    """icx04 is an outlier (remote bandwidth), icx06's local bandwidth figures are noisy,
    icx05's THP mode is not its type's: each file says so, and the others say 0."""
    om = {h: openmetrics_families((textfiles / f"{h}.prom").read_text())
          for h in ("icx04", "icx05", "icx06")}
    assert _value(om["icx04"], "numaprobe_host_outlier") == 1
    assert _value(om["icx04"], "numaprobe_outlier", metric="bw_read_remote_gbs") == 1
    assert _value(om["icx05"], "numaprobe_host_outlier") == 0
    assert all(_value(f, "numaprobe_host_judged") == 1 for f in om.values())
    assert _value(om["icx06"], "numaprobe_host_noisy_figures") == 2
    assert _value(om["icx06"], "numaprobe_noisy", metric="bw_read_local_gbs") == 1
    assert _value(om["icx04"], "numaprobe_host_noisy_figures") == 0
    assert "numaprobe_noisy" not in om["icx04"]
    assert _value(om["icx05"], "numaprobe_config_drift", field="thp_mode", value="always",
                  type_value="madvise") == 1
    assert "numaprobe_config_drift" not in om["icx04"]


def test_setting_not_restored(textfiles):
    """/hosts restore_outcome: icx07's run could not put a setting back (1), icx03's did (0),
    and a host whose ranks do not say (an older file) has no sample: not known."""
    om = {h: openmetrics_families((textfiles / f"{h}.prom").read_text())
          for h in ("icx01", "icx03", "icx07")}
    assert _value(om["icx07"], "numaprobe_host_not_restored") == 1
    assert _value(om["icx03"], "numaprobe_host_not_restored") == 0
    assert "numaprobe_host_not_restored" not in om["icx01"]


# The fleet's verdicts: they need every host, so only the report writes them.
FLEET_ONLY = {"numaprobe_host_judged", "numaprobe_host_outlier", "numaprobe_outlier",
              "numaprobe_node_outlier", "numaprobe_host_degraded", "numaprobe_config_drift",
              "numaprobe_host_drifted", "numaprobe_drifted"}


def test_families_are_the_binarys():
    """Each family a host's own file holds (`numaprobe --textfile-dir`, listed by
    `numaprobe --schema`) has here the same name, type, unit and help, in the same order; every
    other family here is a fleet verdict. A family renamed or reworded on one side fails."""
    from numaprobe_analysis.contract import contract
    from numaprobe_analysis.openmetrics import FAMILIES, UNITS
    from numaprobe_analysis.validate import find_numaprobe
    if find_numaprobe()[0] is None:
        if os.environ.get("CI") == "true":
            pytest.fail("numaprobe binary not built")
        pytest.skip("numaprobe binary not built")
    binary = contract()["openmetrics_families"]
    ours = {name: (kind, text) for name, kind, text in FAMILIES}
    for f in binary:
        assert f["name"] in ours, f["name"]
        assert (f["type"], f["help"]) == ours[f["name"]], f["name"]
        unit = next((u for u in UNITS if f["name"].endswith(f"_{u}")), None)
        assert f["unit"] == unit, f["name"]
    names = [f["name"] for f in binary]
    assert [n for n, _, _ in FAMILIES if n in names] == names
    assert set(ours) - set(names) == FLEET_ONLY


def test_promtool_rejects_a_broken_file(textfiles):
    # Negative control: the check used above can fail.
    text = (textfiles / "icx01.prom").read_text().replace("# TYPE numaprobe_host_ok gauge",
                                                          "# TYPE numaprobe_host_ok counter")
    rc, out = promtool_check(text)
    assert rc != 0, out


def test_unreadable_input_exits_2(tmp_path):
    proc = run_report("openmetrics", tmp_path / "missing.h5", "--out", tmp_path / "o")
    assert proc.returncode == 2 and "missing.h5" in proc.stderr
    assert not (tmp_path / "o").exists()


def test_every_host_keeps_its_own_file(tmp_path):
    """Hosts whose names differ only in characters a file name avoids get a file each, named
    reversibly; plain names and FQDNs keep theirs."""
    path = tmp_path / "fleet.h5"
    hosts = synthetic_fleet.write_fleet(str(path), 10, seed=5, host_suffix=".cluster.example")
    renamed = {hosts[0]: "node 1", hosts[1]: "node_1", hosts[2]: "n\u0153ud%3"}
    for old, new in renamed.items():
        fleet_edits.rename_host(str(path), old, new)
    proc = run_report("openmetrics", path, "--out", tmp_path / "out")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "10 file(s) written" in proc.stdout
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    expected = [f"{h}.prom" for h in hosts[3:]] + ["node%201.prom", "node_1.prom",
                                                   "n%C5%93ud%253.prom"]
    assert names == sorted(expected)
    for name in names:
        host = unquote(name.removesuffix(".prom"))
        text = (tmp_path / "out" / name).read_text(encoding="utf-8")
        assert f'numaprobe_host_ok{{host="{host}",' in text, name


def test_drift_per_host(tmp_path):
    """Eight nightly runs, icx03's local bandwidth down 30% over the last two: given every run,
    its file says drifted (overall and per metric, with the rule), the others 0; given one run,
    no drift is said at all (nothing to compare with)."""
    from synthetic_history import write_history
    paths = write_history(str(tmp_path / "results"), runs=8, hosts=20,
                          drops=[("icx03", "bw_local", 0.7, 2)])
    out = tmp_path / "om"
    proc = run_report("openmetrics", *paths, "--out", out)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    icx03 = openmetrics_families((out / "icx03.prom").read_text())
    icx04 = openmetrics_families((out / "icx04.prom").read_text())
    assert _value(icx03, "numaprobe_host_drifted") == 1
    assert _value(icx03, "numaprobe_drifted", metric="bw_read_local_gbs", rule="own") == 1
    assert _value(icx04, "numaprobe_host_drifted") == 0
    single = tmp_path / "single"
    proc = run_report("openmetrics", paths[-1], "--out", single)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "numaprobe_host_drifted" not in openmetrics_families(
        (single / "icx03.prom").read_text())


def test_uncertainty_beside_each_figure(textfiles):
    """Each matrix cell's uncertainty is exported beside its figure, with the same labels, as a
    ratio: icx06's local read bandwidth spread 70% (its median at 0.3 of its best), icx04's
    figures are quiet (about 3%)."""
    om = {h: openmetrics_families((textfiles / f"{h}.prom").read_text())
          for h in ("icx04", "icx06")}
    name = "numaprobe_bandwidth_uncertainty_ratio"
    assert om["icx06"][name].unit == "ratio"
    cell = {"cpu_node": "0", "mem_node": "0", "kernel": "read"}
    assert abs(_value(om["icx06"], name, **cell) - 0.7) < 0.02
    assert _value(om["icx04"], name, **cell) < 0.1
    lat = {"cpu_node": "0", "mem_node": "1", "pattern": "random"}
    assert 0 <= _value(om["icx04"], "numaprobe_latency_uncertainty_ratio", **lat) < 0.25
    # One uncertainty sample for each figure, with the figure's labels.
    for h, f in om.items():
        figures = {tuple(sorted(s.labels.items()))
                   for s in f["numaprobe_bandwidth_bytes_per_second"].samples}
        spreads = {tuple(sorted(s.labels.items())) for s in f[name].samples}
        assert figures == spreads, h


def test_names_apart_in_bytes_not_utf8(tmp_path):
    """Two hosts whose names differ only in bytes that are not UTF-8 (Latin-1 e-acute and
    e-grave) stay two hosts: the file's text is decoded with each such byte as \\xNN, as
    --summary-json writes it, so the load, the report's host count and OpenMetrics keep both,
    neither dropped as the other's earlier run."""
    path = tmp_path / "fleet.h5"
    hosts = synthetic_fleet.write_fleet(str(path), 10, seed=5)
    fleet_edits.rename_host(str(path), hosts[0], b"node\xe9")
    fleet_edits.rename_host(str(path), hosts[1], b"node\xe8")
    names = set(load(str(path)).tables["hosts"].hostname)
    assert {"node\\xe9", "node\\xe8"} <= names, names
    assert len(names) == 10, names
    proc = run_report(path, "--no-report", "--json", tmp_path / "verdicts.json")
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    verdicts = json.loads((tmp_path / "verdicts.json").read_text(encoding="utf-8"))
    judged = {h["host"] for h in verdicts["hosts"]}
    assert {"node\\xe9", "node\\xe8"} <= judged and len(judged) == 10, judged
    proc = run_report("openmetrics", path, "--out", tmp_path / "out")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "10 file(s) written" in proc.stdout, proc.stdout
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert "node%5Cxe9.prom" in written and "node%5Cxe8.prom" in written, written
