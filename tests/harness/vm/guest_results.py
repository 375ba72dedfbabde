# SPDX-License-Identifier: BSD-3-Clause
"""What the guest checks (check_vm.py, check_cpuset.py) share: reading a results file's tables
and collecting failures instead of stopping at the first."""

import h5py


def text(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def tables(path, *names):
    """The named tables of a results file, as numpy record arrays, in the order asked."""
    with h5py.File(path, "r") as f:
        return [f[name][()] for name in names]


class Failures:
    """expect(ok, msg) collects what went wrong; report() prints it and gives the exit status."""

    def __init__(self):
        self.messages = []

    def expect(self, ok, msg):
        if not ok:
            self.messages.append(msg)

    def report(self, path):
        for msg in self.messages:
            print("FAIL:", msg)
        print(f"{path}: {'ok' if not self.messages else f'{len(self.messages)} failure(s)'}")
        return 1 if self.messages else 0
