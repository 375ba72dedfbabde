# SPDX-License-Identifier: BSD-3-Clause
"""Everything the tables, plots and reports are made from, computed once from a loaded fleet."""

from dataclasses import dataclass, field

import pandas as pd

from .counters import counters_view
from .metrics import host_metrics, hosts_frame, node_types_frame, summary_frame
from .nodetypes import degraded_frame, node_rows
from .outliers import OutlierRule, find_outliers
from .pernode import node_outliers, node_values


@dataclass
class FleetView:
    fleet: object
    rule: OutlierRule
    hosts: pd.DataFrame = None
    types: pd.DataFrame = None
    values: pd.DataFrame = None
    catalogue: dict = field(default_factory=dict)
    summary: pd.DataFrame = None
    outliers: pd.DataFrame = None
    too_small: list = field(default_factory=list)
    degraded: pd.DataFrame = None  # type, host, reason: hosts short of their type's hardware
    counters: object = None  # counters.Counters: what /counters says, per host

    def type_names(self):
        return list(self.types["type"])

    def type_hosts(self, typ):
        return set(self.hosts.loc[self.hosts["type"] == typ, "host"])


def view(fleet, rule=OutlierRule()):
    v = FleetView(fleet=fleet, rule=rule)
    v.hosts = hosts_frame(fleet)
    v.types = node_types_frame(v.hosts)
    v.values, v.catalogue = host_metrics(fleet, v.hosts)
    v.summary = summary_frame(v.values, v.catalogue)
    per_type = v.hosts.groupby("type").host.nunique()
    v.outliers, v.too_small = find_outliers(v.values, v.catalogue, rule, per_type)
    # A host's figures are medians over its nodes: judged node by node too, so one bad node of
    # four is not hidden. Whole-host rows have the node "".
    small = {t for t, _ in v.too_small}
    per_node = node_outliers(node_values(fleet, v.hosts), v.catalogue, rule, small, v.outliers)
    v.outliers = pd.concat([v.outliers.assign(node=""), per_node], ignore_index=True)[
        [*v.outliers.columns[:3], "node", *v.outliers.columns[3:]]] \
        .sort_values(["type", "host", "metric"]).reset_index(drop=True)
    v.degraded = degraded_frame(v.hosts, node_rows(fleet))
    v.counters = counters_view(fleet, v.hosts, rule, per_type)
    return v

