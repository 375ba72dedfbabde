# SPDX-License-Identifier: BSD-3-Clause
"""References made from a fleet (`numaprobe-report references FILES... -o REF`): per node type,
keyed by its type_key (nodetypes.py: the hardware the type is meant to have, memory left out,
so that a host that lost a DIMM is still found in its type and judged there, where its
fingerprint, which hashes memory, would name a type of its own), per judged headline metric (Metric.judged) and per NUMA node or remote
pair class where the figure is one of a node (pernode.node_values, keys `METRIC@node N` and
`METRIC@CLASS pairs`), the bounds `{ref: R, tol: P%, hosts: N}` that `compare --references`
and `health` read back (references.py):

  ref    the type's median over its hosts whose figure is not noisy (noise.is_noisy);
  tol    max(FLOOR_PCT, Z x MAD / |median| + U), rounded up to a whole percent: Z is the outlier
         rule's z limit (3.5) and MAD the hosts' median absolute deviation scaled to a standard
         deviation (outliers.robust_z's), so a healthy host of the type lies within it as the
         outlier rule would keep it; U is the median of the figures' own uncertainties (what one
         run of a host wanders by, which the spread between hosts does not show where every
         host was measured once); the floor keeps a type of near-identical hosts from a bound
         tighter than any rerun of one of them;
  hosts  how many hosts the figure rests on (informational: the reader ignores it).

A type with fewer hosts than the outlier rule's minimum (min_hosts, 5) is left out, and so is a
figure that fewer hosts than that have measured quietly, or whose tolerance would reach 100%:
each is named in a comment of the file (and by the command on stderr), never bounded by too
few figures. The file is YAML with the type's label, node_type and fingerprint as a comment above
its key, or JSON (no comments) where its name ends in .json; a site may edit every value."""

import json
import math
from dataclasses import dataclass, field

import numpy as np
from scipy.stats import median_abs_deviation

from .noise import is_noisy
from .pernode import node_values

FLOOR_PCT = 5.0
# Written to 4 significant digits: 0.05% at most, far inside any tolerance.
DIGITS = 4


@dataclass
class TypeReferences:
    key: str  # what the file names it by: the type's type_key
    label: str
    fingerprint: str
    node_type: str
    type_key: str
    hosts: int
    figures: list = field(default_factory=list)  # (key, ref, tol_pct, hosts)
    left_out: list = field(default_factory=list)  # (key, why)


def _round(x):
    return float(f"{x:.{DIGITS}g}")


def tolerance_pct(x, uncertainties, z_limit, floor_pct):
    """The tolerance (percent, a whole number) of figures @p x around their median."""
    med = float(np.median(x))
    mad = float(median_abs_deviation(x, scale="normal"))
    u = np.asarray(uncertainties, dtype=float)
    u = u[np.isfinite(u)]
    own = float(np.median(u)) if len(u) else 0.0
    spread = z_limit * mad / abs(med) * 100 if med != 0 else math.inf
    return float(math.ceil(max(floor_pct, spread + own) - 1e-9))


def _figure(key, group, min_hosts, z_limit, floor_pct, out):
    """Adds @p key's bounds from @p group (value, spread_pct of the type's hosts) to @p out."""
    valued = group[group.value.notna()]  # NaN: a cache level not judged on the host
    quiet = valued[~is_noisy(valued.spread_pct)]
    if len(quiet) < min_hosts:
        noisy = f", {len(valued) - len(quiet)} of them noisy" if len(valued) > len(quiet) else ""
        out.left_out.append((key, f"{len(valued)} host(s) have a value{noisy}: fewer than "
                                  f"{min_hosts} to rest on"))
        return
    x = quiet.value.to_numpy(dtype=float)
    tol = tolerance_pct(x, quiet.spread_pct, z_limit, floor_pct)
    if tol >= 100:
        out.left_out.append((key, f"its hosts spread too widely to bound (tol {tol:g}%)"))
        return
    out.figures.append((key, _round(float(np.median(x))), tol, len(quiet)))


def _node_order(label):
    """node 0, node 1, ..., node 10 in that order, then the pair classes by name."""
    word, _, rest = label.partition(" ")
    return (0, int(rest), "") if word == "node" and rest.isdigit() else (1, 0, label)


def derive(v, rule, floor_pct=FLOOR_PCT):
    """The references of FleetView @p v: (list of TypeReferences, list of (label, fingerprint,
    hosts) of the types too small), the rule @p rule's min_hosts and z_limit deciding."""
    nodes = node_values(v.fleet, v.hosts, keep_noisy=True)
    made, small = [], []
    for typ, members in v.hosts.groupby("type", sort=True):
        fps = members.fingerprint.astype(str).value_counts()
        fingerprint = fps.sort_index().sort_values(ascending=False, kind="stable").index[0]
        if len(members) < rule.min_hosts:
            small.append((typ, fingerprint, len(members)))
            continue
        key = str(members.type_key.iloc[0])
        t = TypeReferences(key=key, label=typ, fingerprint=fingerprint,
                           node_type=str(members.node_type.iloc[0]),
                           type_key=str(members.type_key.iloc[0]), hosts=len(members))
        values = v.values[v.values.type == typ]
        per_node = nodes[nodes.type == typ]
        for key, m in v.catalogue.items():
            if not m.judged:
                continue
            group = values[values.metric == key]
            if len(group):
                _figure(key, group, rule.min_hosts, rule.z_limit, floor_pct, t)
            parts = per_node[per_node.metric == key]
            for node in sorted(set(parts.node), key=_node_order):
                _figure(f"{key}@{node}", parts[parts.node == node], rule.min_hosts,
                        rule.z_limit, floor_pct, t)
        made.append(t)
    return made, small


def _number(x):
    """A float YAML and JSON both read as one: PyYAML takes `1e+16` for text, `1.0e+16` not."""
    text = repr(float(x))
    mantissa, e, exponent = text.partition("e")
    return f"{mantissa}.0e{exponent}" if e and "." not in mantissa else text


def _comment(text):
    return " ".join(str(text).split())


def yaml_text(made, small, rule, floor_pct, sources):
    """The references as YAML, with what they rest on in comments."""
    lines = ["# numaprobe references (numaprobe-report references; docs/ANALYSIS.md), from:"]
    lines += [f"#   {_comment(s)}" for s in sources]
    lines += ["# ref: the node type's median over its hosts whose figure is not noisy;",
              f"# tol: max({floor_pct:g}%, {rule.z_limit:g} x MAD / median + the figures' median "
              f"uncertainty), rounded up;",
              "# hosts: the figures it rests on (read and ignored). Edit as you see fit."]
    for label, fingerprint, n in small:
        lines.append(f"# left out: {_comment(label)} (fingerprint {fingerprint}): {n} host(s), "
                     f"too few to judge (fewer than {rule.min_hosts})")
    for t in made:
        lines += ["", f"# {_comment(t.label)}: {t.hosts} host(s); node_type "
                      f"{_comment(t.node_type)}; fingerprint {t.fingerprint}; type_key "
                      f"{t.type_key}"]
        lines += [f"#   left out: {key}: {why}" for key, why in t.left_out]
        lines.append(f"{json.dumps(t.key)}:" + ("" if t.figures else " {}"))
        lines += [f"  {json.dumps(key)}: {{ref: {_number(ref)}, tol: \"{tol:g}%\", hosts: {n}}}"
                  for key, ref, tol, n in t.figures]
    return "\n".join(lines) + "\n"


def json_text(made):
    doc = {t.key: {key: {"ref": ref, "tol": f"{tol:g}%", "hosts": n}
                           for key, ref, tol, n in t.figures} for t in made}
    return json.dumps(doc, indent=1) + "\n"
