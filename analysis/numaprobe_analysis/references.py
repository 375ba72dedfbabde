# SPDX-License-Identifier: BSD-3-Clause
"""Reference values per node type (`compare --references REF NEW`), as ReFrame's references:
bounds each host's figures must stay within. REF is JSON or YAML:

  NODE_TYPE: {METRIC: {min: X, max: Y}}        either bound alone too
  NODE_TYPE: {METRIC: {ref: R, tol: P%}}       min R x (1 - P/100), max R x (1 + P/100)

X, Y and R are a number in the metric's unit, `peak` or `F * peak` (the host's peak_gbs).
NODE_TYPE is a type label, node_type, fingerprint or type_key. METRIC is a metric key (the
host's median over its nodes), or `METRIC@node N` / `METRIC@CLASS pairs`: that NUMA node's, or
remote pair class's, figure of the host (pernode.node_values). Either form of bounds may carry
`hosts: N`, how many hosts the figure rests on (reference_file.py writes it), read and ignored.
A bound that cannot be evaluated (the peak unknown), a host of the type without the figure (or
the node), and a noisy figure (noise.is_noisy) are *not judged*: a gate that passed them would
pass what it never looked at, and one that failed a noisy figure would call noise a
regression. `judge` is the one judge of compare --references and health."""

import json
import os
import re
import stat

import numpy as np
import pandas as pd

from .compare import UnusableInput
from .noise import NOISY_PCT, is_noisy
from .pernode import node_values

FORMS = ("{min: X, max: Y} (either alone), or {ref: R, tol: P%}; X, Y, R: a number, peak or "
         "F * peak")
_BOUND = re.compile(r"^\s*(?:([0-9.eE+-]+)\s*\*\s*)?peak\s*$")
_PERCENT = re.compile(r"^\s*([0-9.eE+]+)\s*%\s*$")
NOT_JUDGED = "not judged"
# A figure of one NUMA node or remote pair class: the labels pernode.node_values gives.
_NODE_KEY = re.compile(r"^([^@\s]+)@(node [0-9]+|[a-z0-9_]+ pairs)$")
KEY_FORMS = "METRIC, METRIC@node N or METRIC@CLASS pairs"
# Why a figure was not judged, for a reader that decides on it (health's summary line); the
# `reason` column says it to people.
WHY_NOISY, WHY_NO_VALUE, WHY_NO_NODE, WHY_PEAK = "noisy", "no value", "no such node", \
    "peak unknown"
# A reference file is a few hundred lines; anything near this is not one, and reading it whole
# (as /dev/zero would be) must not take the node that a nightly gate runs on.
MAX_BYTES = 1 << 20
COLUMNS = ["host", "type", "metric", "node", "unit", "value", "uncertainty_pct", "min", "max",
           "verdict", "reason", "key", "why", "bounds"]


class _Twice(Exception):
    """A key given twice in one mapping: the parsers keep the last value without a word."""

    def __init__(self, key, line=None, first=None):
        super().__init__(key)
        self.key, self.line, self.first = key, line, first


def _unique_pairs(pairs):
    seen = set()
    for key, _ in pairs:
        if key in seen:
            raise _Twice(key)
        seen.add(key)
    return dict(pairs)


def _yaml_loader(yaml):
    class Loader(yaml.SafeLoader):
        """SafeLoader that refuses a key given twice in one mapping, naming both lines."""

        def construct_mapping(self, node, deep=False):
            lines = {}
            for key_node, _ in node.value:
                key = self.construct_object(key_node, deep=deep)
                line = key_node.start_mark.line + 1
                try:
                    if key in lines:
                        raise _Twice(key, line, lines[key])
                    lines[key] = line
                except TypeError:
                    raise _Twice(key, line, "unhashable") from None
            return super().construct_mapping(node, deep=deep)

    return Loader


def _parse_yaml(text, path):
    try:
        import yaml
    except ImportError:
        raise UnusableInput(f"{path}: reading YAML references needs PyYAML (Debian: "
                            f"python3-yaml; pip: numaprobe_analysis[references]); or write "
                            f"them as JSON (REF.json)") from None
    loader = _yaml_loader(yaml)
    try:
        # Anchors and aliases first, from the event stream, before anything is built: an alias
        # bomb expands to billions of nodes only when it is constructed. References are plain
        # values, as numaprobe's own config is, which refuses them too.
        for event in yaml.parse(text, Loader=loader):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise UnusableInput(f"{path}:{event.start_mark.line + 1}: anchors and aliases "
                                    f"are not allowed in references (write each value out)")
        return yaml.load(text, Loader=loader)  # noqa: S506 (a SafeLoader)
    except _Twice as e:
        if e.first == "unhashable":
            raise UnusableInput(f"{path}:{e.line}: a key that is not a plain value") from None
        raise UnusableInput(f"{path}:{e.line}: {e.key!r} given twice (first on line "
                            f"{e.first})") from None
    except RecursionError:
        raise UnusableInput(f"{path}: not valid references: nested too deeply") from None
    except yaml.YAMLError as e:
        raise UnusableInput(f"{path}: not valid YAML: {' '.join(str(e).split())}") from None


def _parse(text, path):
    """JSON where the name ends in .json, YAML where it ends in .yaml or .yml; any other name
    by its content: a JSON object starts with `{`, so JSON is tried first and YAML (a superset)
    only where that fails."""
    lower = str(path).lower()
    if lower.endswith(".json") or (not lower.endswith((".yaml", ".yml"))
                                   and text.lstrip().startswith("{")):
        try:
            return json.loads(text, object_pairs_hook=_unique_pairs)
        except _Twice as e:
            raise UnusableInput(f"{path}: {e.key!r} given twice in one object") from None
        except RecursionError:
            raise UnusableInput(f"{path}: not valid references: nested too deeply") from None
        except json.JSONDecodeError as e:
            if lower.endswith(".json"):
                raise UnusableInput(f"{path}: not valid JSON: {e}") from None
    return _parse_yaml(text, path)


def _read(path):
    """The file's text: a regular file (a FIFO would block, a device never end) of at most
    MAX_BYTES, in UTF-8."""
    def refuse(why):
        return UnusableInput(f"{path}: cannot read the references: {why}")

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise refuse(e.strerror or e) from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = ("a directory" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode)
                else "a character device" if stat.S_ISCHR(mode)
                else "a block device" if stat.S_ISBLK(mode) else "a socket")
        raise refuse(f"not a regular file ({kind})")
    with os.fdopen(fd, "rb") as f:
        try:
            data = f.read(MAX_BYTES + 1)
        except OSError as e:
            raise refuse(e.strerror or e) from None
    if len(data) > MAX_BYTES:
        raise refuse(f"over {MAX_BYTES >> 20} MiB, too large for references")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise refuse(f"not UTF-8 (byte {e.start})") from None


def _expr(value, what):
    """A bound as written: a number, or the factor of `peak` as ('peak', F)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            number = float(value)  # an integer of 400 digits overflows here
        except OverflowError:
            number = np.inf
        if not np.isfinite(number):
            raise UnusableInput(f"{what} {value!r}: not a finite number")
        return number
    m = _BOUND.match(str(value))
    try:
        factor = float(m.group(1)) if m and m.group(1) else 1.0
    except ValueError:
        m = None
    if not m:
        raise UnusableInput(f"{what} {value!r}: expected a number, peak or F * peak")
    if not np.isfinite(factor):
        raise UnusableInput(f"{what} {value!r}: the factor of peak is not a finite number")
    return ("peak", factor)


def _bounds(spec, what):
    """{min, max} of one metric's reference as written: (lo, hi, tol_pct), each None if absent.
    `hosts` (how many hosts a written reference rests on) is checked and set aside."""
    if isinstance(spec, dict) and "hosts" in spec:
        n = spec["hosts"]
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise UnusableInput(f"{what}: hosts {n!r}: expected a whole number >= 0 (how many "
                                f"hosts the reference rests on)")
        spec = {k: v for k, v in spec.items() if k != "hosts"}
    if not isinstance(spec, dict) or not spec or not (
            set(spec) <= {"min", "max"} or set(spec) == {"ref", "tol"}):
        raise UnusableInput(f"{what}: expected {FORMS} (hosts: N may stand beside them)")
    if "ref" in spec:
        m = _PERCENT.match(spec["tol"]) if isinstance(spec["tol"], str) else None
        # A bare number is refused: ReFrame writes 0.1 for 10%, others 10; which was meant?
        if not m or not np.isfinite(float(m.group(1))):
            raise UnusableInput(f"{what}: tol {spec['tol']!r}: expected a percentage such as "
                                f"10%")
        # At 100% or more the lower bound is zero or below: every value would pass it.
        if float(m.group(1)) >= 100:
            raise UnusableInput(f"{what}: tol {spec['tol']!r}: expected less than 100%")
        return _expr(spec["ref"], f"{what}: ref"), None, float(m.group(1))
    lo = _expr(spec["min"], f"{what}: min") if "min" in spec else None
    hi = _expr(spec["max"], f"{what}: max") if "max" in spec else None
    # Bounds of one kind (two numbers, or two fractions of the peak) that no value can meet
    # are a typo, not a gate that fails every host.
    if lo is not None and hi is not None and isinstance(lo, tuple) == isinstance(hi, tuple):
        low, high = (lo[1], hi[1]) if isinstance(lo, tuple) else (lo, hi)
        if low > high:
            raise UnusableInput(f"{what}: min {spec['min']!r} is above max {spec['max']!r}")
    return lo, hi, None


def load(path):
    """The references of @p path: {node type: {metric key: (lo, hi, tol_pct)}}, every bound
    checked as it is read (so a malformed one is refused whether or not a host matches it)."""
    refs = _parse(_read(path), path)
    if not isinstance(refs, dict) or not refs or not all(isinstance(v, dict)
                                                         for v in refs.values()):
        raise UnusableInput(f"{path}: references are NODE_TYPE: {{METRIC: BOUNDS}}, BOUNDS "
                            f"{FORMS}")
    for name, metrics in refs.items():
        for key in metrics:
            if "@" in str(key) and not _NODE_KEY.match(str(key)):
                raise UnusableInput(f"{path}: {name!r} {key!r}: expected {KEY_FORMS}")
    return {str(name): {str(key): _bounds(spec, f"{path}: {name!r} {key}")
                        for key, spec in metrics.items()} for name, metrics in refs.items()}


def split_key(key):
    """(metric, node) of a reference key: node `node N`, `CLASS pairs` or "" (the host's)."""
    m = _NODE_KEY.match(key)
    return (m.group(1), m.group(2)) if m else (key, "")


def _expr_text(expr):
    if isinstance(expr, tuple):
        return "peak" if expr[1] == 1 else f"{expr[1]:g} * peak"
    return f"{expr:g}"


def bounds_text(bounds):
    """How @p bounds were written, where the numbers alone do not say it: `ref 20, tol 10%`, a
    bound on the peak (`min 0.2 * peak`); empty for plain min and max."""
    lo, hi, tol = bounds
    if tol is not None:
        return f"ref {_expr_text(lo)}, tol {tol:g}%"
    return ", ".join(f"{name} {_expr_text(e)}" for name, e in (("min", lo), ("max", hi))
                     if isinstance(e, tuple))


def _value(expr, peak):
    if expr is None:
        return np.nan
    if isinstance(expr, tuple):
        return expr[1] * peak if np.isfinite(peak) and peak > 0 else np.nan
    return expr


def _limits(bounds, peak):
    """(min, max, reason): NaN where a bound is absent; reason names a bound that cannot be
    evaluated (empty when both can)."""
    lo, hi, tol = bounds
    if tol is not None:
        r = _value(lo, peak)
        lo_v, hi_v = r * (1 - tol / 100), r * (1 + tol / 100)
        missing = [] if np.isfinite(r) else [lo]
    else:
        lo_v, hi_v = _value(lo, peak), _value(hi, peak)
        missing = [e for e, v in ((lo, lo_v), (hi, hi_v)) if e is not None and np.isnan(v)]
    reason = ""
    if missing:
        reason = ("the peak is unknown (peak_gbs 0: no DIMM speed from SMBIOS and none "
                  "configured in memory.dimm_speed)")
    return lo_v, hi_v, reason


def judge(values, hosts, catalogue, refs, nodes=None):
    """Every host of a node type named in @p refs (its label, node_type, fingerprint or
    type_key) against each of its keys' bounds: `regression` when its value is below min or
    above max, `not judged` (with the reason, and `why`: WHY_*) when it has no value, its figure
    is noisy or a bound cannot be evaluated, else `same`. A key `METRIC@NODE` takes the host's
    figure of that node from @p nodes (pernode.node_values with its noisy figures kept).
    Returns (frame, matched hosts, notes)."""
    rows, notes, matched = [], [], set()
    info = hosts.set_index("host")
    known = values[values.value.notna()].set_index(["host", "metric"])
    have = known.value
    spread = known.spread_pct if "spread_pct" in known.columns else known.value * np.nan
    if nodes is None:
        nodes = pd.DataFrame(columns=["host", "metric", "node", "value", "spread_pct"])
    per_node = nodes.set_index(["host", "metric", "node"])
    labels = nodes.groupby(["host", "metric"]).node.agg(lambda n: ", ".join(sorted(set(n))))
    type_key = hosts.type_key if "type_key" in hosts.columns else hosts.fingerprint
    for name, metrics in refs.items():
        # A fingerprint names the type of the hosts that carry it: a file of the same hardware
        # written before schema 0.10.0 carries another one.
        named = ((hosts.type == name) | (hosts.node_type == name) | (hosts.fingerprint == name)
                 | (type_key == name))
        sel = hosts[hosts.type.isin(hosts.type[named])]
        if sel.empty:
            notes.append(f"reference node type {name!r}: no host of it in this file")
            continue
        for key, bounds in metrics.items():
            metric, node = split_key(key)
            if metric not in catalogue:
                raise UnusableInput(f"reference {name!r}: no metric {metric!r} in this file "
                                    f"(metrics: {', '.join(catalogue)})")
            m = catalogue[metric]
            for host, typ in zip(sel.host, sel.type):
                matched.add(host)
                peak = float(info.at[host, "peak_gbs"]) if "peak_gbs" in info.columns \
                    else np.nan
                lo, hi, reason = _limits(bounds, peak)
                why = WHY_PEAK if reason else ""
                if node:
                    value = per_node.value.get((host, metric, node), np.nan)
                    u = per_node.spread_pct.get((host, metric, node), np.nan)
                else:
                    value, u = have.get((host, metric), np.nan), spread.get((host, metric), np.nan)
                if not np.isfinite(value):
                    reason, why = "no value (no ok rows measured it)", WHY_NO_VALUE
                    if node:
                        reason, why = (f"no value for {node} (this host has "
                                       f"{labels.get((host, metric)) or 'none by node'})",
                                       WHY_NO_NODE)
                elif is_noisy(u):
                    reason, why = (f"noisy: uncertainty {u:.0f}% above {NOISY_PCT:g}% "
                                   f"(re-measure the host)"), WHY_NOISY
                if reason:
                    verdict = NOT_JUDGED
                else:
                    verdict = "regression" if value < lo or value > hi else "same"
                rows.append([host, typ, f"{m.label}, {node}" if node else m.label, node,
                             m.unit, value, u, lo, hi, verdict, reason, metric, why,
                             bounds_text(bounds)])
    frame = pd.DataFrame(rows, columns=COLUMNS)
    order = frame.verdict.map({"regression": 0, NOT_JUDGED: 1, "same": 2})
    frame = frame.assign(_o=order).sort_values(["_o", "host", "metric"]).drop(columns="_o")
    return frame.reset_index(drop=True), sorted(matched), notes


def judge_view(v, refs):
    """judge() on a FleetView: the hosts of v.fleet, their per-node figures computed only
    where @p refs name a node."""
    nodes = None
    if any(split_key(k)[1] for metrics in refs.values() for k in metrics):
        nodes = node_values(v.fleet, v.hosts, keep_noisy=True)
    return judge(v.values, v.hosts, v.catalogue, refs, nodes)
