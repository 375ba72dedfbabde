#!/usr/bin/env bash
# faults.sh MODE EXE CONFIG OUTDIR: a fleet fault, injected for real (NUMAPROBE_FAULT, see
# src/fault.h), and what must survive it.
#   hung_rank      3 fake hosts, the last rank stops for ever: the gather's watchdog gives it up,
#                  the file holds the other hosts' results and a "hung" /hosts row, exit 5
#   killed_rank    3 fake hosts, the last rank is killed (SIGKILL) mid-run: no final file, every
#                  rank's checkpoint is there, and numaprobe merge rebuilds a partial file (exit 5)
#   killed_writer  rank 0 is killed after writing every row, before the rename: no final file,
#                  the checkpoint kept; a run that ends well leaves no checkpoints behind
set -euo pipefail
mode=$1 exe=$(realpath "$2") config=$(realpath "$3") outdir=$4
here=$(cd "$(dirname "$0")" && pwd)
fakehosts="$here/../harness/fakehosts/fakehosts-mpirun"
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd -P)
out="$outdir/fault-$mode.h5"
rm -rf "$out" "$out".checkpoints "$out".tmp-* "$outdir/merged-$mode.h5"

fail() { echo "FAIL: $*"; exit 1; }
# run_rc CMD...: runs CMD, prints its output, leaves its exit status in $rc
run_rc() { set +e; "$@"; rc=$?; set -e; echo "exit status $rc"; }
py() { /usr/bin/python3 - "$@"; }

case $mode in
hung_rank)
    run_rc "$fakehosts" --hosts a:1,b:1,c:1 --timeout 120 -- -x NUMAPROBE_FAULT=hang_last_rank \
        "$exe" -c "$config" -o "$out" --quiet --set watchdog=2s
    [ "$rc" -eq 5 ] || fail "exit status $rc, want 5 (partial)"
    [ -f "$out" ] || fail "no results file"
    py "$out" <<'PY'
import sys, h5py
t = lambda v: v.decode() if isinstance(v, bytes) else str(v)
with h5py.File(sys.argv[1], "r") as f:
    hosts = {int(h["rank"]): h for h in f["hosts"][()]}
    lat_ranks = {int(r["rank"]) for r in f["latency"][()]}
    failed = int(f.attrs["hosts_failed"])
assert sorted(hosts) == [0, 1, 2], f"/hosts ranks {sorted(hosts)}"
assert t(hosts[2]["status"]) == "hung" and "watchdog" in t(hosts[2]["error"]), hosts[2]
assert t(hosts[2]["hostname"]) == "c", t(hosts[2]["hostname"])
assert all(t(hosts[r]["status"]) == "ok" for r in (0, 1)), "healthy hosts not ok"
assert lat_ranks == {0, 1}, f"latency rows from ranks {lat_ranks}"
assert failed == 1, f"hosts_failed {failed}"
print("hung rank: ok")
PY
    ;;
killed_rank)
    run_rc "$fakehosts" --hosts a:1,b:1,c:1 --timeout 120 -- -x NUMAPROBE_FAULT=kill_last_rank \
        "$exe" -c "$config" -o "$out" --quiet
    [ "$rc" -ne 0 ] || fail "a job with a killed rank exited 0"
    [ ! -e "$out" ] || fail "a final file exists after the job was killed"
    for r in 0 1 2; do
        [ -f "$out.checkpoints/rank-0000$r.h5" ] || fail "no checkpoint of rank $r"
    done
    run_rc "$exe" merge "$out.checkpoints" -o "$outdir/merged-$mode.h5"
    [ "$rc" -eq 5 ] || fail "merge exit status $rc, want 5 (partial: rank 2 incomplete)"
    run_rc "$exe" check "$outdir/merged-$mode.h5"
    [ "$rc" -eq 0 ] || fail "check rejects the merged file"
    py "$outdir/merged-$mode.h5" <<'PY'
import sys, h5py
t = lambda v: v.decode() if isinstance(v, bytes) else str(v)
with h5py.File(sys.argv[1], "r") as f:
    hosts = {int(h["rank"]): t(h["status"]) for h in f["hosts"][()]}
    lat_ranks = {int(r["rank"]) for r in f["latency"][()]}
    complete = int(f.attrs["complete"])
assert sorted(hosts) == [0, 1, 2], f"/hosts ranks {sorted(hosts)}"
assert hosts[2] == "incomplete", f"killed rank's status {hosts[2]}"
assert 2 in lat_ranks, "the killed rank's first phase is lost"
assert complete == 0, "a merge of a killed job says complete"
print("killed rank, merged: ok")
PY
    ;;
killed_writer)
    run_rc "$exe" -c "$config" -o "$out" --quiet
    [ "$rc" -eq 0 ] && [ -f "$out" ] || fail "the plain run failed"
    [ ! -e "$out.checkpoints" ] || fail "a run that ended well left $out.checkpoints"
    rm -f "$out"
    run_rc env NUMAPROBE_FAULT=kill_writer "$exe" -c "$config" -o "$out" --quiet
    [ "$rc" -eq 137 ] || fail "exit status $rc, want 137 (SIGKILL)"
    [ ! -e "$out" ] || fail "a killed writer left a final file"
    [ -f "$out.checkpoints/rank-00000.h5" ] || fail "the checkpoint is gone"
    echo "killed writer: ok"
    ;;
*) fail "unknown mode $mode" ;;
esac
