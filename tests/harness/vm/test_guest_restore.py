# SPDX-License-Identifier: BSD-3-Clause
"""A results file written in a guest after a numaprobe run was killed (SIGKILL) with
kernel.numa_balancing off (restore-scenario.sh): the run that found and put back the setting
records it in its /hosts row, naming the killed run; a run beside a live one records nothing.

    /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider \\
        tests/harness/vm/test_guest_restore.py --results FILE [--killed-pid PID]

numaprobe-in-vm.sh runs it after a guest run with --scenario; the options are tests/conftest.py's."""

import pytest

from guest_results import tables, text

pytestmark = pytest.mark.needs_options("results")


@pytest.fixture(scope="module")
def hosts(results):
    return tables(results, "hosts")["hosts"]


def test_restored_recorded_once(hosts, pytestconfig):
    """With --killed-pid: one rank's row says what was left and what it was put back to, and
    names the killed run; without it, no row claims a restore."""
    killed = pytestconfig.getoption("killed_pid")
    texts = [text(r) for r in hosts["restored"] if text(r)]
    if killed is None:
        assert texts == [], f"a run beside a live one restored something: {texts}"
        return
    assert len(texts) == 1, f"want one rank's account of the restore, got {texts}"
    assert f"left at 0 by numaprobe pid {killed}" in texts[0], texts[0]
    assert texts[0].endswith("restored to 1"), texts[0]


def test_setting_recorded(hosts, pytestconfig):
    """Provenance reads the setting after the restore: 1, the host ran with balancing on. Beside
    a live run it reads what that run holds (0: its series with balancing off)."""
    want = 1 if pytestconfig.getoption("killed_pid") is not None else 0
    assert set(int(v) for v in hosts["numa_balancing"]) == {want}
