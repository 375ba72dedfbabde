# SPDX-License-Identifier: BSD-3-Clause
"""Prometheus metrics: one node_exporter textfile-collector file per host (HOST.prom), in the
OpenMetrics text format (every family with # HELP, # TYPE and, where its name ends in a unit,
# UNIT; the file ends with the one # EOF), written atomically (a temporary name node_exporter
ignores, then rename) since node_exporter may read the directory at any time. Every family is a
gauge: node_exporter reads the files with the Prometheus text parser, which knows no OpenMetrics
`info` type but skips # UNIT and # EOF as comments, so one file suits both readers.

Names start with numaprobe_ and carry Prometheus base units (seconds, bytes per second); the
figures are the matrix cells of the host's latest run (docs/ANALYSIS.md, "Prometheus metrics"),
beside the report's verdicts on the host (outlier, degraded, noisy figures, config drift) and,
where RESULTS hold several runs of a host, history's drift. No sample
carries a timestamp: the textfile collector refuses them; the run's start time is a metric of
its own.

The binary writes the same families for what one host knows alone, on the host itself
(`numaprobe --textfile-dir DIR`, DIR/numaprobe.prom): `numaprobe --schema` lists them
(`openmetrics_families`), and a test holds FAMILIES to that list."""

import calendar
import os
import re

import numpy as np

from .history import parse_time
from .names import MemPolicy, RestoreOutcome, Status
from .noise import NOISY_PCT, is_noisy, row_spread_pct
from .summary import drift_frame, restore_outcomes

# name, type, help; the unit is the name's suffix where it ends in one of UNITS.
FAMILIES = (
    ("numaprobe_latency_seconds", "gauge",
     "Idle latency of a dependent load from CPUs of cpu_node to memory bound to mem_node "
     "(median over samples)"),
    ("numaprobe_latency_uncertainty_ratio", "gauge",
     "Relative uncertainty of numaprobe_latency_seconds with the same labels (0.03 is 3%; "
     f"above {NOISY_PCT / 100:g} the figure is noisy: shown, not judged)"),
    ("numaprobe_bandwidth_bytes_per_second", "gauge",
     "Bandwidth of all cores of cpu_node streaming memory bound to mem_node (best repetition)"),
    ("numaprobe_bandwidth_uncertainty_ratio", "gauge",
     "Relative uncertainty of numaprobe_bandwidth_bytes_per_second with the same labels (0.03 "
     f"is 3%; above {NOISY_PCT / 100:g} the figure is noisy: shown, not judged)"),
    ("numaprobe_host_ok", "gauge", "1 when the host's run ended ok, else 0"),
    ("numaprobe_run_start_timestamp_seconds", "gauge",
     "Start of the run the host's figures come from, seconds since the epoch"),
    ("numaprobe_host_info", "gauge",
     "The host's node type, hardware fingerprint, OS kernel and run (value always 1)"),
    ("numaprobe_host_judged", "gauge",
     "1 when the host's node type has enough hosts for the outlier rule, else 0 (not judged)"),
    ("numaprobe_host_outlier", "gauge",
     "1 when the host is an outlier of its node type on any headline metric, else 0"),
    ("numaprobe_outlier", "gauge",
     "1 for each headline metric on which the host is an outlier within its node type"),
    ("numaprobe_node_outlier", "gauge",
     "1 for each NUMA node (node N) or remote pair class (CLASS pairs) of the host that is an "
     "outlier on a headline metric against the same node or class of its node type"),
    ("numaprobe_host_degraded", "gauge",
     "1 when the host falls short of its node type's hardware (memory on a node, cores, NUMA "
     "nodes, DIMMs; reason says what), else 0"),
    ("numaprobe_host_noisy_figures", "gauge",
     "Headline figures a verdict judges (the matrices' metrics) whose spread is above "
     f"{NOISY_PCT:g}% on the host (shown, not judged)"),
    ("numaprobe_noisy", "gauge",
     "1 for each headline metric a verdict judges whose figure is too noisy to judge on this "
     "host"),
    ("numaprobe_host_not_restored", "gauge",
     "1 when the host's run found kernel.numa_balancing left changed by a killed numaprobe run "
     "and could not put it back, or could not tell (numaprobe restore, as root, puts it back), "
     "else 0"),
    ("numaprobe_config_drift", "gauge",
     "1 for each /hosts setting in which the host differs from most hosts of its node type"),
    ("numaprobe_host_drifted", "gauge",
     "1 when a figure of the host's latest run drifted worse (history's rules, against its own "
     "earlier runs or its node type) among the RESULTS given, else 0; absent from a single run"),
    ("numaprobe_drifted", "gauge",
     "1 for each headline metric that drifted worse on the host (rule: own or type)"),
)
UNITS = ("seconds", "bytes_per_second", "ratio")

_SAFE = re.compile(r"[^A-Za-z0-9._-]")


def _label_value(value):
    return str(value).replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _sample(name, labels, value):
    body = ",".join(f'{k}="{_label_value(v)}"' for k, v in labels.items())
    return f"{name}{{{body}}} {value!r}" if isinstance(value, float) else \
        f"{name}{{{body}}} {value}"


def _percent(match):
    return "".join(f"%{b:02X}" for b in match.group().encode("utf-8"))


def file_name(host):
    """HOST.prom, HOST percent-encoded: each UTF-8 byte of a character outside [A-Za-z0-9._-]
    (% included) as %XX. Replacing them by one character would give "node 1" and "node_1" the
    same file, one host's figures lost; this encoding is reversible (urllib.parse.unquote), so
    no two hosts share a name, and plain hostnames and FQDNs keep theirs."""
    return _SAFE.sub(_percent, host) + ".prom"


def _ok_matrix(frame, experiment):
    if frame.empty:
        return frame
    rows = frame[(frame.status == Status.OK) & (frame.experiment == experiment)
                 & (frame.mem_policy == MemPolicy.BIND)]
    return rows


def host_samples(v, drift=None):
    """host -> {family: [sample lines]} for every host of the FleetView; @p drift: history's
    drift frame over the runs given (None: one run each, no drift to say)."""
    fleet = v.fleet
    hosts = v.hosts.set_index("host")
    out = {h: {f[0]: [] for f in FAMILIES} for h in hosts.index}
    runs = {r.path: r for r in fleet.runs}
    first_file = fleet["hosts"].groupby("host").file.first()

    def base(host):
        return {"host": host, "node_type": hosts.at[host, "type"]}

    cells = (("latency", "latency_matrix", "latency_ns_median", "pattern",
              "numaprobe_latency_seconds", 1e-9),
             ("bandwidth", "bandwidth_matrix", "gbs_best", "kernel",
              "numaprobe_bandwidth_bytes_per_second", 1e9))
    for table, experiment, column, what, family, scale in cells:
        rows = _ok_matrix(fleet[table], experiment)
        if not len(rows):
            continue
        # A cell's figure is the median over the host's ranks, its uncertainty the largest of
        # theirs: the report's rule for a host's figure.
        rows = rows.assign(_u=row_spread_pct(rows, column))
        med = rows.groupby(["host", "cpu_node", "mem_node", what]).agg(
            value=(column, "median"), u=("_u", "max"))
        uncertainty = family.replace("_seconds", "_uncertainty_ratio").replace(
            "_bytes_per_second", "_uncertainty_ratio")
        for (host, c, m, name), cell in med.iterrows():
            if host not in out or not np.isfinite(cell.value):
                continue
            labels = {**base(host), "cpu_node": c, "mem_node": m, what: name}
            out[host][family].append(_sample(family, labels, float(cell.value) * scale))
            if np.isfinite(cell.u):
                out[host][uncertainty].append(_sample(uncertainty, labels, float(cell.u) / 100))
    ranks = fleet["hosts"]
    # Ok when every rank of the host ended ok (the binary's own file says the same).
    ok = (ranks.status.astype(str) == Status.OK).groupby(ranks.host).all() \
        if "status" in ranks.columns else {}
    not_restored = _not_restored(ranks)
    for host in hosts.index:
        out[host]["numaprobe_host_ok"].append(_sample("numaprobe_host_ok", base(host),
                                                      int(bool(ok.get(host, True)))))
        if host in not_restored:
            out[host]["numaprobe_host_not_restored"].append(_sample(
                "numaprobe_host_not_restored", base(host), int(not_restored[host])))
        run = runs.get(first_file.get(host))
        t = parse_time(run.start_utc) if run else None
        if t is not None:
            epoch = calendar.timegm(t.timetuple())
            out[host]["numaprobe_run_start_timestamp_seconds"].append(_sample(
                "numaprobe_run_start_timestamp_seconds", base(host), float(epoch)))
        info = {**base(host), "fingerprint": hosts.at[host, "fingerprint"],
                "os_kernel": hosts.at[host, "kernel"] if "kernel" in hosts.columns else "",
                "run_id": run.run_id if run else "",
                "config_fingerprint": run.fingerprint if run else ""}
        out[host]["numaprobe_host_info"].append(_sample("numaprobe_host_info", info, 1))
    _verdicts(v, out, base)
    if drift is not None:
        _drifted(drift, out, base)
    return out


def _not_restored(ranks):
    """host -> whether a rank found a setting a killed run left changed and could not put it
    back (/hosts `restore_outcome` failed, schema 0.18.0); hosts none of whose ranks says
    (older files, ranks given up as hung) are left out: not known."""
    return {host: RestoreOutcome.FAILED in said
            for host, said in restore_outcomes(ranks).items()}


def _verdicts(v, out, base):
    """The report's verdicts on each host: judged, outlier (overall and per metric), noisy
    judged figures (count and per metric) and config drift (per field)."""
    small = {t for t, _ in v.too_small}
    outliers = set(v.outliers.host)
    # The metrics a verdict judges (the matrices'; a cache level's has no spread): a noisy
    # figure counts where it keeps a verdict from being made, as the binary's own file counts.
    judged = [k for k, m in v.catalogue.items() if m.judged]
    noisy = v.values[is_noisy(v.values.spread_pct) & v.values.metric.isin(judged)] \
        if len(v.values) else v.values
    counts = noisy.groupby("host").metric.count()
    type_of = dict(zip(v.hosts.host, v.hosts.type))
    for host in out:
        judged = type_of.get(host) not in small
        out[host]["numaprobe_host_judged"].append(_sample("numaprobe_host_judged", base(host),
                                                          int(judged)))
        out[host]["numaprobe_host_outlier"].append(_sample(
            "numaprobe_host_outlier", base(host), int(host in outliers)))
        out[host]["numaprobe_host_noisy_figures"].append(_sample(
            "numaprobe_host_noisy_figures", base(host), int(counts.get(host, 0))))
    reasons = dict(zip(v.degraded.host, v.degraded.reason)) if v.degraded is not None else {}
    for host in out:
        out[host]["numaprobe_host_degraded"].append(_sample(
            "numaprobe_host_degraded", {**base(host), "reason": reasons.get(host, "")},
            int(host in reasons)))
    # One sample per host and metric (a host flagged as a whole and on a node is one outlier
    # on that metric); the node rows have their own family.
    whole = v.outliers.drop_duplicates(["host", "key"])
    for r in whole.itertuples(index=False):
        if r.host in out:
            out[r.host]["numaprobe_outlier"].append(_sample(
                "numaprobe_outlier", {**base(r.host), "metric": r.key}, 1))
    for r in v.outliers[v.outliers.node != ""].itertuples(index=False):
        if r.host in out:
            out[r.host]["numaprobe_node_outlier"].append(_sample(
                "numaprobe_node_outlier", {**base(r.host), "metric": r.key, "node": r.node}, 1))
    for r in noisy.itertuples(index=False):
        if r.host in out:
            out[r.host]["numaprobe_noisy"].append(_sample(
                "numaprobe_noisy", {**base(r.host), "metric": r.metric}, 1))
    for r in drift_frame(v).itertuples(index=False):
        if r.host in out:
            out[r.host]["numaprobe_config_drift"].append(_sample(
                "numaprobe_config_drift", {**base(r.host), "field": r.field, "value": r.value,
                                           "type_value": r.type_value}, 1))


def _drifted(drift, out, base):
    """History's verdicts on each host's latest run: drifted (overall and per metric)."""
    worse = drift[drift.verdict == "worse"] if len(drift) else drift
    for host in out:
        flagged = worse[worse.host == host] if len(worse) else worse
        out[host]["numaprobe_host_drifted"].append(_sample(
            "numaprobe_host_drifted", base(host), int(len(flagged) > 0)))
        for r in flagged.drop_duplicates(["key", "rule"]).itertuples(index=False):
            out[host]["numaprobe_drifted"].append(_sample(
                "numaprobe_drifted", {**base(host), "metric": r.key, "rule": r.rule}, 1))


def host_text(samples):
    """The file's text: HELP, TYPE and UNIT before each family that has samples, # EOF last."""
    lines = []
    for name, kind, help_text in FAMILIES:
        if not samples.get(name):
            continue
        lines.append(f"# HELP {name} {_help(help_text)}")
        lines.append(f"# TYPE {name} {kind}")
        unit = next((u for u in UNITS if name.endswith(f"_{u}")), None)
        if unit:
            lines.append(f"# UNIT {name} {unit}")
        lines += sorted(samples[name])
    lines.append("# EOF")
    return "\n".join(lines) + "\n"


def _help(text):
    return text.replace("\\", "\\\\").replace("\n", "\\n")


def write_dir(v, outdir, drift=None):
    """Writes HOST.prom for every host into outdir, each atomically. Returns the paths."""
    os.makedirs(outdir, exist_ok=True)
    written = []
    for host, samples in sorted(host_samples(v, drift).items()):
        path = os.path.join(outdir, file_name(host))
        # node_exporter reads *.prom only: the temporary name ends otherwise.
        tmp = os.path.join(outdir, f".{file_name(host)}.{os.getpid()}.tmp")
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(host_text(samples))
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        written.append(path)
    return written
