# SPDX-License-Identifier: BSD-3-Clause
"""Node types: what a host's hardware is meant to be, and the hosts that fall short of theirs.

A node type is the CPU model, the packages, the NUMA nodes, the cores and the caches. Memory
is not part of it, nor the DIMM layout, nor the binary's `fingerprint` (which hashes memory):
a host that lost a DIMM, or a virtual machine whose memory a balloon or hotplug changed, would
otherwise be a type of its own, too small to judge, when it is the host a site most needs to
find. Such a host is a *degraded* member of its type instead: judged with it, and named with
what it lacks."""

import hashlib

import numpy as np
import pandas as pd

# /hosts columns that name the hardware a host is meant to have (nodes: its /numa_nodes rows).
KEY_FIELDS = ("cpu_model", "packages", "nodes", "cores", "l1d_bytes", "l2_bytes", "l3_bytes")

# Memory a node may lack against its type's median before it counts: firmware reservations,
# a crash kernel or a hotplugged block move MemTotal by a percent or two.
MEMORY_TOLERANCE_PCT = 3.0

# A host short of its family's usual cores by at most this share has cores offline (a degraded
# member); one short by more is another size of machine (a VM of 8 vCPUs beside ones of 16).
CORES_OFFLINE_SHARE = 1 / 8

NODE_COLUMNS = ["host", "node", "memory_bytes", "cpus"]


def node_rows(fleet):
    """Per host, the /numa_nodes rows of its first rank (host, node, memory_bytes, cpus);
    empty where the fleet has no such table."""
    try:
        nodes = fleet["numa_nodes"]
    except KeyError:
        return pd.DataFrame(columns=NODE_COLUMNS)
    if nodes is None or nodes.empty or "host" not in nodes.columns:
        return pd.DataFrame(columns=NODE_COLUMNS)
    nodes = nodes[nodes.host.notna()]
    first = nodes.groupby("host")["rank"].transform("min")
    nodes = nodes[nodes["rank"] == first]
    cols = [c for c in NODE_COLUMNS if c in nodes.columns]
    return nodes[cols].drop_duplicates(["host", "node"]).reset_index(drop=True)


def _nominal_cores(hosts, family):
    """Per host, the cores its type is meant to have: its own count, or a more common count of
    its family that it falls short of by at most CORES_OFFLINE_SHARE."""
    out = hosts.cores.astype(int).copy()
    for _, members in hosts.groupby(family, sort=False, dropna=False):
        counts = members.cores.astype(int).value_counts()
        for c in counts.index:
            usual = [u for u in counts.index if u > c and counts[u] >= counts[c]
                     and c >= u * (1 - CORES_OFFLINE_SHARE)]
            if usual:
                nominal = max(usual, key=lambda u: (counts[u], u))
                out[members.index[members.cores.astype(int) == c]] = nominal
    return out


# A NUMA node count held by fewer hosts than this, and by under a quarter of the family, is a
# host that lost a node (DIMMs gone, a node offline), not a NUMA setting of its own (NPS, SNC
# and sub-NUMA clustering are set for whole partitions of a fleet).
LOST_NODE_HOSTS = 5


def _nominal_nodes(hosts, family):
    """Per host, the NUMA nodes its type is meant to have: its own count, or the most common
    larger count of its family where its own count is that rare (LOST_NODE_HOSTS)."""
    out = hosts.nodes.astype(int).copy()
    for _, members in hosts.groupby(family, sort=False, dropna=False):
        counts = members.nodes.astype(int).value_counts()
        for c in counts.index:
            larger = [u for u in counts.index if u > c and counts[u] > counts[c]]
            if larger and counts[c] < LOST_NODE_HOSTS and counts[c] * 4 < len(members):
                out[members.index[members.nodes.astype(int) == c]] = max(
                    larger, key=lambda u: (counts[u], u))
    return out


def _digest(parts):
    return hashlib.sha1(repr(parts).encode()).hexdigest()[:16]


def assign_types(hosts, nodes):
    """Adds to @p hosts (one row per host) `nodes` (its NUMA nodes), `type_nodes` and
    `type_cores` (the nodes and cores its type is meant to have), `type_key` (a hash of
    KEY_FIELDS with those) and `type`: the
    label most of the type's hosts carry (`node_type`), told apart by the key's first six hex
    digits where two types share it (but for the largest of them). Without the hardware columns, the fingerprint is the key."""
    counted = nodes.groupby("host").node.count() if len(nodes) else pd.Series(dtype=int)
    fallback = hosts.numa_nodes if "numa_nodes" in hosts.columns else pd.Series(0, hosts.index)
    hosts["nodes"] = counted.reindex(hosts.host).fillna(pd.Series(
        fallback.to_numpy(), index=hosts.host)).astype(int).to_numpy()
    if "cpu_model" not in hosts.columns or "cores" not in hosts.columns:
        hosts["type_cores"] = hosts.cores if "cores" in hosts.columns else 0
        hosts["type_key"] = hosts.fingerprint.astype(str)
    else:
        family = [f for f in KEY_FIELDS if f in hosts.columns and f not in ("cores", "nodes")]
        hosts["type_nodes"] = _nominal_nodes(hosts, family)
        hosts["type_cores"] = _nominal_cores(hosts, family + ["type_nodes"])
        # A host that lost a node lost its cores too: its type has the cores of its peers.
        short = hosts.nodes < hosts.type_nodes
        for i in hosts.index[short]:
            peers = hosts[(hosts[family] == hosts.loc[i, family]).all(axis=1)
                          & (hosts.nodes == hosts.type_nodes)]
            if len(peers):
                hosts.loc[i, "type_cores"] = int(peers.type_cores.mode().max())
        fields = family + ["type_nodes", "type_cores"]
        hosts["type_key"] = [_digest(tuple(str(x) for x in row))
                             for row in hosts[fields].itertuples(index=False)]
    label = hosts.groupby("type_key").node_type.agg(
        lambda s: s.astype(str).value_counts().sort_index().sort_values(
            ascending=False, kind="stable").index[0])
    # Where types share a label, the largest keeps it (a VM whose hwloc misreports its L3 does
    # not rename its peers' type); the others, or all where none is largest, take the suffix.
    size = hosts.groupby("type_key").size()
    plain = {}
    for lbl, keys in label.groupby(label):
        counts = size[keys.index].sort_values(ascending=False)
        if len(counts) == 1 or counts.iloc[0] > counts.iloc[1]:
            plain[lbl] = counts.index[0]
    hosts["type"] = [label[k] if plain.get(label[k]) == k else f"{label[k]} [{k[:6]}]"
                     for k in hosts.type_key]
    return hosts


def values_text(column):
    """A /hosts text column of a type's hosts as one cell: its value where they agree, else each
    value with its count, the most common first ("avx512f (19), avx2 (1)"); NaN where none has
    one (an older file)."""
    texts = column.dropna().astype(str).str.strip()
    counts = texts[texts != ""].value_counts(sort=False)
    if counts.empty:
        return np.nan
    if len(counts) == 1:
        return counts.index[0]
    counts = counts.sort_index().sort_values(ascending=False, kind="stable")
    return ", ".join(f"{value} ({n})" for value, n in counts.items())


def _gib(x):
    text = f"{x / 2**30:.1f}"
    return f"{text.removesuffix('.0')} GiB"


def _count(x):
    return f"{float(x):g}"


DEGRADED_COLUMNS = ["type", "host", "reason"]


def degraded_frame(hosts, nodes, tolerance_pct=MEMORY_TOLERANCE_PCT):
    """The hosts that fall short of their node type's hardware (type, host, reason): cores
    offline, a node with less memory than the type's median for that node (beyond
    @p tolerance_pct) or fewer CPUs, fewer nodes with memory or CPUs than the type usually has,
    a DIMM layout unlike most of the type's where known. A type of one host has no usual figures
    to fall short of."""
    rows = []
    for typ, members in hosts.groupby("type", sort=True):
        if len(members) < 2:
            continue
        reasons = {h: [] for h in members.host}
        if "nodes" in members.columns and "type_nodes" in members.columns:
            for h, k, usual in zip(members.host, members.nodes, members.type_nodes):
                if k < usual:
                    reasons[h].append(f"{k} NUMA node(s) where its type has {usual}")
        if "cores" in members.columns and "type_cores" in members.columns:
            for h, c, usual in zip(members.host, members.cores, members.type_cores):
                if c < usual:
                    reasons[h].append(f"{c} cores where its type has {usual}")
        n = nodes[nodes.host.isin(members.host)]
        if len(n):
            _node_reasons(n, members, tolerance_pct, reasons)
        if "dimms" in members.columns:
            known = members.dimms.astype(str).str.strip()
            known = known[known != ""]
            if known.nunique() > 1:
                common = known.value_counts().index[0]
                for h, d in zip(members.host[known.index], known):
                    if d != common:
                        reasons[h].append(f"DIMMs {d} where its type has {common}")
        rows += [(typ, h, "; ".join(r)) for h, r in reasons.items() if r]
    return pd.DataFrame(rows, columns=DEGRADED_COLUMNS)


def _node_reasons(n, members, tolerance_pct, reasons):
    """Node by node against the type's median of that node; and nodes with memory or CPUs."""
    mem = n.groupby("node").memory_bytes.median()
    cpus = n.groupby("node").cpus.median() if "cpus" in n.columns else None
    for r in n.sort_values(["host", "node"]).itertuples(index=False):
        usual = float(mem[r.node])
        if r.memory_bytes < usual * (1 - tolerance_pct / 100):
            reasons[r.host].append(f"node {r.node} has {_gib(r.memory_bytes)} where its type "
                                   f"has {_gib(usual)}")
        if cpus is not None and r.cpus < cpus[r.node]:
            reasons[r.host].append(f"node {r.node} has {r.cpus} CPUs where its type has "
                                   f"{_count(cpus[r.node])}")
    for column, what in (("memory_bytes", "memory"), ("cpus", "CPUs")):
        if column not in n.columns:
            continue
        having = (n[n[column] > 0].groupby("host").size()
                  .reindex(members.host).fillna(0).astype(int))
        usual = float(np.median(having.to_numpy()))
        for h, k in having.items():
            if k < usual:
                reasons[h].append(f"{k} NUMA node(s) with {what} where its type has "
                                  f"{_count(usual)}")
