#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# numaprobe-fakehosts-test.sh --exe NUMAPROBE --config FILE --outdir DIR --hosts SPEC
#                             [--report-hosts N]
# Runs numaprobe over fake hosts (fakehosts-mpirun, SPEC like a:1,b:1,c:2) and checks the
# results file: one /hosts row per rank, ranks grouped by host, the host count right. With
# --report-hosts N (one rank per host, one node type): the stdout report shows N hosts in full
# and every other host on one line.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
exe="" config="" outdir="" hosts="" report_hosts=""
while [ $# -gt 0 ]; do
    case $1 in
    --exe) exe=$(realpath "$2"); shift 2 ;;
    --config) config=$(realpath "$2"); shift 2 ;;
    --outdir) outdir=$2; shift 2 ;;
    --hosts) hosts=$2; shift 2 ;;
    --report-hosts) report_hosts=$2; shift 2 ;;
    *) echo "numaprobe-fakehosts-test.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
mkdir -p "$outdir"
result="$(cd "$outdir" && pwd -P)/fakehosts-${hosts//[:,]/_}.h5"
rm -f "$result"

ranks=0 host_count=0 expect=()
IFS=, read -ra specs <<<"$hosts"
for spec in "${specs[@]}"; do
    name=${spec%%:*} slots=${spec#*:}
    [ "$slots" != "$spec" ] || slots=1
    ranks=$((ranks + slots)) host_count=$((host_count + 1))
    expect+=("$name=$slots")
done

report="${result%.h5}.report.txt"
"$here/fakehosts-mpirun" --hosts "$hosts" --timeout 240 -- \
    "$exe" -c "$config" -o "$result" --quiet ${report_hosts:+--set report_hosts=$report_hosts} \
    | tee "$report"
if [ -n "$report_hosts" ]; then
    full=$(grep -c '^  idle latency, ns' "$report" || true)
    lines=$(grep -cE '^[^ ]+ \(rank [0-9]+\): .*, ok, local latency [0-9.]+ ns \+-[^ ,]+( ~noisy)?, local read' \
        "$report" || true)
    if [ "$full" != "$report_hosts" ] || [ "$lines" != $((ranks - report_hosts)) ]; then
        echo "FAIL: report_hosts=$report_hosts: $full host(s) in full, $lines on one line"
        exit 1
    fi
    echo "report_hosts=$report_hosts: $full host(s) in full, $lines on one line: ok"
fi
exec /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider "$root/tests/test_run_results.py" \
    --exe "$exe" --results "$result" --ranks "$ranks" --hosts "$host_count" \
    --host-ranks "${expect[@]}" --identical-hardware
