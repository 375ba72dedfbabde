# SPDX-License-Identifier: BSD-3-Clause
"""The experiments the analysis reads, one module each, as src/experiments/ has one file each;
EXPERIMENTS is the one list the metrics catalogue, the report's tables and the plots iterate.

Adding an experiment's analysis: its module NAME.py, whose EXPERIMENT gives its metrics,
figures, tables and the rows of docs/ANALYSIS.md's metrics table that say what its metrics
are (each optional; experiment.py says what each is), and its name in NAMES.
The order is the C side's one list (src/results/experiment_list.h), the order a run makes them
(page_size has nothing to analyse); it is the order of the metrics catalogue, of the
comparison's rows and of `--json`'s metrics. The plots are drawn in the report's reading order
(plots.READING_ORDER), a figure it does not name after those it does."""

from importlib import import_module

NAMES = (
    "latency_matrix",
    "bandwidth_matrix",
    "latency_sweep",
    "stride_sweep",
    "bandwidth_sweep",
    "thread_scaling",
    "first_touch",
    "loaded_latency",
    "mlp",
    "c2c_latency",
    "injection",
    "max_bandwidth",
    "numa_balancing",
)

EXPERIMENTS = tuple(import_module(f"{__name__}.{name}").EXPERIMENT for name in NAMES)
