# SPDX-License-Identifier: BSD-3-Clause
"""What the plots share (plots.py and each experiment's figures, experiments/): the Agg backend
(no display needed), a node type's colour, curves over hosts per node type, panels, heat maps.

A figure's function takes a FleetView and returns a matplotlib figure, or raises Skipped with
the reason the data does not support it."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from .names import Status  # noqa: E402
from .reducers import kernel_points  # noqa: E402
from .rows import ok_rows  # noqa: E402


class Skipped(Exception):
    """The data does not support this plot; the message says why."""


def skip_reason(frame, experiment=None, default="no rows"):
    """Why an experiment has no usable rows: its most common note, else a default."""
    if frame is None or frame.empty:
        return default
    rows = frame if experiment is None or "experiment" not in frame else \
        frame[frame.experiment == experiment]
    notes = rows.loc[rows.status != Status.OK, "note"] if "note" in rows \
        else pd.Series(dtype=str)
    notes = notes[notes.astype(str).str.len() > 0]
    if rows.empty or notes.empty:
        return default
    return notes.value_counts().index[0]


def colour(v, typ):
    return plt.get_cmap("tab10")(v.type_names().index(typ) % 10)


def bytes_label(x, _pos=None):
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if x >= scale:
            return f"{x / scale:g} {unit}"
    return f"{x:g} B"


def by_type(v, frame):
    """(type, rows of that type's hosts) for each type with rows, in the report's type order."""
    for typ in v.type_names():
        rows = frame[frame.host.isin(v.type_hosts(typ))]
        if len(rows):
            yield typ, rows


def type_curves(v, ax, rows, x, y):
    """Per node type: the median over its hosts of y by x, with the IQR band."""
    for typ, r in by_type(v, rows):
        per_host = r.groupby(["host", x])[y].median().unstack(0)
        q = per_host.quantile([0.25, 0.5, 0.75], axis=1).T.sort_index()
        c = colour(v, typ)
        ax.plot(q.index, q[0.5], marker="o", ms=3, color=c,
                label=f"{typ} (median of {per_host.shape[1]} host(s))")
        if per_host.shape[1] > 1:
            ax.fill_between(q.index, q[0.25], q[0.75], color=c, alpha=0.25, lw=0)


def panels(n):
    cols = min(3, n)
    fig, axes = plt.subplots((n + cols - 1) // cols, cols, figsize=(5.5 * cols, 4.2 *
                                                                     ((n + cols - 1) // cols)),
                             squeeze=False)
    for ax in list(axes.flat)[n:]:
        ax.set_axis_off()
    return fig, list(axes.flat)[:n]


def kernel_panels(v, experiment, x, points=None):
    """@p experiment's ok /bandwidth rows, one panel per kernel (read_strided's per stride),
    each with the node types' curves of GB/s (best) by @p x: the figure and [(axis, kernel)].
    @p points: reducers.kernel_points of the rows, where the loader made them (else made
    here)."""
    rows = kernel_points(v.fleet["bandwidth"], experiment, x) if points is None else points
    if rows.empty:
        raise Skipped(skip_reason(v.fleet["bandwidth"], experiment,
                                  f"no {experiment} rows with status ok"))
    kernels = sorted(rows.kernel_label.unique())
    fig, axes = panels(len(kernels))
    for ax, kernel in zip(axes, kernels):
        type_curves(v, ax, rows[rows.kernel_label == kernel], x, "gbs_best")
    return fig, list(zip(axes, kernels))


def heat(ax, m, title, fmt, cmap, flagged=None):
    """Matrix @p m as an image, each finite cell written in it (with "?" where @p flagged)."""
    data = m.to_numpy(dtype=float)
    ax.imshow(data, cmap=cmap)
    ax.set_xticks(range(len(m.columns)), [str(c) for c in m.columns])
    ax.set_yticks(range(len(m.index)), [str(i) for i in m.index])
    ax.set_xlabel("memory node")
    ax.set_ylabel("CPU node")
    ax.set_title(title, fontsize=9)
    for (i, j), x in np.ndenumerate(data):
        if np.isfinite(x):
            mark = ""
            if flagged is not None and bool(flagged.reindex(index=m.index, columns=m.columns)
                                            .fillna(False).iat[i, j]):
                mark = "?"  # a plausibility flag on some host: see the host's rows
            ax.text(j, i, fmt.format(x) + mark, ha="center", va="center", fontsize=8,
                    bbox={"boxstyle": "round", "fc": "white", "alpha": 0.6, "lw": 0})


def ok_rows_by_type(v, table):
    """[(type, its rows with status ok)], or Skipped with the table's own reason for none."""
    rows = ok_rows(v.fleet[table])
    if rows.empty:
        raise Skipped(skip_reason(v.fleet[table], None, f"no {table} rows with status ok"))
    return list(by_type(v, rows))


HOST_LINES = 40  # thin per-host lines drawn under a type's median; more add only ink


def some_hosts(rows):
    """(host, rows) for the first HOST_LINES hosts in name order."""
    hosts = sorted(rows.host.unique())[:HOST_LINES]
    return rows[rows.host.isin(hosts)].groupby("host")


def _curve(rows, by, x, y):
    """Each group of @p by as one point, the median of its x and y, drawn in order of x."""
    values = [c for c in (x, y) if c != by]
    return rows.groupby(by)[values].median().reset_index().sort_values(x)


def class_curves(ax, rows, by, x, y):
    """Per pair class, a thin line per host and the median over the type's hosts."""
    for i, (pair, p) in enumerate(rows.groupby("pair_class")):
        for _host, h in some_hosts(p):
            h = _curve(h, by, x, y)
            ax.plot(h[x], h[y], color=f"C{i}", alpha=0.25, lw=1)
        med = _curve(p, by, x, y)
        ax.plot(med[x], med[y], "o-", color=f"C{i}",
                label=f"{pair}: median of {p.host.nunique()} host(s)")
