# SPDX-License-Identifier: BSD-3-Clause
"""/hosts `restored` (schema 0.8.0): a system setting a killed numaprobe run left changed, and
what the next run did about it. The report lists it right after the outliers (text, restored.csv,
HTML), says which hosts still need `numaprobe restore` as root, and --fail-on-outliers fails on
those: by `restore_outcome` (schema 0.18.0) where the ranks wrote it, whatever the text's
wording, else by the text; a file without the column reads as before."""

import json

import h5py
import numpy.lib.recfunctions as rfn
import pandas as pd
import pytest
from conftest import run_report

import synthetic_fleet
from fleet_edits import describe_tables, edit, set_host
from numaprobe_analysis.contract import contract
from numaprobe_analysis.metrics import hosts_frame
from numaprobe_analysis.names import RestoreOutcome
from numaprobe_analysis.summary import restore_outcomes, still_changed
from numaprobe_analysis.validate import find_numaprobe

NUMAPROBE = find_numaprobe()[0]
needs_numaprobe = pytest.mark.skipif(NUMAPROBE is None, reason="numaprobe binary not built")

LEFT = ("kernel.numa_balancing was left at 0 by numaprobe pid 1234 (job 5678), which ended "
        "without putting it back: ")
PUT_BACK = LEFT + "restored to 1"
NOT_PUT_BACK = LEFT + "not restored (Permission denied): run 'numaprobe restore' as root"
TITLE = "Settings left changed by a killed run"
ACTION = "still changed: run 'numaprobe restore' as root on the host"


def explained(path):
    """The table attributes of schema 0.6.0 and later, from the binary's contract."""
    describe_tables(path, contract())
    return path


def fleet_with(path, texts, outcomes=None):
    """A clean 10-host fleet of schema 0.8.0 with the `restored` column, @p texts (host ->
    text) on those hosts' rows, and @p outcomes (host -> restore_outcome) on theirs."""
    synthetic_fleet.write_fleet(str(path), 10, seed=1, schema_version="0.8.0")
    for host, text in texts.items():
        set_host(str(path), host, restored=text)
    for host, outcome in (outcomes or {}).items():
        set_host(str(path), host, restore_outcome=outcome)
    return explained(str(path))


def part(stdout):
    """The lines of the report's part on settings left changed, without its heading."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(TITLE))
    end = next(i for i in range(start, len(lines)) if not lines[i].strip())
    return lines[start + 1:end]


@pytest.fixture(scope="module")
def put_back(tmp_path_factory):
    d = tmp_path_factory.mktemp("restored")
    path = fleet_with(d / "fleet.h5", {"icx02": PUT_BACK})
    proc = run_report(path, "-o", d / "report", "--fail-on-outliers", "--json", d / "v.json")
    return {"proc": proc, "report": d / "report", "json": d / "v.json"}


@needs_numaprobe
def test_put_back_setting_is_shown_after_the_outliers(put_back):
    proc = put_back["proc"]
    # Put back: every earlier job ran changed, but this run's figures are comparable.
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert part(out) == [f"  icx02: {PUT_BACK}"]
    assert out.index("\nOutliers\n") < out.index(TITLE) < out.index("\nNode types\n")
    assert "1 host(s) with a setting a killed run left changed, put back." in out
    csv = pd.read_csv(put_back["report"] / "restored.csv", keep_default_na=False)
    assert csv.to_dict("records") == [{"type": "Intel Xeon 6338 2S/2N/64C 256G",
                                       "host": "icx02", "restored": PUT_BACK,
                                       "action": "none: put back"}]
    page = (put_back["report"] / "report.html").read_text()
    assert page.index("<h2 id=outliers") < page.index("<h2 id=restored") < \
        page.index("<h2>Plots</h2>")
    assert 'id="table-restored"' in page and "none: put back" in page
    assert "id=summary class=note" in page
    assert "restored to 1" in (put_back["report"] / "report.md").read_text()
    assert json.loads(put_back["json"].read_text())["exit_status"] == 0


@needs_numaprobe
def test_not_restored_setting_needs_action_and_fails_the_gate(tmp_path):
    path = fleet_with(tmp_path / "fleet.h5", {"icx02": PUT_BACK, "rome03": NOT_PUT_BACK})
    proc = run_report(path, "--no-report", "--fail-on-outliers", "--json", tmp_path / "v.json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    # The host still changed comes first and says what it needs.
    assert part(proc.stdout) == [f"  rome03: ({ACTION}) {NOT_PUT_BACK}", f"  icx02: {PUT_BACK}"]
    assert "No outlier hosts." in proc.stdout
    assert ("2 host(s) with a setting a killed run left changed, 1 still not put back (run "
            "'numaprobe restore' as root).") in proc.stdout
    doc = json.loads((tmp_path / "v.json").read_text())
    assert doc["exit_status"] == 1 and doc["outliers"] == []
    # Without the gate it is shown, not failed.
    assert run_report(path, "--no-report").returncode == 0


# The same setting left changed, said in other words than the binary's of today.
REWORDED = LEFT + "could not be put back (Permission denied): run 'numaprobe restore' as root"


@needs_numaprobe
def test_the_gate_reads_the_outcome_not_the_wording(tmp_path):
    """A text without `not restored` whose outcome is failed fails the gate; one with it whose
    outcome is restored does not: the words are for people, the outcome for the gate."""
    path = fleet_with(tmp_path / "fleet.h5", {"icx02": NOT_PUT_BACK, "rome03": REWORDED},
                      {"icx02": "restored", "rome03": "failed"})
    proc = run_report(path, "--no-report", "--fail-on-outliers", "--json", tmp_path / "v.json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert part(proc.stdout) == [f"  rome03: ({ACTION}) {REWORDED}", f"  icx02: {NOT_PUT_BACK}"]
    assert "1 host(s) with a setting not restored" in proc.stdout.splitlines()[-1]
    assert json.loads((tmp_path / "v.json").read_text())["exit_status"] == 1


@needs_numaprobe
def test_old_wording_put_back_passes_the_gate(tmp_path):
    path = fleet_with(tmp_path / "fleet.h5", {"icx02": NOT_PUT_BACK}, {"icx02": "restored"})
    proc = run_report(path, "--no-report", "--fail-on-outliers")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert part(proc.stdout) == [f"  icx02: {NOT_PUT_BACK}"]
    assert "put back." in proc.stdout and "not restored" not in proc.stdout.splitlines()[-1]


def test_outcomes_parsed_per_host():
    """Each host's ranks' names, parsed; a host with no name it knows is not known (read by its
    text), one with failed among them is still changed whatever its text says."""
    ranks = pd.DataFrame({"host": ["a", "a", "b", "c", "d"],
                          "restore_outcome": ["none", "failed", "", " restored ", "later"]})
    outcomes = restore_outcomes(ranks)
    assert outcomes == {"a": {RestoreOutcome.NONE, RestoreOutcome.FAILED},
                        "c": {RestoreOutcome.RESTORED}}
    assert still_changed(REWORDED, outcomes.get("a"))
    assert not still_changed(NOT_PUT_BACK, outcomes.get("c"))
    assert still_changed(NOT_PUT_BACK, outcomes.get("b")) and \
        still_changed(NOT_PUT_BACK, outcomes.get("d"))
    assert restore_outcomes(ranks.drop(columns="restore_outcome")) == {}


@needs_numaprobe
@pytest.mark.parametrize("schema_version", ["0.5.0", "0.7.0"])
def test_file_without_the_column_reads_as_before(tmp_path, schema_version):
    path = tmp_path / "old.h5"
    synthetic_fleet.write_fleet(str(path), 10, seed=1, schema_version=schema_version)
    edit(str(path), "hosts", lambda rows: rfn.drop_fields(rows, "restored", usemask=False))
    if schema_version >= "0.6":
        explained(str(path))
    with h5py.File(path, "r") as f:
        assert "restored" not in f["hosts"].dtype.names
    proc = run_report(path, "-o", tmp_path / "report", "--fail-on-outliers")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert TITLE not in proc.stdout and "killed run" not in proc.stdout
    assert "No outlier hosts." in proc.stdout
    assert not (tmp_path / "report" / "restored.csv").exists()
    hosts = pd.read_csv(tmp_path / "report" / "hosts.csv", keep_default_na=False)
    assert len(hosts) == 10 and set(hosts.restored) == {""}


@needs_numaprobe
def test_an_empty_column_shows_no_part(tmp_path):
    path = fleet_with(tmp_path / "fleet.h5", {})
    proc = run_report(path, "--no-report", "--fail-on-outliers")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert TITLE not in proc.stdout


def test_hosts_frame_joins_the_texts_of_every_rank():
    ranks = pd.DataFrame({
        "file": "f.h5", "rank": [0, 1, 2, 3, 4],
        "host": ["a", "a", "a", "b", "c"],
        "fingerprint": "0f1e2d3c4b5a6978", "node_type": "t",
        "restored": ["", PUT_BACK, "  ", "", "x: not restored"]})
    # Only the recovering rank (not the first) has the text; the others' blanks never count.
    frame = hosts_frame({"hosts": ranks}).set_index("host")
    assert frame.restored.to_dict() == {"a": PUT_BACK, "b": "", "c": "x: not restored"}
    twice = ranks.assign(restored=["s1", "s2", "s1", "", ""])
    assert hosts_frame({"hosts": twice}).set_index("host").restored["a"] == "s1; s2"
