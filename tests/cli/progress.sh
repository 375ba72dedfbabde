#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# progress.sh NUMAPROBE TINY OUTDIR MPIEXEC [MPIEXEC FLAGS...]
# What a batch log shows, asserting only what cannot flake, never a timing:
# - progress lines carry an ISO 8601 timestamp with date and zone, item k of n, the experiment
#   and the node pair; with a short --progress, more than one line per experiment;
# - rank 0 adds the fleet's state ("hosts: D done, M measuring, L late, H hung"), also while it
#   waits for the other rank of its host (mpirun -np 2);
# - --quiet silences the lines and the config echo;
# - the echo at the start holds only keys that differ from the defaults;
# - --dry-run prints an estimate per host and for the job, and it grows with sizes and samples.
set -euo pipefail
exe=$1 tiny=$2 outdir=$3
shift 3
mpiexec=("$@")
mkdir -p "$outdir"
fail() { echo "FAIL: $*"; exit 1; }
stamp='\[[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z\]'
fleet='hosts: [0-9]+ done, [0-9]+ measuring, [0-9]+ late, [0-9]+ hung'

# One rank, a line at least every millisecond: a line per measurement.
rm -f "$outdir/progress1.h5"
"$exe" -c "$tiny" --set seed=7 -o "$outdir/progress1.h5" --progress 1ms \
    >"$outdir/progress1.out" 2>"$outdir/progress1.err" || fail "run: $(tail -5 "$outdir/progress1.err")"
err="$outdir/progress1.err"
n=$(grep -Ec "^$stamp bandwidth_sweep: item [0-9]+ of [0-9]+, node [0-9]+ -> [0-9]+(, about [0-9]+ s left)?; $fleet\$" "$err" || true)
((n > 1)) || fail "expected several bandwidth_sweep lines, got $n: $(grep '^\[' "$err" | head -5)"
grep -Eq "^$stamp latency_matrix: item 1 of [0-9]+, node [0-9]+ -> [0-9]+; hosts: 0 done, 1 measuring, 0 late, 0 hung\$" "$err" ||
    fail "no first line with the fleet's state: $(grep '^\[' "$err" | head -3)"
bad=$(grep '^\[' "$err" | grep -Ev "^$stamp " || true)
[ -z "$bad" ] || fail "progress line without an ISO 8601 date and zone: $bad"
# The echo: keys the run changed (seed, the tiny sizes), not the defaults (watchdog, report_hosts).
grep -q '^config: [0-9]* key(s) differ from the defaults' "$err" || fail "no short echo"
grep -q '^seed: 7$' "$err" || fail "echo lacks seed: 7"
grep -Eq '^(watchdog|report_hosts|checkpoints):' "$err" && fail "echo shows keys at their defaults"
# latency_matrix is on by default and tiny changes its sizes; injection is off by default and tiny
# turns it on: only the second's enabled line belongs in the echo.
section() { awk -v s="$1:" '$0 == s {f = 1; next} /^[^ ]/ {f = 0} f' "$err"; }
section latency_matrix | grep -q '^  enabled: true$' && fail "echo shows enabled: true, a default"
section injection | grep -q '^  enabled: true$' || fail "echo lacks injection's enabled: true"

# --quiet: no progress line, no echo.
rm -f "$outdir/progress1.h5"
"$exe" -c "$tiny" -o "$outdir/progress1.h5" --progress 1ms --quiet \
    >/dev/null 2>"$outdir/quiet.err" || fail "quiet run"
grep -E "^\[|^config|hosts: " "$outdir/quiet.err" && fail "--quiet printed progress or the echo"

# Two ranks on one host: rank 0 reports the fleet while rank 1 takes its turn.
if ((${#mpiexec[@]} > 0)); then
    rm -f "$outdir/progress2.h5"
    "${mpiexec[@]}" "$exe" -c "$tiny" -o "$outdir/progress2.h5" --progress 1ms \
        >"$outdir/progress2.out" 2>"$outdir/progress2.err" || fail "mpirun -np 2: $(tail -5 "$outdir/progress2.err")"
    grep -Eq "^$stamp waiting for the other ranks; $fleet\$" "$outdir/progress2.err" ||
        fail "rank 0 said nothing while waiting"
    grep -Eq "^$stamp .*hosts: 1 done, 0 measuring, 0 late, 0 hung\$" "$outdir/progress2.err" ||
        fail "the host never counted as done"
    grep -Eq '^\[[0-9]+\].*item' "$outdir/progress2.err" && fail "a rank other than 0 printed progress"
fi

# --dry-run: an estimate, larger when sizes and samples grow.
seconds() { # "about 1 h 2 min" / "about 3 min 4 s" / "about 5 s" / "under 1 s" -> seconds
    awk '{t=0; for (i=1;i<=NF;i++) { if ($(i+1)=="h") t+=$i*3600; if ($(i+1)=="min") t+=$i*60; if ($(i+1)=="s") t+=$i } print t}'
}
estimate() {
    local line
    line=$("$exe" "$@" --dry-run | grep '^estimated time: ') || fail "no estimate for $*"
    [[ $line =~ ^estimated\ time:\ (about [0-9a-z ]+|under 1 s)\ on\ this\ host,\ (about [0-9a-z ]+|under 1 s)\ for\ the\ job ]] ||
        fail "estimate line: $line"
    seconds <<<"${BASH_REMATCH[1]}"
}
small=$(estimate -c "$tiny" --set latency_matrix.samples=11 --set bandwidth_matrix.size=64MiB)
big=$(estimate -c "$tiny" --set latency_matrix.samples=301 --set latency_matrix.sample_time=20ms \
    --set bandwidth_matrix.size=1GiB --set bandwidth_matrix.repetitions=50)
((big > small)) || fail "estimate did not grow: $small s, then $big s"
echo "ok: progress lines, fleet state, --quiet, short echo; estimate $small s -> $big s"
