#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# collector.sh MODE BENCH EXE TEMPLATE OUTDIR: rank 0's whole write path (bench_collector: the
# collector, the writer, the summary and the report) on a small synthetic fleet made from
# TEMPLATE, checked by what it leaves (never by its time). Each mode works in OUTDIR/collector-MODE.
#   memory     50 hosts, the file built in memory: exit 0, `numaprobe check` valid with 50
#              hosts, the summary and the report with 50 hosts each
#   on_disk    the same with the file on disk from its first rows (NUMAPROBE_FAULT=writer_on_disk:
#              the path of a fleet's file past 16 MiB)
#   full_disk  6,000 hosts onto a 40 MiB tmpfs, which fills while the file is on disk: exit 1
#              naming ENOSPC and the reservation, no file under the final name, no temporary,
#              the summary saying the results were not written (root; skipped, 77, without)
set -uo pipefail
mode=$1 bench=$(realpath "$2") exe=$(realpath "$3") template=$(realpath "$4") outdir=$5
mkdir -p "$outdir"
work="$(cd "$outdir" && pwd -P)/collector-$mode"
. "$(dirname "$(realpath "$0")")/../cli/workdir.sh"
count() { grep -Ec -- "$1" "$2"; }
nothing_left() {
    local left
    left=$(find "$1" -maxdepth 1 \( -name '*.tmp-*' -o -name '.numaprobe-summary-*' \))
    [ -z "$left" ] || fail "left behind: $left"
}
# fleet HOSTS OUT: the bench's fleet of HOSTS hosts into OUT, with its summary and report here
fleet() { "$bench" --summary-json "$work/s.json" --report "$work/report.txt" "$template" "$2" "$1"; }
# valid HOSTS: the file, the summary and the report each have HOSTS hosts
valid() {
    run 0 "$exe" check out.h5
    says "valid .*, $1 host\(s\)"
    [ "$(count '^    \{$' s.json)" -eq "$1" ] || fail "the summary has not $1 hosts"
    grep -q "\"results_written\": true" s.json || fail "the summary says the file was not written"
    grep -q "^$1 host(s), $1 rank(s)" report.txt || fail "the report does not end with $1 hosts"
    nothing_left "$work"
}

case $mode in
memory)
    run 0 fleet 50 out.h5
    says "50 hosts of [0-9]+ rows"
    valid 50
    ;;
on_disk)
    run 0 env NUMAPROBE_FAULT=writer_on_disk "$bench" --summary-json "$work/s.json" \
        --report "$work/report.txt" "$template" out.h5 50
    valid 50
    ;;
full_disk)
    mkdir -p fs
    mount -t tmpfs -o size=40m tmpfs fs 2>/dev/null || { echo "SKIP: cannot mount"; exit 77; }
    mnt="$work/fs"
    run 1 fleet 6000 fs/out.h5
    says "cannot write results to .*fs/out.h5: No space left on device \(reserving [0-9]+ bytes"
    [ ! -e fs/out.h5 ] || fail "a final file exists"
    nothing_left "$work/fs"
    grep -q "\"results_written\": false" s.json || fail "the summary says the file was written"
    ;;
*) fail "unknown mode $mode" ;;
esac
echo "$mode: ok"
