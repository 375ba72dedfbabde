#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# omp-env.sh NUMAPROBE CONFIG OUTDIR CASE
# numaprobe pins its own threads whatever OMP_* says. Each CASE runs the
# bandwidth matrix alone under one OpenMP variable and checks the rows and /hosts:
#   thread_limit  OMP_THREAD_LIMIT=1: rows say 1 of N threads ran and why, are invalid, and the
#                 whole array was streamed (pages on target, not 50%)
#   proc_bind     OMP_PROC_BIND=close: libgomp's binding of the main thread is undone, the
#                 launcher is not blamed, N threads ran on N CPUs
#   places        OMP_PLACES={0},{1}: the same for an explicit place list
#   place_one     OMP_PLACES={1}: one place binds the main thread as a launcher would; the
#                 binding check names both, and the lone rank still widens and measures all CPUs
#   levels        OMP_MAX_ACTIVE_LEVELS=0 and OMP_NUM_THREADS=64: N threads still ran
# Needs 2 usable CPUs (exit 77 otherwise).
set -euo pipefail
exe=$1 config=$2 outdir=$3 case=$4
cpus=$(nproc)
[ "$cpus" -ge 2 ] || { echo "skip: $cpus usable CPU(s), the cases need 2"; exit 77; }
out="$outdir/omp-$case.h5"
rm -f "$out"
case $case in
thread_limit) env=(OMP_THREAD_LIMIT=1) ;;
proc_bind) env=(OMP_PROC_BIND=close) ;;
places) env=("OMP_PLACES={0},{1}") ;;
place_one) env=("OMP_PLACES={1}") ;;
levels) env=(OMP_MAX_ACTIVE_LEVELS=0 OMP_NUM_THREADS=64) ;;
*) echo "omp-env.sh: unknown case $case" >&2; exit 2 ;;
esac
log=$(env "${env[@]}" "$exe" -c "$config" -o "$out" --only bandwidth_matrix \
    --set bandwidth_matrix.policies=none --set bandwidth_matrix.kernels=triad 2>&1) ||
    { echo "$log"; exit 1; }
if [ "$case" != thread_limit ] && [ "$case" != place_one ] && grep -q "binding on" <<<"$log"; then
    echo "FAIL: a binding warning under ${env[*]}:"; grep "binding on" <<<"$log"; exit 1
fi
/usr/bin/python3 - "$out" "$case" <<'PY'
import sys, h5py
path, case = sys.argv[1], sys.argv[2]
with h5py.File(path, "r") as f:
    host = f["hosts"][()][0]
    check = host["binding_check"].decode()
    rows = [r for r in f["bandwidth"][()] if r["experiment"] == b"bandwidth_matrix"]
assert rows, "no bandwidth_matrix rows"
print("binding_check:", check)
for r in rows:
    threads, note, status = int(r["threads"]), r["note"].decode(), r["status"].decode()
    print(f"  threads {threads} cpus {r['cpus'].decode()} status {status} note {note!r}")
    if case == "thread_limit":
        assert threads == 1, threads
        assert note.startswith("only 1 of ") and "(OMP_THREAD_LIMIT=1)" in note, note
        assert status == "invalid", status
        assert r["pages_on_target_frac"] >= 0.99, "half the array was never touched"
    else:
        assert threads >= 2 and status == "ok", (threads, status, note)
        assert len(r["cpus"].decode().replace("-", ",").split(",")) >= 2, "threads shared a CPU"
if case in ("proc_bind", "places"):
    assert check.startswith("ok:"), check
    assert "launcher bound" not in check, check
    variable = "OMP_PROC_BIND=close" if case == "proc_bind" else "OMP_PLACES={0},{1}"
    assert f"{variable} bound the main thread to CPU" in check and "undone" in check, check
if case == "place_one":
    assert check.startswith("widened: OMP_PLACES={1} or the launcher bound this rank"), check
print("ok:", case)
PY
