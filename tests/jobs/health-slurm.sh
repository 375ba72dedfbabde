#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# health-slurm.sh NUMAPROBE OUTDIR: numaprobe health drains what falls short, in a real Slurm.
# References are made (numaprobe-report references) from a fleet of 12 planted from this host's
# own run; then jobs/slurm/numaprobe-healthcheck runs as the Epilog of a local Slurm cluster of
# three nodes, one job each, one at a time (the nodes share this host's cores: checks side by
# side would slow each other). On n2 the node's bandwidth runs at 60% (NUMAPROBE_FAULT=
# slow_node0), on n3 it is too noisy to judge (noisy_node0), n1 is left as it is. n2 must be
# drained with a reason naming numaprobe, the metric and the node; n1 and n3 must stay idle.
set -euo pipefail
exe=$(realpath "$1") out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd -P)
fail() {
    echo "FAIL: $*"
    for f in "$out"/epilog-*.log; do [ -e "$f" ] && { echo "--- $f"; cat "$f"; }; done
    exit 1
}

"$root/tests/jobs/health-references.sh" "$exe" "$out"

# The site's epilog: the shipped wrapper, with a fault planted on n2 and n3.
cat >"$out/epilog" <<EOF
#!/bin/bash
case \$SLURMD_NODENAME in
n2) export NUMAPROBE_FAULT=slow_node0 ;;
n3) export NUMAPROBE_FAULT=noisy_node0 ;;
esac
export NUMAPROBE=$exe NUMAPROBE_REFERENCES=$out/site.yaml
exec $root/jobs/slurm/numaprobe-healthcheck >>$out/epilog-\$SLURMD_NODENAME.log 2>&1
EOF
chmod +x "$out/epilog"

# In the controller's namespace: a job on each node in turn, each waited for until its node has
# left the completing state (the epilog has ended), then the nodes' states and reasons.
# shellcheck disable=SC2016  # expanded inside the cluster's namespace
inside='set -e
job_on() {
    "$SLURM_HARNESS_DIR"/slurm-submit-and-wait --dir "$SLURM_CLUSTER_DIR" --timeout 120 -- \
        -w "$1" -N 1 -o "$NPRB_OUT/job-$1.out" --wrap true >/dev/null
    for _ in $(seq 240); do
        case $(sinfo -h -n "$1" -o %T) in *completing* | *COMPLETING*) sleep 0.5 ;; *) break ;; esac
    done
}
for n in n1 n2 n3; do
    job_on "$n"
    # A check too noisy to judge leaves the node alone, as it should; n2 is measured again
    # (twice at most), as a site would re-measure it, so that its verdict is on the fault.
    for _ in 1 2; do
        [ "$n" = n2 ] && tail -n 1 "$NPRB_OUT/epilog-n2.log" | grep -q "not judged.* noisy" ||
            break
        job_on n2
    done
done
sinfo -h -N -o "%N %T" >"$NPRB_OUT/states.txt"
sinfo -h -R -o "%N|%E" >"$NPRB_OUT/reasons.txt"'
start=$SECONDS
NPRB_OUT=$out "$root/tests/harness/slurm/with-slurm-cluster" --nodes 3 --timeout 400 \
    --epilog "$out/epilog" -- bash -c "$inside" || {
    rc=$?
    [ "$rc" -eq 77 ] && exit 77
    fail "the cluster's jobs (exit $rc)"
}
echo "three jobs and their health checks: $((SECONDS - start)) s"
cat "$out/states.txt" "$out/reasons.txt"
for f in "$out"/epilog-*.log; do echo "--- $f"; cat "$f"; done

grep -Eq '^n1 idle$' "$out/states.txt" || fail "n1 (healthy) is not idle"
grep -Eq '^n3 idle$' "$out/states.txt" || fail "n3 (noisy: not judged) is not idle"
grep -Eq '^n2 drain' "$out/states.txt" || fail "n2 (60% bandwidth) is not drained"
grep -Eq '^n2\|numaprobe: bw_(read|triad)_local_gbs@?( |)node 0' "$out/reasons.txt" ||
    fail "n2's drain reason does not name numaprobe, the metric and node 0"
grep -q "not judged" "$out/epilog-n3.log" || fail "n3's check does not say it was not judged"
echo "ok: n2 drained, n1 and n3 idle"
