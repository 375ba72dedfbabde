# SPDX-License-Identifier: BSD-3-Clause
"""A fleet of an x86 host and an Arm64 host, from real runs of each (tests/data; a fresh Arm64
run where NPRB_ARM64_RESULTS names one), read as a site running one job per partition reads
them: `numaprobe-report X86.h5 ARM64.h5`. The comparison puts the two node types side by side,
each with its CPU model and SIMD path; a kernel of one ISA (copy_movsb, write_zva) is not
applicable on the other, never a failure or an outlier; outliers are judged within a node type,
so neither host is one for being of another ISA. In headless Chromium the report shows the two
types in columns side by side (skipped without chromium, as test_render.py is).

The expected labels, CPU models and SIMD paths are read from the files' /hosts rows, so a report
that lost a type, a column or a row fails."""

import html
import itertools
import json
import os
import re
import shutil

import h5py
import numpy as np
import pandas as pd
import pytest

import test_render
from conftest import HERE, run_report
from numaprobe_analysis.fleetview import view
from numaprobe_analysis.fleet import load_fleet
from numaprobe_analysis.outliers import OutlierRule, find_outliers
from numaprobe_analysis.runs import config_fingerprint
from test_render import _output_dir, chromium, probed_dom

browser = test_render.browser  # the fixture: chromium, or a skip saying it is not installed

DATA = os.path.normpath(os.path.join(HERE, os.pardir, os.pardir, "tests", "data"))
X86 = os.path.join(DATA, "mixed-isa-x86.h5")
ARM64 = os.environ.get("NPRB_ARM64_RESULTS") or os.path.join(DATA, "mixed-isa-arm64.h5")
# The checked-in pair was made to hold each ISA's own kernel (tests/data/README.md); a fresh
# Arm64 run may have been made without them.
FIXTURE = not os.environ.get("NPRB_ARM64_RESULTS")
SIMD = {"x86": {"avx512f", "avx2", "sse2"}, "arm64": {"neon", "sve"}}
ONLY_ON = {"x86": "copy_movsb", "arm64": "write_zva"}


def _text(x):
    return x.decode("utf-8", "replace").strip() if isinstance(x, bytes) else str(x).strip()


def host_row(path):
    """The first rank's /hosts fields that name the host, and the run's config fingerprint."""
    with h5py.File(path, "r") as f:
        row = f["hosts"][()][0]
        config = _text(f.attrs.get("config", b""))
    out = {k: _text(row[k]) for k in ("hostname", "node_type", "cpu_model", "simd_path")}
    return {**out, "config": config_fingerprint(config)}


def rename_host(path, old, new):
    """Renames host @p old to @p new in every table of @p path with a hostname column, in
    place (the tables keep their attributes, so `numaprobe check` still calls the file valid)."""
    with h5py.File(path, "r+") as f:
        for name in f:
            table = f[name]
            if not isinstance(table, h5py.Dataset) or "hostname" not in (table.dtype.names or ()):
                continue
            rows = table[()]
            rows["hostname"][rows["hostname"] == old.encode()] = new.encode()
            table[...] = rows


def markdown_table(text, heading):
    """The first Markdown table after @p heading: first cell -> the row's cells (the header row
    under its first cell, `metric`)."""
    lines = text[text.index(heading):].splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows = itertools.takewhile(lambda line: line.startswith("|"), lines[first:])
    cells = [[c.strip() for c in r.strip("|").split(" | ")] for r in rows
             if not r.startswith("|---")]
    return {c[0]: c for c in cells}


def bandwidth_kernels(path):
    """bandwidth_matrix's kernels with an ok row, and those with not_applicable rows only."""
    with h5py.File(path, "r") as f:
        rows = f["bandwidth"][()]
    rows = rows[rows["experiment"] == b"bandwidth_matrix"]
    ok = {_text(k) for k in rows["kernel"][rows["status"] == b"ok"]}
    every = {_text(k) for k in rows["kernel"]}
    na = {k for k in every - ok
          if (rows["status"][rows["kernel"] == k.encode()] == b"not_applicable").all()}
    return ok, na


def copies(tmp_path, extra_x86=0):
    """Copies of the x86 and Arm64 files, the Arm64 host renamed where both carry one name (a
    run under user-mode emulation reports the name of the machine that ran it; a real fleet's
    hosts have their own), and @p extra_x86 more copies of the x86 host under names of their
    own. Returns (paths, hosts: {"x86": host_row, "arm64": host_row}, report options)."""
    hosts = {"x86": host_row(X86), "arm64": host_row(ARM64)}
    paths = [str(shutil.copy(X86, tmp_path / "x86.h5")),
             str(shutil.copy(ARM64, tmp_path / "arm64.h5"))]
    if hosts["arm64"]["hostname"] == hosts["x86"]["hostname"]:
        rename_host(paths[1], hosts["arm64"]["hostname"], "arm64-01")
        hosts["arm64"]["hostname"] = "arm64-01"
    for i in range(extra_x86):
        path = str(shutil.copy(X86, tmp_path / f"x86-copy{i}.h5"))
        rename_host(path, hosts["x86"]["hostname"], f"x86-copy{i}")
        paths.append(path)
    # Runs of two configs are pooled only when asked to, each type then named with its config.
    mixed = hosts["x86"]["config"] != hosts["arm64"]["config"]
    for h in hosts.values():
        h["type"] = h["node_type"] + (f" (config {h['config'][:6]})" if mixed else "")
    return paths, hosts, ["--allow-mixed-configs"] if mixed else []


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    """The report of the two-host fleet: its stdout, --json verdicts and report directory."""
    d = tmp_path_factory.mktemp("mixed_isa")
    paths, hosts, options = copies(d)
    proc = run_report(*paths, "-o", d / "report", "--json", d / "v.json", *options)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr
    return {"hosts": hosts, "proc": proc, "report": d / "report", "paths": paths,
            "json": json.loads((d / "v.json").read_text())}


def test_the_files_are_one_host_of_each_isa(mixed):
    for isa, h in mixed["hosts"].items():
        assert h["simd_path"] in SIMD[isa] and h["cpu_model"], (isa, h)
    assert mixed["hosts"]["x86"]["type"] != mixed["hosts"]["arm64"]["type"]


def test_comparison_shows_both_types_side_by_side(mixed):
    hosts = mixed["hosts"]
    types = [hosts["x86"]["type"], hosts["arm64"]["type"]]
    frame = pd.read_csv(mixed["report"] / "comparison.csv")
    assert list(frame.columns[:3]) == ["metric", "unit", "better"]
    assert set(types) <= set(frame.columns), list(frame.columns)
    # The CSV keeps figures only, a number in every type's column, for scripts; the CPU model
    # and SIMD path are in node_types.csv, and above the figures where a person reads them.
    assert all(pd.api.types.is_float_dtype(frame[t]) for t in types), frame.dtypes
    assert (frame.set_index("metric").loc["hosts", types] == 1).all()
    kinds = pd.read_csv(mixed["report"] / "node_types.csv", keep_default_na=False)
    kinds = kinds.set_index("type")
    for h in hosts.values():
        assert kinds.loc[h["type"], "cpu_model"].strip() == h["cpu_model"]
        assert kinds.loc[h["type"], "simd_path"] == h["simd_path"]
    md = markdown_table((mixed["report"] / "report.md").read_text(), "## Node-type comparison")
    for h in hosts.values():
        assert md["CPU model"][md["metric"].index(h["type"])] == h["cpu_model"], md
        assert md["SIMD path"][md["metric"].index(h["type"])] == h["simd_path"], md
    doc = mixed["json"]
    assert {t["type"] for t in doc["node_types"]} == set(types)
    assert {h["host"]: h["type"] for h in doc["hosts"]} == {
        h["hostname"]: h["type"] for h in hosts.values()}
    # On stdout: the comparison's header names both types, and the SIMD path row gives each
    # type's value under its own column.
    lines = mixed["proc"].stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("Node-type comparison"))
    header = lines[at + 1]
    simd = next(line for line in lines[at:] if line.strip().startswith("SIMD path"))
    order = sorted(hosts.values(), key=lambda h: header.index(h["type"]))
    assert [h["simd_path"] for h in order] == re.findall(r"\S+", simd)[2:], (header, simd)


def test_a_kernel_of_one_isa_is_not_applicable_on_the_other(mixed):
    hosts, doc = mixed["hosts"], mixed["json"]
    kernels = {isa: bandwidth_kernels(p) for isa, p in zip(("x86", "arm64"), mixed["paths"])}
    if FIXTURE:  # the checked-in pair holds each ISA's kernel, measured on one host only
        for isa, other in (("x86", "arm64"), ("arm64", "x86")):
            assert ONLY_ON[isa] in kernels[isa][0] and ONLY_ON[isa] in kernels[other][1], kernels
    metrics = {h["host"]: h["metrics"] for h in doc["hosts"]}
    status = {h["host"]: (h["status"], h["degraded"]) for h in doc["hosts"]}
    keys = {m["key"] for m in doc["metrics"]}
    for isa, (ok, na) in kernels.items():
        host = hosts[isa]["hostname"]
        assert status[host] == ("ok", False), status
        for k in na:  # no figure, and no failure: the rows say why the kernel does not apply
            assert metrics[host].get(f"bw_{k}_local_gbs") is None, (host, k)
        for k in ok - na:
            assert f"bw_{k}_local_gbs" in keys and metrics[host].get(f"bw_{k}_local_gbs")
    assert doc["outliers"] == [] and doc["degraded"] == []
    verdict = mixed["proc"].stdout.strip().splitlines()[-1]
    assert "2 host(s), 2 node type(s), 0 outlier host(s), 0 degraded, 0 failed" in verdict
    # The comparison keeps a row for a kernel one type has: that type's figure beside the
    # other's empty cell, never a dropped type or a broken table.
    frame = pd.read_csv(mixed["report"] / "comparison.csv")
    for isa, (ok, na) in kernels.items():
        other = "arm64" if isa == "x86" else "x86"
        for k in ok & kernels[other][1]:
            row = frame[frame.metric == f"bandwidth {k} local"]
            assert len(row) == 1 and np.isnan(row.iloc[0][hosts[other]["type"]]), k


def test_outliers_are_judged_within_a_node_type(tmp_path):
    """Five x86 hosts (the x86 run under five names) and the Arm64 host, judged with
    --min-hosts 1: the x86 type's figures agree, the Arm64 type's one host is its own median,
    so nothing is an outlier. Judged as one group, the Arm64 host would be one on every figure
    that differs (negative control), so the verdict depends on the types keeping them apart."""
    paths, hosts, options = copies(tmp_path, extra_x86=4)
    out = tmp_path / "v.json"
    proc = run_report(*paths, "--no-report", "--min-hosts", "1", "--fail-on-outliers",
                      "--json", out, *options)
    doc = json.loads(out.read_text())
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr
    assert doc["outliers"] == [] and doc["too_small"] == []
    assert sorted(t["hosts"] for t in doc["node_types"]) == [1, 5]
    # The same rule on the same figures with their noise set aside (emulated timings are noisy,
    # and a noisy figure is never judged, nor one within its own uncertainty), grouped by the
    # report's node types and then as one group.
    rule = OutlierRule(min_hosts=1)
    v = view(load_fleet(paths, allow_mixed=bool(options)), rule)
    values = v.values.assign(noisy=False, spread_pct=0.0)
    by_type = v.hosts.groupby("type").host.nunique()
    within, _ = find_outliers(values, v.catalogue, rule, by_type)
    assert within.empty, within
    pooled = values.assign(type="one group")
    across, _ = find_outliers(pooled, v.catalogue, rule, pd.Series({"one group": len(v.hosts)}))
    assert hosts["arm64"]["hostname"] in set(across.host), across


# Once laid out: the comparison table's header cells (text and box), its rows by first cell,
# and whether each header cell is what the browser shows at its centre (nothing covers it).
PROBE = ("<script>window.addEventListener('load', () => {"
         " const t = document.getElementById('table-comparison');"
         " const ths = t ? [...t.querySelectorAll('thead th')] : [];"
         " const heads = ths.map(th => { const r = th.getBoundingClientRect();"
         "   const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
         "   return {text: th.textContent.trim(), left: r.left, top: r.top, width: r.width,"
         "           shown: at === th || th.contains(at)}; });"
         " const rows = {}; if (t) for (const tr of t.querySelectorAll('tbody tr')) {"
         "   const cells = [...tr.children].map(c => c.textContent.trim());"
         "   rows[cells[0]] = cells; }"
         " document.body.setAttribute('data-comparison', JSON.stringify({heads, rows,"
         "   width: window.innerWidth})); });</script>")


def comparison_in_browser(browser, html_path, tmp_path):
    dom = probed_dom(browser, html_path, tmp_path / "probed-comparison.html", PROBE,
                     "--window-size=1400,3000")
    m = re.search(r'data-comparison="([^"]*)"', dom)
    assert m, "the probe script did not run"
    return json.loads(html.unescape(m.group(1)))


def side_by_side(info, hosts):
    """Whether the browser shows each host's type as a column of the comparison, on one line
    beside the other's and on screen, with its CPU model and SIMD path under it; and why not."""
    heads = {h["text"]: (i, h) for i, h in enumerate(info["heads"])}
    missing = [h["type"] for h in hosts.values() if h["type"] not in heads]
    if missing:
        return False, f"no column for {missing}: {list(heads)}"
    (i, a), (j, b) = (heads[h["type"]] for h in hosts.values())
    if abs(a["top"] - b["top"]) > 1 or not (a["shown"] and b["shown"]):
        return False, f"not side by side on screen: {a}, {b}"
    if not (0 <= min(a["left"], b["left"]) and max(a["left"], b["left"]) < info["width"]):
        return False, f"a column off screen: {a}, {b}"
    for label, field in (("CPU model", "cpu_model"), ("SIMD path", "simd_path")):
        row = info["rows"].get(label)
        if row is None:
            return False, f"no {label} row: {list(info['rows'])}"
        got = {h["type"]: row[heads[h["type"]][0]] for h in hosts.values()}
        if got != {h["type"]: h[field] for h in hosts.values()}:
            return False, f"{label}: {got}"
    return True, ""


def test_mixed_fleet_report_in_chromium(browser, mixed, tmp_path):
    html_path = mixed["report"] / "report.html"
    ok, why = side_by_side(comparison_in_browser(browser, html_path, tmp_path), mixed["hosts"])
    assert ok, why
    shot = os.path.join(_output_dir(tmp_path), "mixed-isa-report.png")
    chromium(browser, html_path.as_uri(), f"--screenshot={shot}", "--window-size=1400,1000")
    assert os.path.getsize(shot) > 10000, shot


def test_one_type_alone_fails_the_browser_check(browser, mixed, tmp_path):
    """Negative control: the x86 host's report alone has no Arm64 column."""
    proc = run_report(mixed["paths"][0], "-o", tmp_path / "r")
    assert proc.returncode == 0, proc.stderr
    info = comparison_in_browser(browser, tmp_path / "r" / "report.html", tmp_path)
    ok, why = side_by_side(info, mixed["hosts"])
    assert not ok and "no column for" in why, why


def _elf(path, machine):
    """A stand-in executable whose ELF header names @p machine (little-endian, 64-bit)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x7fELF\x02\x01\x01" + bytes(11) + machine.to_bytes(2, "little")
                     + bytes(44))
    path.chmod(0o755)


def test_a_cross_build_tree_is_not_the_validating_binary(tmp_path, monkeypatch):
    """A checkout with an Arm64 cross build beside its own: the newest build tree is the
    cross one, and the report validates with the one this machine runs."""
    from numaprobe_analysis import validate
    own = validate.elf_machine("/proc/self/exe")
    other = 183 if own != 183 else 62  # AArch64, or x86-64 on an Arm64 machine
    _elf(tmp_path / "build" / "native" / "src" / "numaprobe", own)
    _elf(tmp_path / "build" / "cross" / "src" / "numaprobe", other)
    later = os.path.getmtime(tmp_path / "build" / "native" / "src" / "numaprobe") + 60
    os.utime(tmp_path / "build" / "cross" / "src" / "numaprobe", (later, later))
    (tmp_path / "analysis").mkdir()
    monkeypatch.delenv("NUMAPROBE_BIN", raising=False)
    monkeypatch.setattr(validate, "ANALYSIS_DIR", str(tmp_path / "analysis"))
    exe, _ = validate.find_numaprobe()
    assert exe and os.path.samefile(exe, tmp_path / "build" / "native" / "src" / "numaprobe")
    assert not validate.runs_here(str(tmp_path / "build" / "cross" / "src" / "numaprobe"))
