#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# time_budget.sh EXE TINY_CONFIG OUTDIR [MPIRUN...]: the time budget as a site uses it.
#   - On a 2-package, 8-node, 128-core shape, `-c default --dry-run` with a budget of the floor
#     (read from the refusal of a 1 s budget) and a second plans a run whose estimate is within
#     the budget at its high end, lists what it dropped (sweeps first), and keeps every
#     latency_matrix bound cell (64) and every local bandwidth cell (8 nodes x 2 kernels).
#   - A budget below that floor is refused before anything runs (exit 2), and so is a value that
#     is no duration.
#   - A real run records each dropped item as a row that says why, and its file is valid.
#   - With MPIRUN (two ranks on this one-node host, the second with no node of its own), the
#     host's ranks share the budget: it fits, and a budget below the host's floor is refused.
set -uo pipefail
exe=$(realpath "$1") tiny=$(realpath "$2") outdir=$3
shift 3
mpirun=("$@")
mkdir -p "$outdir"
work="$(cd "$outdir" && pwd -P)/time_budget"
rm -rf "$work" && mkdir -p "$work" || exit 1
fail() { echo "FAIL: $*"; echo "--- output:"; cat "$work/out" 2>/dev/null; exit 1; }
eight="pack:2 group:4 [numa(memory=68719476736)] l3:2 core:8 pu:2"

# Seconds of a duration as the estimate writes it ("1 h 2 min 3 s", "4 min 1 s", "12 s").
seconds() { awk '{ t = 0; for (i = 1; i < NF; i++) { if ($(i + 1) == "h") t += 3600 * $i;
    if ($(i + 1) == "min") t += 60 * $i; if ($(i + 1) == "s") t += $i } print t }'; }
# The budget is the floor's high end and a second: whatever the model's rates, such a budget
# keeps exactly the floor (every bound latency cell, every local bandwidth cell, one pass).
HWLOC_SYNTHETIC=$eight "$exe" -c default --time-budget 1s --dry-run >"$work/out" 2>&1
floor=$(sed -n 's/.* alone need about .* to \(.*\) (raise .*/\1/p' "$work/out" | seconds)
[ -n "$floor" ] && [ "$floor" -gt 0 ] || fail "no floor in the refusal of a 1 s budget"
budget=$((floor + 1))
HWLOC_SYNTHETIC=$eight "$exe" -c default --time-budget "${budget}s" --dry-run >"$work/out" 2>&1 ||
    fail "the ${budget} s budget (the floor and a second) on the 8-node shape exited $?"
high=$(sed -n 's/^estimated time: about .* to \(.*\) on this host.*/\1/p' "$work/out" | seconds)
[ -n "$high" ] && [ "$high" -le "$budget" ] ||
    fail "the estimate's high end (${high:-none} s) is over the ${budget} s budget"
grep -Eq "^time budget ${budget}s: the whole plan was about .*; dropped, in this order:\$" \
    "$work/out" || fail "no list of what was dropped"
grep -A1 'dropped, in this order' "$work/out" | grep -Eq '^  every second point of the sweeps' ||
    fail "the sweeps were not thinned first"
grep -Eq '^assumes: an idle host at the low end' "$work/out" || fail "no assumptions stated"
grep -Eq '^  latency_matrix +88 .*\(24 skipped' "$work/out" ||
    fail "latency_matrix lost a bound cell (expected 64 of 88 kept)"
grep -Eq '^  bandwidth_matrix +144 .*\(128 skipped' "$work/out" ||
    fail "bandwidth_matrix lost a local cell (expected 16 of 144 kept)"
grep -q 'pass 2' "$work/out" && fail "later passes left in a plan that dropped them"

below=$((floor / 2))
HWLOC_SYNTHETIC=$eight "$exe" -c default --time-budget "${below}s" --dry-run >"$work/out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "a budget below the floor (${below} s) exited $rc, expected 2"
grep -q "time_budget ${below}s is too short for this host" "$work/out" || fail "no floor message"

"$exe" --time-budget 5x --dry-run >"$work/out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "--time-budget 5x exited $rc, expected 2"
grep -q "\-\-time-budget '5x': expected 0 or a duration" "$work/out" || fail "no message for 5x"

# The sweep made long on purpose (about 24 s of samples), so that a 2 s budget drops it
# whatever this machine's speed, and the headline cells (well under a second) stay.
"$exe" -c "$tiny" --set latency_sweep.samples=2000 --set latency_sweep.sample_time=1ms \
    --time-budget 2s -o "$work/run.h5" >"$work/out" 2>&1 || fail "the budgeted run exited $?"
grep -Eq 'time_budget: [0-9]+ measurement\(s\) dropped and [0-9]+ trimmed' "$work/out" ||
    fail "the run did not say what it dropped"
grep -q 'not applicable: dropped to fit time_budget 2s (latency_sweep)' "$work/out" ||
    fail "no row says latency_sweep was dropped"
"$exe" check "$work/run.h5" >"$work/out" 2>&1 || fail "the budgeted run's file is not valid"
if ((${#mpirun[@]})); then
    "${mpirun[@]}" "$exe" -c "$tiny" --set latency_sweep.samples=2000 \
        --set latency_sweep.sample_time=1ms --time-budget 2s --dry-run >"$work/out" 2>&1 ||
        fail "two ranks on one host: the 2 s budget exited $?"
    grep -q '^  latency_sweep (' "$work/out" || fail "two ranks: latency_sweep not dropped"
    "${mpirun[@]}" "$exe" -c "$tiny" --time-budget 0.01s --dry-run >"$work/out" 2>&1
    rc=$?
    [ $rc -ne 0 ] || fail "two ranks: a budget below the floor was accepted"
    grep -q 'time_budget 0.01s is too short for this host' "$work/out" ||
        fail "two ranks: no floor message"
fi
echo "ok: time budget"
