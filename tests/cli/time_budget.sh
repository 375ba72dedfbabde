#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# time_budget.sh EXE TINY_CONFIG OUTDIR [MPIRUN...]: the time budget as a site uses it.
#   - On a 2-package, 8-node, 128-core shape, `-c default --time-budget 45s --dry-run` (just
#     above the floor) plans a run whose estimate is 45 s or less at its high end, lists what it
#     dropped (sweeps first), and keeps every latency_matrix bound cell (64) and every local
#     bandwidth cell (8 nodes x 2 kernels).
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

HWLOC_SYNTHETIC=$eight "$exe" -c default --time-budget 45s --dry-run >"$work/out" 2>&1 ||
    fail "the 45 s budget on the 8-node shape exited $?"
grep -Eq '^estimated time: about .* to ([0-9]|[0-3][0-9]|4[0-5]) s on this host' \
    "$work/out" || fail "the estimate's high end is over 45 s"
grep -Eq '^time budget 45s: the whole plan was about .*; dropped, in this order:$' \
    "$work/out" || fail "no list of what was dropped"
grep -A1 'dropped, in this order' "$work/out" | grep -Eq '^  every second point of the sweeps' ||
    fail "the sweeps were not thinned first"
grep -Eq '^assumes: an idle host at the low end' "$work/out" || fail "no assumptions stated"
grep -Eq '^  latency_matrix +88 .*\(24 skipped' "$work/out" ||
    fail "latency_matrix lost a bound cell (expected 64 of 88 kept)"
grep -Eq '^  bandwidth_matrix +144 .*\(128 skipped' "$work/out" ||
    fail "bandwidth_matrix lost a local cell (expected 16 of 144 kept)"
grep -q 'pass 2' "$work/out" && fail "later passes left in a plan that dropped them"

HWLOC_SYNTHETIC=$eight "$exe" -c default --time-budget 30s --dry-run >"$work/out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "a budget below the floor exited $rc, expected 2"
grep -q 'time_budget 30s is too short for this host' "$work/out" || fail "no floor message"

"$exe" --time-budget 5x --dry-run >"$work/out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "--time-budget 5x exited $rc, expected 2"
grep -q "\-\-time-budget '5x': expected a duration" "$work/out" || fail "no message for 5x"

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
