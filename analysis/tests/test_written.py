# SPDX-License-Identifier: BSD-3-Clause
"""numaprobe-report on files the numaprobe binary wrote in this test run: singleton, 4 ranks on
one host, and 3 fake hosts (a, b, c). Each plot is drawn exactly when the file has its data."""

import re

import h5py
import numpy as np
import pandas as pd
from conftest import run_report

from numaprobe_analysis.plots import PLOTS


def _table(f, name):
    if name not in f:
        return pd.DataFrame()
    rows = f[name][()]  # as docs/SCHEMA.md reads a table: an array column a list per cell
    frame = pd.DataFrame({c: list(rows[c]) if rows[c].ndim > 1 else rows[c]
                          for c in rows.dtype.names})
    for c in frame.columns:
        if frame[c].dtype == object:
            frame[c] = frame[c].str.decode("ascii")
    return frame


def _supported(path):
    """Which plots the file's rows support, worked out independently of the plotting code."""
    with h5py.File(path, "r") as f:
        lat, bw = _table(f, "latency"), _table(f, "bandwidth")
        loaded, bal = _table(f, "loaded_latency"), _table(f, "balancing")
        c2c = _table(f, "c2c_latency")
        n_hosts = _table(f, "hosts").hostname.nunique()
    ok = lat[lat.status == "ok"]
    sweep = ok[(ok.experiment == "latency_sweep") & (ok.pattern == "random")]
    matrix = ok[(ok.experiment == "latency_matrix") & (ok.mem_policy == "bind")]
    return {
        "latency_vs_working_set": sweep.size_bytes.nunique() >= 2,
        "numa_heatmaps": bool(len(matrix)) and matrix.groupby("rank").mem_node.nunique().max() >= 2,
        "host_strips": bool(len(matrix)) and n_hosts > 1,  # a host report has no strips
        "bandwidth_vs_working_set": bool(((bw.experiment == "bandwidth_sweep")
                                          & (bw.status == "ok")).any()),
        "thread_scaling": bool(((bw.experiment == "thread_scaling") & (bw.status == "ok")).any()),
        "stride_sweep": bool(((lat.experiment == "stride_sweep") & (lat.status == "ok")).any()),
        "first_touch_pages": bool(((bw.experiment == "first_touch") & (bw.status == "ok")).any()),
        "balancing_series": bool((bal.status == "ok").any()) if len(bal) else False,
        "loaded_latency_curves": bool((loaded.status == "ok").any()) if len(loaded) else False,
        # lines in flight need each pair's 1-chain point beside the others
        "mlp_curves": bool(((lat.experiment == "mlp") & (lat.status == "ok")
                            & (lat.chains == 1)).any()) if "chains" in lat else False,
        "c2c_heatmap": bool((c2c.status == "ok").any()) if len(c2c) else False,
        "injection_mixes": bool(((bw.experiment == "injection") & (bw.status == "ok")
                                 & (bw.mem_policy == "bind")).any()),
        "max_bandwidth_bars": bool(((bw.experiment == "max_bandwidth") & (bw.status == "ok")
                                    & (bw.cpu_node < 0)).any()),
    }


def test_report_on_written_file(tmp_path, written):
    out = tmp_path / "report"
    proc = run_report(written, "-o", out)
    assert proc.returncode == 0, proc.stderr
    with h5py.File(written, "r") as f:
        hosts = _table(f, "hosts")
    for host in hosts.hostname:
        assert re.search(rf"^\s*\d+\s+{re.escape(host)}\s", proc.stdout, re.M), host
    # one per-type table per node type, with its host count
    for label, group in hosts.groupby("node_type"):
        assert f"{label}: median and IQR over hosts" in proc.stdout
        # The hosts a type's median is over: those whose figure is not noisy.
        found = re.search(r"idle latency local +ns +(\d+) ", proc.stdout)
        assert found and 0 <= int(found[1]) <= group.hostname.nunique(), proc.stdout
    if hosts.hostname.nunique() < 5:
        assert "too small to judge" in proc.stdout
    supported = _supported(written)
    html = (out / "report.html").read_text()
    for name, title, _draw in PLOTS:
        drawn = (out / f"{name}.png").exists()
        assert drawn == supported[name], f"{name}: drawn={drawn}, data supports={supported[name]}"
        if drawn:
            assert (out / f"{name}.svg").stat().st_size > 1000
            assert f"  {name}: written" in proc.stdout
        else:
            # a skipped plot says why, on stdout and in the report
            reason = re.search(rf"^  {name}: skipped: (.+)$", proc.stdout, re.M)
            assert reason, name
            assert f"{title}: not drawn:" in html
    assert html.count("<img ") == sum(supported.values())
    assert "http://" not in html and "https://" not in html


def test_three_fake_hosts_are_one_node_type(written):
    """The 3-host fake fleet (a, b, c on one machine): one type, three hosts, not judged."""
    with h5py.File(written, "r") as f:
        hosts = _table(f, "hosts")
    if sorted(hosts.hostname) != ["a", "b", "c"]:
        return  # not the fake fleet
    proc = run_report(written, "--no-report")
    assert proc.returncode == 0, proc.stderr
    label = hosts.node_type[0]
    assert f"{label}: 3 host(s), too small to judge" in proc.stdout
    types = proc.stdout.split("Node types\n")[1].split("\n\n")[0].splitlines()
    assert len(types) == 2 and re.search(r"\s3\s", types[1])
    assert np.all(hosts.fingerprint == hosts.fingerprint[0])


def test_run_id_and_config_fingerprint(written):
    """The binary names its run and hashes its measurement config as runs.py does."""
    from numaprobe_analysis.runs import config_fingerprint
    with h5py.File(written, "r") as f:
        attrs = {k: (v.decode() if isinstance(v, bytes) else str(v)) for k, v in f.attrs.items()}
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
                        attrs["run_id"]), attrs["run_id"]
    assert attrs["config_fingerprint"] == config_fingerprint(attrs["config"])
    # The keys that change nothing measured are left out of the hash.
    assert "report_hosts" in attrs["config"]
    edited = attrs["config"].replace("report_hosts:", "report_hosts: 999 #")
    assert config_fingerprint(edited) == attrs["config_fingerprint"]
    # No time budget hashes as the configs of before the key did.
    assert "time_budget: 0s\n" in attrs["config"]
    unbudgeted = attrs["config"].replace("time_budget: 0s\n", "")
    assert config_fingerprint(unbudgeted) == attrs["config_fingerprint"]
