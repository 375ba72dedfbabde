#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The plan must not change by accident: `numaprobe --dry-run` (and --show-config) for every
# shipped config on every test topology is compared with the output recorded in golden/.
# A change that means to alter the plan rewrites them with --update and shows the diff in review.
#
# Usage: dry_run_golden.sh --exe NUMAPROBE [--update]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
exe="" update=0
while (($#)); do
    case $1 in
        --exe) exe=$2; shift 2 ;;
        --update) update=1; shift ;;
        *) echo "usage: $0 --exe NUMAPROBE [--update]" >&2; exit 2 ;;
    esac
done
[ -x "$exe" ] || { echo "not an executable: '$exe'" >&2; exit 2; }
# The one input from this machine: an auto sweep stops at a quarter of what node 0 has free
# (experiments/registry.c), so below 4 GiB free (with the page cache, as numaprobe counts it)
# the recorded 1 GiB ceiling cannot be reproduced here. That is a busy machine, not a changed
# plan: skip, saying so.
free_kib=$(awk '/MemFree:|Inactive\(file\):|Active\(file\):/ {s += $(NF-1)} END {print s+0}' \
    /sys/devices/system/node/node0/meminfo 2>/dev/null || echo 0)
if ((update == 0 && free_kib < 4 * 1024 * 1024)); then
    echo "SKIP: node 0 has $((free_kib / 1024)) MiB free; the recorded plans need 4 GiB (auto sweeps stop at a quarter of it)"
    exit 77
fi
golden="$here/golden"
mkdir -p "$golden"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0 compared=0
for topo in "$src"/tests/topologies/*.xml; do
    for config in "$src"/configs/*.yaml; do
        name="$(basename "$topo" .xml)-$(basename "$config" .yaml).txt"
        {
            for mode in --show-config --dry-run; do
                echo "### numaprobe -c $(basename "$config" .yaml) $mode"
                rc=0
                HWLOC_XMLFILE=$topo HWLOC_THISSYSTEM=1 "$exe" -c "$config" "$mode" 2>&1 || rc=$?
                echo "### exit $rc"
            done
        } >"$work/$name"
        if ((update)); then
            cp "$work/$name" "$golden/$name"
            continue
        fi
        compared=$((compared + 1))
        if ! diff -u "$golden/$name" "$work/$name" >"$work/diff"; then
            echo "FAIL: $name differs from the recorded plan:"
            head -40 "$work/diff"
            failed=$((failed + 1))
        fi
    done
done
if ((update)); then
    echo "recorded $(ls "$golden" | wc -l) outputs in $golden"
    exit 0
fi
((compared > 0)) || { echo "FAIL: nothing compared (no topologies or configs found)"; exit 1; }
((failed == 0)) || { echo "$failed of $compared plan outputs changed"; exit 1; }
echo "ok: $compared plan outputs identical to the recorded ones"
