#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# prometheus-rules.sh ROOT: jobs/prometheus/numaprobe-alerts.yml passes `promtool check rules`
# and its unit tests (`promtool test rules numaprobe-alerts.test.yml`), and the tests cover the
# rules: a copy of the rules with one rule changed (a threshold, an expression, a label, a
# duration) must fail them, one change at a time. promtool is Debian's prometheus
# (tests/deps/analysis.txt): 77 without it, a failure under CI=true.
set -euo pipefail
rules_dir=$1/jobs/prometheus
rules=numaprobe-alerts.yml tests=numaprobe-alerts.test.yml
if ! command -v promtool >/dev/null; then
    if [ "${CI:-}" = true ]; then
        echo "FAIL: promtool not installed (Debian package prometheus, tests/deps/analysis.txt)"
        exit 1
    fi
    echo "SKIP: promtool not installed (apt-get install prometheus)"
    exit 77
fi
promtool check rules "$rules_dir/$rules"
(cd "$rules_dir" && promtool test rules "$tests")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One change a line: what the rule says, and what it is changed to (sed's s|FROM|TO|).
changes=(
    '> 8 \* 86400|> 10 * 86400'
    '(numaprobe_host_outlier) == 1|(numaprobe_host_outlier) >= 0'
    'max by (host) (numaprobe_host_outlier)|numaprobe_host_outlier'
    'max by (host, reason) (numaprobe_host_degraded)|max by (host) (numaprobe_host_degraded)'
    '(numaprobe_host_noisy_figures) > 0|(numaprobe_host_noisy_figures) > 2'
    '(numaprobe_host_not_restored) == 1|(numaprobe_host_not_restored) == 0'
    'for: 1h|for: 3h'
    'severity: critical|severity: warning'
)
for change in "${changes[@]}"; do
    cp "$rules_dir/$rules" "$rules_dir/$tests" "$work/"
    sed -i "s|$change|" "$work/$rules"
    if cmp -s "$rules_dir/$rules" "$work/$rules"; then
        echo "FAIL: the change '$change' matched nothing in $rules: out of step with the rules"
        exit 1
    fi
    if (cd "$work" && promtool test rules "$tests" >"$work/out" 2>&1); then
        echo "FAIL: with '$change' the unit tests still pass: they do not cover that rule"
        exit 1
    fi
    echo "ok: '$change' fails the unit tests"
done
echo "numaprobe-alerts.yml: checked, its unit tests pass, and ${#changes[@]} changes fail them"
