# SPDX-License-Identifier: BSD-3-Clause
"""mlp's rows in a whole run's file (collected by tests/test_run_results.py)."""

from collections import defaultdict

from .common import assert_none, text


def test_mlp_rows(tables, config):
    """mlp's rows: N chains for parallel:N (1 for every other pattern), and every measured node
    pair has the same chain counts, 1 (the idle latency the lines in flight need) among them.
    A run whose recorded config turns mlp off has no mlp row at all."""
    enabled = bool(config["mlp"]["enabled"])
    wrong, counts = [], defaultdict(set)
    for row in tables["latency"]:
        pattern, chains = text(row["pattern"]), int(row["chains"])
        want = int(pattern.split(":")[1]) if pattern.startswith("parallel:") else 1
        if chains != want:
            wrong.append(f"/latency {text(row['experiment'])} {pattern}: chains {chains}")
        if text(row["experiment"]) == "mlp" and text(row["status"]) == "ok":
            counts[(int(row["rank"]), int(row["cpu_node"]), int(row["mem_node"]))].add(chains)
    if not enabled:
        mlp_rows = [r for r in tables["latency"] if text(r["experiment"]) == "mlp"]
        assert not mlp_rows, f"mlp is off in the config, yet {len(mlp_rows)} mlp row(s)"
        assert_none(wrong)
        return
    assert counts, "no mlp rows measured"
    if len({frozenset(c) for c in counts.values()}) != 1:
        wrong.append(f"mlp pairs measured different chain counts: {dict(counts)}")
    wrong += [f"mlp pair {pair}: no 1-chain point" for pair, c in counts.items() if 1 not in c]
    assert_none(wrong)
