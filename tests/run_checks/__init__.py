# SPDX-License-Identifier: BSD-3-Clause
"""Each experiment's checks of a whole run's file, one module each as src/experiments/ has one
file each: its test_* functions and fixtures, which tests/test_run_results.py collects as its
own (their ids stay test_run_results.py::test_NAME) beside the checks every run shares.

Adding an experiment's checks: its module NAME.py, and its name in NAMES."""

from importlib import import_module

NAMES = ("latency_sweep", "mlp", "injection", "max_bandwidth", "c2c_latency")

CHECKS = tuple(import_module(f"{__name__}.{name}") for name in NAMES)
