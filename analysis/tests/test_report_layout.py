# SPDX-License-Identifier: BSD-3-Clause
"""The report opens with the answer: a summary, the node-type comparison (metrics as rows, types
as columns, ratio to a reference type, share of the peak), the outliers with their config drift,
then the plots in a fixed order; a single host gets a host report. Strip plots cannot
exaggerate, and loaded-latency curves run by injected load."""

import re

import numpy as np
import pandas as pd
import pytest

import synthetic_fleet
from conftest import PLANTED, run_report
from fleet_edits import add_sweeps, edit, set_host
from numaprobe_analysis import plots
from numaprobe_analysis.experiments import (bandwidth_sweep, loaded_latency, stride_sweep,
                                            thread_scaling)
from numaprobe_analysis.fleetview import view
from numaprobe_analysis.fleet import load_fleet
from numaprobe_analysis.summary import comparison_frame, drift_frame

ICX, ROME = "Intel Xeon 6338 2S/2N/64C 256G", "AMD EPYC 7742 1S/4N/64C 512G"
ORDER = ["latency_vs_working_set", "bandwidth_vs_working_set", "thread_scaling", "stride_sweep",
         "numa_heatmaps", "host_strips", "loaded_latency_curves"]


@pytest.fixture(scope="module")
def full(tmp_path_factory):
    """The planted two-type fleet with every sweep, config drift on the outlier icx07 (THP and
    kernel) and on rome02 (governor, not an outlier), and its report."""
    d = tmp_path_factory.mktemp("layout")
    path = str(d / "fleet.h5")
    synthetic_fleet.write_fleet(path, 40, seed=1, factors=PLANTED)
    add_sweeps(path)
    set_host(path, "icx07", thp_mode="always", kernel="6.5.0-1-amd64")
    set_host(path, "rome02", governor="powersave")
    proc = run_report(path, "-o", d / "report")
    assert proc.returncode == 0, proc.stderr
    return {"path": path, "report": d / "report", "proc": proc, "view": view(load_fleet([path]))}


def test_comparison_has_types_as_columns_with_ratio_and_peak(full):
    frame, ref = comparison_frame(full["view"])
    assert ref == ROME  # the first type by label
    assert list(frame.columns[:3]) == ["metric", "unit", "better"]
    assert {ROME, ICX, f"{ICX} / ref", f"{ICX} % of peak", f"{ROME} % of peak"} <= set(
        frame.columns)
    assert f"{ROME} / ref" not in frame.columns  # the reference is not divided by itself
    rows = frame.set_index("metric")
    assert rows.loc["hosts", ICX] == 20 and rows.loc["hosts", ROME] == 20
    bw = rows.loc["bandwidth read local"]
    assert bw[f"{ICX} / ref"] == pytest.approx(bw[ICX] / bw[ROME])
    assert 2.3 < bw[f"{ICX} / ref"] < 2.7  # 95 vs 38 GB/s
    # one node's share of the 409.6 GB/s peak: 2 nodes (icx), 4 nodes (rome)
    assert bw[f"{ICX} % of peak"] == pytest.approx(100 * bw[ICX] / (409.6 / 2), rel=0.02)
    assert bw[f"{ROME} % of peak"] == pytest.approx(100 * bw[ROME] / (409.6 / 4), rel=0.02)
    assert np.isnan(rows.loc["idle latency local", f"{ICX} % of peak"])  # no peak of a latency
    assert (full["report"] / "comparison.csv").exists()


def test_comparison_names_the_keys_in_its_order(full):
    frame, _ = comparison_frame(full["view"])
    labels = [m.label for m in full["view"].catalogue.values()]
    # then, where /counters has them, the IPC of the chase and the mc/bus bytes (counters.py)
    counted = [m.label for k, m in full["view"].counters.catalogue.items()
               if k == "ipc_chase" or k.startswith("mc_bus_ratio_")]
    assert counted == ["IPC of the local chase", "mc/bus bytes, read local",
                       "mc/bus bytes, triad local"]
    # each type's CPU model and SIMD path under its count of hosts, then the figures
    assert list(frame.metric) == ["hosts", "CPU model", "SIMD path"] + labels + counted
    rows = frame.set_index("metric")
    assert rows.loc["CPU model", ICX] == "Intel(R) Xeon(R) Gold 6338"
    assert rows.loc["SIMD path", ROME] == "avx2"


def test_html_opens_with_summary_comparison_outliers_then_plots(full):
    page = (full["report"] / "report.html").read_text()
    assert "<h1>numaprobe fleet report</h1>" in page
    at = {k: page.index(k) for k in ("id=summary", "table-comparison", "table-outliers",
                                     "table-drift", "<h2>Plots</h2>", "table-node_types",
                                     "table-hosts")}
    assert at["id=summary"] < at["table-comparison"] < at["table-outliers"] < \
        at["table-drift"] < at["<h2>Plots</h2>"] < at["table-node_types"] < at["table-hosts"]
    assert page.index("<h2") == page.index("<h2 id=comparison")
    shown = [m for m in re.findall(r'alt="([^"]+)"', page)]
    titles = {name: title for name, title, _ in plots.PLOTS}
    assert shown[:len(ORDER)] == [titles[n] for n in ORDER]


def test_markdown_and_text_open_with_the_comparison(full):
    md = (full["report"] / "report.md").read_text()
    assert md.index("## Node-type comparison") < md.index("## Outlier hosts") < \
        md.index("## Plots") < md.index("## Node types")
    out = full["proc"].stdout
    assert out.index("Node-type comparison") < out.index("Outliers") < out.index("Node types")


def test_outliers_carry_their_config_drift(full):
    out = pd.read_csv(full["report"] / "outliers.csv").fillna("")
    icx07 = out[out.host == "icx07"]
    assert len(icx07) and icx07.config_drift.str.contains("thp_mode always \\(type: madvise\\)")\
        .all() and icx07.config_drift.str.contains("kernel 6.5.0-1-amd64").all()
    assert (out[out.host == "rome13"].config_drift == "").all()  # no drift: none shown
    drift = drift_frame(full["view"])
    assert set(zip(drift.host, drift.field)) == {("icx07", "thp_mode"), ("icx07", "kernel"),
                                                 ("rome02", "governor")}
    assert drift.set_index(["host", "field"]).loc[("rome02", "governor")].type_share == \
        "19 of 20"
    assert "icx07 (Intel Xeon 6338 2S/2N/64C 256G): bandwidth read remote" in \
        full["proc"].stdout and "config drift: kernel 6.5.0-1-amd64" in full["proc"].stdout


def test_the_file_sweeps_are_plotted_from_zero(full):
    v = full["view"]
    for draw in (bandwidth_sweep.bandwidth_vs_working_set, thread_scaling.thread_scaling,
                 stride_sweep.stride_sweep):
        fig = draw(v)
        for ax in fig.axes:
            if ax.get_visible() and ax.lines:
                assert ax.get_ylim()[0] == 0, draw.__name__
        plots.plt.close(fig)
    for name in ORDER:
        assert (full["report"] / f"{name}.png").exists(), name


def test_sweeps_absent_say_why(synthetic):
    out = synthetic["proc"].stdout
    assert "bandwidth_vs_working_set: skipped: no bandwidth_sweep rows with status ok" in out
    assert "stride_sweep: skipped: no stride_sweep rows with status ok" in out


def _strip_axes(fig):
    return [ax for ax in fig.axes if ax.get_visible() and ax.collections]


def test_strips_cannot_exaggerate_a_tiny_spread(full):
    """Every host within 0.001% of its type: the axis stays at +-15% (no "1e-5+1.668" offset
    axis where the spread fills the panel), and every dot sits on the middle line."""
    v = full["view"]
    tight = v.values.copy()
    rng = np.random.default_rng(0)
    tight["value"] = 1.668 * (1 + 1e-5 * rng.uniform(-1, 1, len(tight)))
    v2 = view(load_fleet([full["path"]]))
    v2.values = tight
    v2.outliers = v2.outliers.iloc[0:0]
    fig = plots.host_strips(v2)
    fig.canvas.draw()
    for ax in _strip_axes(fig):
        lo, hi = ax.get_ylim()
        assert lo <= -plots.STRIP_MIN_PCT and hi >= plots.STRIP_MIN_PCT
        assert ax.yaxis.get_offset_text().get_text() == ""
    plots.plt.close(fig)


def test_strip_outlier_labels_stay_in_the_figure(full):
    fig = plots.host_strips(full["view"])
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    labels = [t for ax in fig.axes for t in ax.texts if "icx07" in t.get_text()
              or "rome13" in t.get_text()]
    assert len(labels) >= 3
    for t in labels:
        box = t.get_window_extent(renderer)
        ax_box = t.axes.get_window_extent(renderer)
        assert ax_box.x0 <= box.x0 and box.x1 <= fig.bbox.x1
        assert ax_box.y0 <= box.y0 and box.y1 <= ax_box.y1, t.get_text()
    plots.plt.close(fig)


def test_loaded_latency_runs_by_injected_load(tmp_path):
    """Delays whose load is not in delay order (delay 50 loads more than delay 0): every line
    is drawn by increasing load, none zig-zags back."""
    path = str(tmp_path / "ll.h5")
    synthetic_fleet.write_fleet(path, 10, seed=4)

    def shuffle(rows):
        sel = rows["delay_spins"] == 50
        rows["load_gbs"][sel] *= 1.5
    edit(path, "loaded_latency", shuffle)
    fig = loaded_latency.loaded_latency_curves(view(load_fleet([path])))
    lines = [line for ax in fig.axes for line in ax.lines]
    assert len(lines) > 10
    for line in lines:
        x = np.asarray(line.get_xdata(), dtype=float)
        assert (np.diff(x) >= 0).all(), x
    plots.plt.close(fig)


def test_single_host_gets_a_host_report(tmp_path):
    path = tmp_path / "one.h5"
    synthetic_fleet.write_fleet(str(path), 1, seed=2)
    proc = run_report(path, "-o", tmp_path / "r")
    assert proc.returncode == 0, proc.stderr
    page = (tmp_path / "r" / "report.html").read_text()
    assert "<h1>numaprobe host report: rome01</h1>" in page and "fleet report" not in page
    assert page.index("<h2") == page.index("<h2 id=comparison")
    assert "table-outliers" not in page and "host_strips" not in proc.stdout.split(
        "Plots")[0]
    assert "host_strips: skipped: a single host" in proc.stdout
    frame = pd.read_csv(tmp_path / "r" / "comparison.csv")
    assert not any(c.endswith("/ ref") for c in frame.columns)
    assert "numaprobe host report: rome01" in (tmp_path / "r" / "report.md").read_text()


def test_single_host_noisy_figure_shown(tmp_path):
    """A host report shows every figure it measured: a noisy one as "value ± u% ~noisy" (HTML,
    Markdown, text), never "-"; the CSV keeps the number and its uncertainty apart."""
    from test_noise import bandwidth
    path = tmp_path / "one.h5"
    synthetic_fleet.write_fleet(str(path), 1, seed=2)
    bandwidth(path, "rome01", 0.9, uncertainty=66.0)
    proc = run_report(path, "-o", tmp_path / "r")
    assert proc.returncode == 0, proc.stderr
    frame = pd.read_csv(tmp_path / "r" / "comparison.csv")
    row = frame[frame.metric == "bandwidth read local"].iloc[0]
    typ = synthetic_fleet.TYPES[1]["node_type"]
    assert row[typ] > 0 and row["uncertainty %"] == 66.0, row
    shown = f"{row[typ]:.3g} ± 66% ~noisy"
    page = (tmp_path / "r" / "report.html").read_text()
    table = page[page.index("table-comparison"):page.index("</table>")]
    assert shown in table, table
    assert shown in (tmp_path / "r" / "report.md").read_text()
    assert shown in proc.stdout.split("Outliers")[0], proc.stdout
    lat = frame[frame.metric == "idle latency local"].iloc[0]
    assert f"{lat[typ]:.3g} ± " in table and "~noisy" not in table.split(
        "idle latency local")[1].split("</tr>")[0]
