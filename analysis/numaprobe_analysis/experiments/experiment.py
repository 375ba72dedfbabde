# SPDX-License-Identifier: BSD-3-Clause
"""What an experiment's module gives the analysis (the struct nprb_experiment of
src/experiments/registry.h, on this side): each part optional."""

from dataclasses import dataclass
from typing import Callable, NamedTuple, Optional


class Figure(NamedTuple):
    name: str       # the files' stem: NAME.png and NAME.svg in the report directory
    title: str
    draw: Callable  # FleetView -> a matplotlib figure, or raises plotting.Skipped(why)


@dataclass(frozen=True)
class Experiment:
    name: str  # as src/experiments/ and the rows' `experiment` column spell it
    # (fleet, hosts, out, catalogue): appends (host, metric key, value, spread_pct) to out and
    # each Metric it found to catalogue, in the order the catalogue lists them
    metrics: Optional[Callable] = None
    figures: tuple = ()  # Figure, each drawn in plots.READING_ORDER
    # FleetView -> {name: (title, frame)}: the report's tables of the experiment (NAME.csv)
    tables: Optional[Callable] = None
    # (metric, from), Markdown: its rows of docs/ANALYSIS.md's table of the headline metrics,
    # what each figure is and which rows it comes from; tests/docs/analysis-doc.py writes them
    # there, in the list's order. An experiment with metrics documents them here.
    doc: tuple = ()
