# SPDX-License-Identifier: BSD-3-Clause
"""What the pytest modules under tests/ share: their command-line options, the numaprobe binary
and a runner for it, the results files under test, and a work directory per test.

A module names the options it cannot run without:

    pytestmark = pytest.mark.needs_options("exe", "results")

and a run that lacks one stops before any test with a usage error (exit 4), rather than passing
on nothing. (tests/pytest.ini makes tests/ the rootdir, so this file is found from any module.)"""

import json
import os
import re
import shutil
import subprocess

import pytest


def pytest_addoption(parser):
    g = parser.getgroup("numaprobe", "numaprobe's files and binary")
    g.addoption("--exe", metavar="NUMAPROBE", help="the numaprobe binary under test")
    g.addoption("--results", metavar="FILE", help="the results file of the run under test")
    g.addoption("--results-dir", metavar="DIR",
                help="where run.singleton and run.mpi4 wrote singleton.h5 and mpi4.h5")
    g.addoption("--work-dir", metavar="DIR",
                help="inputs the tests make go to DIR/TEST, emptied first, and stay there "
                     "(default: pytest's temporary directories)")

    g = parser.getgroup("run", "what a whole run must show (tests/test_run_results.py)")
    g.addoption("--ranks", type=int, metavar="R",
                help="ranks of the run (for the guest's checks: 1 when not given)")
    g.addoption("--hosts", type=int, metavar="H", help="hosts of the run")
    g.addoption("--numa-nodes", type=int, metavar="N", help="NUMA nodes every rank must see")
    g.addoption("--host-ranks", nargs="+", action="extend", default=[], metavar="HOST=N",
                help="host HOST runs N ranks")
    g.addoption("--identical-hardware", action="store_true",
                help="every host is this machine (fake hosts): one fingerprint, one node type")

    g = parser.getgroup("guest", "the guest vm-run booted (tests/harness/vm)")
    g.addoption("--nodes", type=int, help="NUMA nodes with CPUs")
    g.addoption("--memonly", type=int, default=0, help="memory-only NUMA nodes")
    g.addoption("--cpus", type=int, help="vCPUs, spread evenly over the CPU nodes")
    g.addoption("--packages", type=int, default=0,
                help="vm-run --packages: CPU nodes grouped into this many packages")
    g.addoption("--slit-package", type=int, default=12)
    g.addoption("--slit-cross", type=int, default=32)
    g.addoption("--simd", help="kernel code path every host must report (avx512f/avx2/sse2)")
    g.addoption("--hmat", action="store_true",
                help="the guest publishes HMAT as vm-run --hmat sets it")
    g.addoption("--unprivileged", action="store_true",
                help="numaprobe ran as an unprivileged user (no SMBIOS, no sysctl, no frames)")
    g.addoption("--expect-binding", metavar="WORD",
                help="the first rank's binding_check must contain WORD (e.g. widened)")
    g.addoption("--shared-node", action="store_true",
                help="the launcher bound two ranks to the same node (checked: else the test of "
                     "sharing nodes out would pass vacuously)")
    g.addoption("--cpuset-node", type=int, metavar="K",
                help="numaprobe ran in a cgroup cpuset holding node K alone")
    g.addoption("--guest-stdout", metavar="FILE", help="numaprobe's stdout in the guest")
    g.addoption("--killed-pid", type=int, metavar="PID",
                help="the numaprobe run killed before the one under test; without it, no "
                     "rank may report a restored setting")
    g.addoption("--guest-numactl", metavar="FILE", help="numactl --hardware in the same guest")
    g.addoption("--sweep-from-every", action="store_true",
                help="numaprobe ran with latency_sweep.from=every: every CPU node swept")


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "needs_options(*names): options (dest names) the module cannot run without")


def pytest_collection_modifyitems(config, items):
    missing = {}
    for item in items:
        for mark in item.iter_markers("needs_options"):
            for name in mark.args:
                if config.getoption(name) is None:
                    missing.setdefault("--" + name.replace("_", "-"), set()).add(item.path.name)
    if missing:
        raise pytest.UsageError("; ".join(f"{option} is required by {', '.join(sorted(mods))}"
                                          for option, mods in sorted(missing.items())))


def option(config, name):
    """A valued option a fixture cannot do without (needs_options says so up front)."""
    value = config.getoption(name)
    if value is None:
        pytest.fail(f"--{name.replace('_', '-')} is required here", pytrace=False)
    return value


def existing_file(path, what):
    assert os.path.isfile(path), f"{what} {path}: no such file (did the run that writes it fail?)"
    return path


class Numaprobe:
    """The binary under test, run with what a test expects of it: the exit code, fragments its
    output must hold and fragments it must not."""

    def __init__(self, exe):
        self.exe = exe

    def run(self, args, rc, fragments=(), forbid=(), timeout=240):
        """Runs numaprobe ARGS and returns its stdout and stderr, or fails the test."""
        args = [str(a) for a in args]
        what = f"numaprobe {' '.join(args)}"
        try:
            p = subprocess.run([self.exe, *args], capture_output=True, text=True, check=False,
                               errors="replace", timeout=timeout)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{what}: still running after {timeout} s", pytrace=False)
        out = p.stdout + p.stderr
        wrong = [f"exit {p.returncode}, expected {rc}"] if p.returncode != rc else []
        wrong += [f"output lacks {frag!r}" for frag in fragments if frag not in out]
        wrong += [f"output has {frag!r}" for frag in forbid if frag in out]
        assert not wrong, f"{what}: {'; '.join(wrong)}\n--- its output:\n{out}---"
        return out


@pytest.fixture(scope="session")
def exe(pytestconfig):
    path = option(pytestconfig, "exe")
    assert os.access(path, os.X_OK), f"--exe {path}: not an executable file"
    return path


@pytest.fixture(scope="session")
def numaprobe(exe):
    return Numaprobe(exe)


@pytest.fixture(scope="session")
def contract(exe):
    """`numaprobe --schema` of the binary under test, parsed: the tables, columns and root
    attributes of a results file and the minor that added each. The checkers take names and
    versions from it rather than keep copies that could drift from the binary."""
    p = subprocess.run([exe, "--schema"], capture_output=True, text=True, check=False,
                       timeout=60)
    assert p.returncode == 0, f"{exe} --schema: exit {p.returncode}: {p.stderr}"
    return json.loads(p.stdout)


@pytest.fixture(scope="session")
def results(pytestconfig):
    """The results file of the run under test (--results)."""
    return existing_file(option(pytestconfig, "results"), "--results")


@pytest.fixture(scope="session")
def singleton(pytestconfig):
    """The file run.singleton wrote: one rank."""
    return existing_file(os.path.join(option(pytestconfig, "results_dir"), "singleton.h5"),
                         "run.singleton's file")


@pytest.fixture(scope="session")
def mpi4(pytestconfig):
    """The file run.mpi4 wrote: four ranks on one host, the source of the tools tests' copies."""
    return existing_file(os.path.join(option(pytestconfig, "results_dir"), "mpi4.h5"),
                         "run.mpi4's file")


@pytest.fixture
def work(request):
    """An empty directory of the test's own (under --work-dir, where given, so that a failed
    test's inputs can be looked at afterwards)."""
    base = request.config.getoption("work_dir")
    if base is None:
        return str(request.getfixturevalue("tmp_path"))
    name = re.sub(r"[^\w.-]+", "-", request.node.name).strip("-")  # test_x[a b] -> test_x-a-b
    path = os.path.join(os.path.abspath(base), name)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path
