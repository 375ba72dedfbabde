#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# health-check.sh NUMAPROBE OUTDIR: numaprobe health's verdicts on this host against references
# of its type (health-references.sh): 0 as it is, 1 with node 0's bandwidth at 60%
# (NUMAPROBE_FAULT=slow_node0) or data read back wrong (corrupt_bandwidth), 2 with node 0's
# bandwidth too noisy to judge (noisy_node0), for a type the references do not know, and for
# references that are not there (before measuring). Then NHC's check_numaprobe under NHC's
# conventions: die on 1, log on 2. Prints the time each check took.
set -euo pipefail
exe=$(realpath "$1") out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out"
"$root/tests/jobs/health-references.sh" "$exe" "$out"
out=$(cd "$out" && pwd -P)
failed=0
fail() {
    echo "FAIL: $*"
    failed=1
}

# check NAME WANT PATTERN [ENV...] -- ARGS: numaprobe health ARGS exits WANT, its last line
# matching PATTERN. A check that found the figures too noisy to judge is measured again, twice
# at most, as a site re-measures such a node: a busy neighbour is no verdict on the fault.
check() {
    local name=$1 want=$2 pattern=$3 envs=() rc try last start=$SECONDS
    shift 3
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    for try in 1 2 3; do
        rc=0
        env ${envs[@]+"${envs[@]}"} "$exe" health "$@" >"$out/$name.out" 2>"$out/$name.err" ||
            rc=$?
        last=$(tail -n 1 "$out/$name.out")
        if [ "$want" -eq 2 ] || [ "$rc" -ne 2 ] || [[ $last != *" noisy"* ]]; then break; fi
        echo "$name: try $try too noisy to judge ($last): measured again"
    done
    echo "$name: exit $rc in $((SECONDS - start)) s: $last"
    if [ "$rc" -ne "$want" ] || ! grep -Eq "$pattern" <<<"$last"; then
        fail "$name: want exit $want and a last line matching '$pattern'"
        cat "$out/$name.out" "$out/$name.err"
    fi
}

refs=$out/site.yaml
check healthy 0 '^numaprobe: healthy' -- -r "$refs"
check slow 1 '^numaprobe: bw_(read|triad)_local_gbs@?( |)node 0 ' NUMAPROBE_FAULT=slow_node0 -- -r "$refs"
check wrong_data 1 '^numaprobe: failed: a kernel read back wrong data' \
    NUMAPROBE_FAULT=corrupt_bandwidth -- -r "$refs"
check noisy 2 '^numaprobe: not judged' NUMAPROBE_FAULT=noisy_node0 -- -r "$refs"
# A node type the references do not know: the same file with another fingerprint.
sed -E 's/^"[0-9a-f]{8,}":/"0000deadbeef0000":/' "$refs" >"$out/other-type.yaml"
grep -q '^"0000deadbeef0000":' "$out/other-type.yaml" || fail "no node type key in $refs"
check other_type 2 '^numaprobe: not judged' -- -r "$out/other-type.yaml"
check no_refs 2 "^numaprobe: not judged: references 'no-such-site'" -- -r no-such-site
check bad_budget 2 "^numaprobe: not judged: --time-budget" -- -r "$refs" --time-budget 2s

# NHC sources its checks and calls them with its own die and log: the same here.
nhc() {
    local fault=$1
    (
        # shellcheck disable=SC2317  # called by the check, as NHC's own are
        die() { echo "die $1: $2"; }
        # shellcheck disable=SC2317
        log() { echo "log: $1"; }
        export NUMAPROBE=$exe NUMAPROBE_FAULT=$fault
        # shellcheck source=/dev/null
        . "$root/jobs/nhc/numaprobe.nhc"
        if check_numaprobe -r "$refs" -t 30s; then echo "passed"; fi
    )
}
# As above: a check too noisy to judge is measured again, twice at most.
for _ in 1 2 3; do
    got=$(nhc slow_node0)
    grep -q '^log: check_numaprobe: not judged.* noisy' <<<"$got" || break
done
grep -Eq '^die 1: check_numaprobe: bw_(read|triad)_local_gbs' <<<"$got" || fail "NHC, slow: $got"
got=$(nhc noisy_node0)
if ! grep -Eq '^log: check_numaprobe: not judged' <<<"$got" || ! grep -q '^passed$' <<<"$got"; then
    fail "NHC, noisy: $got"
fi
got=$(nhc "")
[ "$got" = passed ] || fail "NHC, healthy: $got"
[ "$failed" -eq 0 ] && echo "ok: every verdict as documented"
exit "$failed"
