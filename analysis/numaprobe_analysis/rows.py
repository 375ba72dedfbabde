# SPDX-License-Identifier: BSD-3-Clause
"""What every experiment's figures are made with (experiments/): the Metric a figure is of, the
rows that count (status ok), a host's figure from its rows, and local beside remote."""

from dataclasses import dataclass

from .names import Status
from .noise import row_spread_pct


@dataclass(frozen=True)
class Metric:
    name: str       # column-safe key, e.g. latency_local_ns
    label: str      # what a person reads
    unit: str
    better: str     # "lower" or "higher"
    judged: bool = True  # used for outliers and compare (penalties near 0 are not)


def ok_rows(frame, **where):
    """The rows with status ok and each column of @p where equal to its value, selected in one
    pass: a fleet's table has millions of rows, and each selection copies what it keeps."""
    if not len(frame):
        return frame
    keep = frame.status == Status.OK
    for column, value in where.items():
        keep &= frame[column] == value
    return frame[keep]


def per_host(rows, value, metric, out):
    """A host's value (median over its rows) and its spread (the largest of its rows')."""
    if len(rows) == 0:
        return
    rows = rows.assign(_spread=row_spread_pct(rows, value))
    grouped = rows.groupby("host")
    med = grouped[value].median().dropna()
    spread = grouped["_spread"].max().reindex(med.index)
    out.extend(zip(med.index, [metric] * len(med), med.astype(float), spread.astype(float)))


# The words a metric's key and label give a node pair: its CPUs on their own node's memory, or on
# another node's.
LOCAL, REMOTE = "local", "remote"


def is_local(rows):
    """Per row: whether its CPU node is its memory node."""
    return rows.cpu_node == rows.mem_node


def by_where(rows):
    """(LOCAL, the local rows), (REMOTE, the others)."""
    local = is_local(rows)
    return (LOCAL, rows[local]), (REMOTE, rows[~local])
