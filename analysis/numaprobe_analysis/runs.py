# SPDX-License-Identifier: BSD-3-Clause
"""Runs and their measurement configs: which files may be pooled, and which run of a host counts.

A run is one results file (a job). Its measurement config is the `config` attribute (the
effective config as YAML) without the keys that do not change what is measured (the contract's
`config_fingerprint.unmeasured_keys`, `numaprobe --schema`). Runs are pooled or compared only when their measurement configs are equal;
`config_fingerprint` is the binary's hash of it, and the same hash is computed here from
`config` for every file: a file before 0.5.0 has no attribute, and one before 0.12.0 hashed its
lines in the order its version echoed them, so that only the computed hash compares across
versions.

A host measured by several runs is never merged into a median: the latest run (by start_utc,
then file order) counts, unless every run is kept (`--all-runs`), each under its own name."""

from dataclasses import dataclass

from .contract import contract


class MixedConfigs(Exception):
    """Runs whose measurement configs differ: pooling or comparing them would mislead."""


def _fnv1a(h, data):
    for b in data:
        h ^= b
        h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def left_out():
    """What the fingerprint leaves out, as the binary's contract states it (`numaprobe --schema`,
    `config_fingerprint`): the top-level keys that change nothing measured, and the lines (each
    with its newline) of keys added later at the default that changes nothing, so that a config
    keeps the fingerprint an earlier version gave it."""
    rule = contract()["config_fingerprint"]
    return frozenset(rule["unmeasured_keys"]), frozenset(rule["neutral_lines"])


def measurement_lines(config_text):
    """The config echo's lines (each with its newline) that change what is measured."""
    unmeasured, neutral = left_out()
    out, skip = [], False
    for line in config_text.splitlines(keepends=True):
        if not line.startswith(" "):
            skip = line.split(":", 1)[0] in unmeasured
        if not skip and line not in neutral:
            out.append(line)
    return out


def config_fingerprint(config_text):
    """16 hex digits, as nprb_config_fingerprint() (src/config/config_echo.c) writes them: FNV-1a
    of the measurement config's `key: value` lines (`section.key` within a section), sorted, so
    that the order of the config's sections is no part of it."""
    h = 0xCBF29CE484222325
    for line in sorted(f"{key}: {value}\n" for key, value in config_keys(config_text).items()):
        h = _fnv1a(h, line.encode("utf-8"))
    return f"{h:016x}"


def config_keys(config_text):
    """Measurement config as key -> value text (`section.key` for indented lines)."""
    keys, section = {}, ""
    for line in measurement_lines(config_text or ""):
        body = line.rstrip("\n")
        if not body.strip() or body.lstrip().startswith("#"):
            continue
        key, _, value = body.strip().partition(":")
        if body.startswith(" "):
            keys[f"{section}.{key}"] = value.strip()
        elif value.strip():
            keys[key] = value.strip()
            section = ""
        else:
            section = key
    return keys


def differing_keys(config_a, config_b):
    """Keys whose values differ between two configs: [(key, value in a, value in b)]."""
    a, b = config_keys(config_a), config_keys(config_b)
    return [(k, a.get(k, "(absent)"), b.get(k, "(absent)"))
            for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]


@dataclass
class Run:
    path: str
    run_id: str
    fingerprint: str
    config: str
    start_utc: str
    order: int


def run_of(results, order=0):
    a = results.attrs
    config = a.get("config") or ""
    run_id = a.get("run_id") or f"{a.get('start_utc', '')}/{a.get('job_id', '')}/{results.path}"
    return Run(path=results.path, run_id=str(run_id),
               fingerprint=config_fingerprint(config), config=config,
               start_utc=str(a.get("start_utc") or ""), order=order)


def config_groups(runs):
    """Fingerprint -> runs, in the order first met."""
    groups = {}
    for r in runs:
        groups.setdefault(r.fingerprint, []).append(r)
    return groups


def mixed_text(runs):
    """Why runs may not be pooled: per config group after the first, the keys that differ."""
    groups = list(config_groups(runs).values())
    first = groups[0][0]
    lines = [f"the runs' measurement configs differ ({len(groups)} configs); pooling or "
             f"comparing them would mix different measurements"]
    for group in groups[1:]:
        other = group[0]
        diff = differing_keys(first.config, other.config)
        keys = "; ".join(f"{k}: {va} vs {vb}" for k, va, vb in diff[:8])
        more = f" (and {len(diff) - 8} more)" if len(diff) > 8 else ""
        lines.append(f"{first.path} [{first.fingerprint}] vs {other.path} "
                     f"[{other.fingerprint}]: {keys or 'keys equal, text differs'}{more}")
    return lines


def refuse_mixed(runs, allow=False):
    """Raises MixedConfigs when runs differ in measurement config, unless @p allow."""
    if len(config_groups(runs)) > 1 and not allow:
        raise MixedConfigs("; ".join(mixed_text(runs)) +
                           "; --allow-mixed-configs keeps them as separate groups")
