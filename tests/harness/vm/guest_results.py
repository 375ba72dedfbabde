# SPDX-License-Identifier: BSD-3-Clause
"""What the guest tests (test_guest_*.py) share: reading a results file's tables, the layout
vm-run gives the guest, and the guest as the options (tests/conftest.py) describe it."""

import re
from types import SimpleNamespace

import h5py
import yaml

SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0, "": 1.0}


def text(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def cpus_of(cpulist):
    """The CPUs of a cpulist such as "0-3,8"."""
    cpus = set()
    for part in cpulist.split(","):
        lo, _, hi = part.partition("-")
        cpus.update(range(int(lo), int(hi or lo) + 1))
    return cpus


def tables(path, *names):
    """The named tables of a results file, as numpy record arrays, by name."""
    with h5py.File(path, "r") as f:
        return {name: f[name][()] for name in names}


def config_seconds(path, section, key):
    """A duration key of the effective configuration the results file records (its `config`
    root attribute: defaults, file and --set merged), in seconds."""
    with h5py.File(path, "r") as f:
        value = str(yaml.safe_load(text(f.attrs["config"]))[section][key])
    m = re.fullmatch(r"([0-9.]+)\s*(ns|us|ms|s|min|)", value.strip())
    assert m, f"config {section}.{key}: '{value}' is no duration"
    return float(m.group(1)) * SECONDS[m.group(2)]


class Layout:
    """The guest vm-run boots: N CPU nodes, grouped into packages (0: one package per node),
    and the SLIT it gives each pair."""

    def __init__(self, nodes, packages=0, slit_package=12, slit_cross=32):
        self.nodes, self.packages = nodes, packages
        self.slit_package, self.slit_cross = slit_package, slit_cross

    def package(self, i):
        return i // (self.nodes // self.packages) if self.packages else i

    def distance(self, i, j):
        if i == j:
            return 10
        if i >= self.nodes or j >= self.nodes:
            return 31
        if self.packages:
            return self.slit_package if self.package(i) == self.package(j) else self.slit_cross
        return 10 + 10 * abs(i - j) + 1

    def pair_class(self, i, j):
        if i == j:
            return "local"
        if j >= self.nodes:
            return "memory_only"
        return "same_package" if self.package(i) == self.package(j) else "cross_package"


def guest_of(config):
    """The guest as the options (tests/conftest.py) describe it: its CPU and memory-only nodes,
    vCPUs, ranks, layout, and how numaprobe ran there."""
    o = config.getoption
    nodes = o("nodes")
    ranks = o("ranks")
    return SimpleNamespace(
        nodes=nodes, memonly=o("memonly"), total=nodes + o("memonly"), cpus=o("cpus"),
        ranks=1 if ranks is None else ranks,
        layout=Layout(nodes, o("packages"), o("slit_package"), o("slit_cross")),
        simd=o("simd"), hmat=o("hmat"), unprivileged=o("unprivileged"),
        expect_binding=o("expect_binding"), shared_node=o("shared_node"),
        cpuset_node=o("cpuset_node"), sweep_from_every=o("sweep_from_every"))


def assert_none(wrong):
    assert not wrong, f"{len(wrong)} problem(s):\n" + "\n".join(wrong[:40])
