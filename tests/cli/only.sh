#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# only.sh NUMAPROBE TINY
# --only NAME[,NAME]: the dry run plans those experiments and no other, with -c and --set (a
# named experiment runs even where the config or --set turned it off; --set still sets its other
# keys), the echo says every other is off, and a bad list is refused before anything is planned:
# an unknown name with exit 2 and the valid names, a name given twice, an empty name.
set -euo pipefail
exe=$1 tiny=$2
fail=0

# The experiments of a dry run's plan, one per line, sorted (later passes are the same one).
planned() {
    sed -n '/^plan:/,/^estimated time/p' <<<"$1" | grep -E '^  [a-z0-9_]+ ' |
        awk '{print $1}' | sort -u
}

# expect_plan WANT ARGS...: the dry run with ARGS exits 0 and plans exactly WANT (sorted, spaces).
expect_plan() {
    local want=$1 out got rc=0
    shift
    out=$("$exe" --dry-run "$@" 2>&1) || rc=$?
    got=$(planned "$out" | tr '\n' ' ' | sed 's/ $//')
    if [ "$rc" -ne 0 ] || [ "$got" != "$want" ]; then
        echo "FAIL: --dry-run $*: exit $rc, planned '$got', want '$want'"
        echo "$out" | tail -20
        fail=1
    else
        echo "ok: $* plans $want"
    fi
}

# The negative control: without --only the tiny config plans more than any one experiment.
all=$(planned "$("$exe" --dry-run -c "$tiny" 2>&1)" | wc -l)
[ "$all" -gt 2 ] || { echo "FAIL: the tiny config plans only $all experiment(s)"; fail=1; }

expect_plan "mlp" -c "$tiny" --only mlp
expect_plan "mlp page_size" -c "$tiny" --only page_size,mlp
expect_plan "latency_matrix" --only latency_matrix --set latency_matrix.size=8MiB -c "$tiny"
# Named wins over the config's and --set's enabled: false; the other keys of --set still count.
expect_plan "mlp" -c "$tiny" --set mlp.enabled=false --only mlp
out=$("$exe" --dry-run -c "$tiny" --only mlp --set mlp.size=2MiB 2>&1)
grep -Eq '^  mlp +[0-9]+  size 2MiB' <<<"$out" ||
    { echo "FAIL: --set mlp.size=2MiB not planned with --only mlp: $out"; fail=1; }

# The echo: the named experiment on, every other off.
echo_out=$("$exe" --show-config -c "$tiny" --only c2c_latency)
on=$(grep -c '^  enabled: true$' <<<"$echo_out" || true)
if ! grep -A1 '^c2c_latency:$' <<<"$echo_out" | grep -q 'enabled: true' ||
    ! grep -A1 '^latency_matrix:$' <<<"$echo_out" | grep -q 'enabled: false' ||
    ! grep -A1 '^numa_balancing:$' <<<"$echo_out" | grep -q 'enabled: false'; then
    echo "FAIL: --show-config --only c2c_latency: $echo_out"
    fail=1
fi
# c2c_latency's section and counters.* (no experiment) are the only ones enabled.
[ "$on" -eq 2 ] || { echo "FAIL: $on sections enabled with --only c2c_latency"; fail=1; }

# refused RC PATTERN ARGS...: exit RC, the message, and no plan.
refused() {
    local want_rc=$1 pattern=$2 out rc=0
    shift 2
    out=$("$exe" --dry-run -c "$tiny" "$@" 2>&1) || rc=$?
    if [ "$rc" -ne "$want_rc" ] || ! grep -Eq -- "$pattern" <<<"$out" || grep -q '^plan:' <<<"$out"; then
        echo "FAIL: $*: exit $rc (want $want_rc), output: $out"
        fail=1
    else
        echo "ok: $* refused: $(head -1 <<<"$out")"
    fi
}
refused 2 "^numaprobe: --only: unknown experiment 'latency' \(expected latency_matrix, bandwidth_matrix, .* or numa_balancing\)$" --only latency
refused 2 "unknown experiment 'stride-sweep'" --only mlp,stride-sweep
refused 2 "--only: 'mlp' is named twice" --only mlp,page_size,mlp
refused 2 "--only 'mlp,': an empty name" --only mlp,
refused 2 "option --only given twice" --only mlp --only page_size
exit $fail
