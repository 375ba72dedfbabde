#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# faults.sh MODE EXE CONFIG OUTDIR: a fleet fault, injected for real (NUMAPROBE_FAULT, see
# src/util/fault.h), and what must survive it.
#   hung_rank      3 fake hosts, the last rank stops for ever: the gather's watchdog gives it up,
#                  the file holds the other hosts' results and a "hung" /hosts row, exit 5
#   hung_rank0     rank 0 itself stops for ever in its second experiment, beside a second rank on
#                  its host and two more hosts: rank 0's watchdog thread writes what the job has
#                  (rank 0's first experiment, the other hosts), both ranks of its host "hung", exit 5
#   hung_turn      3 ranks on rank 0's host, the second stops for ever in its turn: rank 0 stops
#                  waiting for it; the third never got its turn; both "hung" and why, exit 5
#   killed_rank    3 fake hosts, the last rank is killed (SIGKILL) mid-run: no final file, every
#                  rank's checkpoint is there, and numaprobe merge rebuilds a partial file (exit 5)
#   killed_in_turn 3 ranks on one host, the last killed (SIGKILL) in its turn: the two ranks that
#                  had finished come out "ok" from numaprobe merge (hosts_ok 2), the killed one
#                  "incomplete"
#   killed_writer  rank 0 is killed after writing every row, before the rename: no final file,
#                  the checkpoint kept; a run that ends well leaves no checkpoints behind
#   term_writer    the same with SIGTERM, as a scheduler's time limit sends: exit 143, and no
#                  temporary file and no lock left either
set -euo pipefail
mode=$1 exe=$(realpath "$2") config=$(realpath "$3") outdir=$4
here=$(cd "$(dirname "$0")" && pwd)
fakehosts="$here/../harness/fakehosts/fakehosts-mpirun"
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd -P)
out="$outdir/fault-$mode.h5"
rm -rf "$out" "$out".checkpoints* "$out".tmp-* "$out".lock "$outdir/merged-$mode.h5"

fail() { echo "FAIL: $*"; exit 1; }
# run_rc CMD...: runs CMD, prints its output, leaves its exit status in $rc
run_rc() { set +e; "$@"; rc=$?; set -e; echo "exit status $rc"; }
# py FILE <<'PY' ... PY: a Python check of results file FILE, with f (the open file), t (bytes to
# str), hosts (the /hosts rows by rank) and lat_ranks (ranks with latency rows) at hand
py() {
    { cat <<'PRELUDE'
import sys, h5py
t = lambda v: v.decode() if isinstance(v, bytes) else str(v)
f = h5py.File(sys.argv[1], "r")
hosts = {int(h["rank"]): h for h in f["hosts"][()]}
lat_ranks = {int(r["rank"]) for r in f["latency"][()]}
PRELUDE
      cat; } | /usr/bin/python3 - "$@"
}
# run_hung HOSTS FAULT: a job on fake hosts HOSTS with FAULT injected and a 2 s watchdog must end
# partial (exit 5) with a results file that numaprobe check accepts
run_hung() {
    run_rc "$fakehosts" --hosts "$1" --timeout 120 -- -x NUMAPROBE_FAULT="$2" \
        "$exe" -c "$config" -o "$out" --quiet --set watchdog=2s
    [ "$rc" -eq 5 ] || fail "exit status $rc, want 5 (partial)"
    [ -f "$out" ] || fail "no results file"
    run_rc "$exe" check "$out"
    [ "$rc" -eq 0 ] || fail "numaprobe check rejects the file"
}

case $mode in
hung_rank)
    run_hung a:1,b:1,c:1 hang_last_rank
    py "$out" <<'PY'
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
hung_rank0)
    run_hung a:2,b:1,c:1 hang_rank0
    py "$out" <<'PY'
bw_ranks = {int(r["rank"]) for r in f["bandwidth"][()]}
failed, complete = int(f.attrs["hosts_failed"]), int(f.attrs["complete"])
assert sorted(hosts) == [0, 1, 2, 3], f"/hosts ranks {sorted(hosts)}"
assert t(hosts[0]["status"]) == "hung", hosts[0]
assert t(hosts[0]["error"]).startswith("watchdog: bandwidth_matrix"), t(hosts[0]["error"])
assert t(hosts[1]["status"]) == "hung" and "never measured" in t(hosts[1]["error"]), hosts[1]
assert all(t(hosts[r]["status"]) == "ok" for r in (2, 3)), "healthy hosts not ok"
assert lat_ranks == {0, 2, 3}, f"latency rows from ranks {lat_ranks} (rank 0's first experiment kept)"
assert 0 not in bw_ranks, "rows of the experiment that hung"
assert failed == 2 and complete == 0, (failed, complete)
print("hung rank 0: ok")
PY
    ;;
hung_turn)
    run_hung a:3,b:1 hang_rank1
    py "$out" <<'PY'
assert sorted(hosts) == [0, 1, 2, 3], f"/hosts ranks {sorted(hosts)}"
assert [t(hosts[r]["status"]) for r in range(4)] == ["ok", "hung", "hung", "ok"], hosts
assert "in its turn" in t(hosts[1]["error"]), t(hosts[1]["error"])
assert "never measured: rank 1" in t(hosts[2]["error"]), t(hosts[2]["error"])
assert lat_ranks == {0, 3}, f"latency rows from ranks {lat_ranks}"
print("hung turn: ok")
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
complete = int(f.attrs["complete"])
assert sorted(hosts) == [0, 1, 2], f"/hosts ranks {sorted(hosts)}"
assert t(hosts[2]["status"]) == "incomplete", f"killed rank's status {hosts[2]}"
assert 2 in lat_ranks, "the killed rank's first phase is lost"
assert complete == 0, "a merge of a killed job says complete"
print("killed rank, merged: ok")
PY
    ;;
killed_in_turn)
    run_rc "$fakehosts" --hosts a:3 --timeout 120 -- -x NUMAPROBE_FAULT=kill_last_rank \
        "$exe" -c "$config" -o "$out" --quiet
    [ "$rc" -ne 0 ] || fail "a job with a killed rank exited 0"
    run_rc "$exe" merge "$out.checkpoints" -o "$outdir/merged-$mode.h5"
    [ "$rc" -eq 5 ] || fail "merge exit status $rc, want 5 (partial: rank 2 incomplete)"
    py "$outdir/merged-$mode.h5" <<'PY'
status = [t(hosts[r]["status"]) for r in sorted(hosts)]
assert status == ["ok", "ok", "incomplete"], f"statuses {status}: finished ranks must be ok"
assert int(f.attrs["hosts_ok"]) == 2, f"hosts_ok {int(f.attrs['hosts_ok'])}"
assert t(f.attrs["ranks_incomplete"]) == "2", t(f.attrs["ranks_incomplete"])
print("killed in its turn, merged: ok")
PY
    ;;
killed_writer)
    run_rc "$exe" -c "$config" -o "$out" --quiet
    if [ "$rc" -ne 0 ] || [ ! -f "$out" ]; then fail "the plain run failed"; fi
    [ ! -e "$out.checkpoints" ] || fail "a run that ended well left $out.checkpoints"
    rm -f "$out"
    run_rc env NUMAPROBE_FAULT=kill_writer "$exe" -c "$config" -o "$out" --quiet
    [ "$rc" -eq 137 ] || fail "exit status $rc, want 137 (SIGKILL)"
    [ ! -e "$out" ] || fail "a killed writer left a final file"
    [ -f "$out.checkpoints/rank-00000.h5" ] || fail "the checkpoint is gone"
    echo "killed writer: ok"
    ;;
term_writer)
    run_rc env NUMAPROBE_FAULT=term_writer "$exe" -c "$config" -o "$out" --quiet
    [ "$rc" -eq 143 ] || fail "exit status $rc, want 143 (SIGTERM)"
    [ ! -e "$out" ] || fail "a writer stopped by SIGTERM left a final file"
    leftovers=$(find "$outdir" -maxdepth 1 -name "fault-$mode.h5.tmp-*")
    [ -z "$leftovers" ] || fail "temporary file left behind: $leftovers"
    [ ! -e "$out.lock" ] || fail "the lock was left behind"
    [ -f "$out.checkpoints/rank-00000.h5" ] || fail "the checkpoint is gone"
    echo "writer stopped by SIGTERM: ok"
    ;;
*) fail "unknown mode $mode" ;;
esac
