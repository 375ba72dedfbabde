#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# paths.sh MODE EXE CONFIG OUTDIR: the output path under hostile conditions. Each mode
# works in its own directory OUTDIR/paths-MODE and checks the exit code, the message, what is
# left on disk, and that no temporary (*.tmp-*) or lock survives.
#   not_regular     -o a FIFO, a symlink to /dev/null, a dangling symlink: exit 2, node intact
#   empty           -o "": exit 2 before measuring, no hidden temporary left
#   exists          -o an existing file: exit 2 and untouched; with --force replaced (exit 0)
#   concurrent      a second run with the same -o while the first runs: exit 2 naming host, PID
#   summary_concurrent  a second run with another -o but the same --summary-json while the
#                   first runs: exit 2 naming the summary's lock, nothing measured, the first
#                   run's summary kept; with --force it runs (exit 0) and says so
#   stale_lock      a lock of a dead PID of this host is taken over, with a warning
#   foreign_lock    a lock naming another host is not: exit 2 naming it, the lock kept
#   old_checkpoints an earlier killed job's checkpoints are moved aside, whole, and merge
#   checkpoints_file  OUT.h5.checkpoints is a file: moved aside, the run keeps checkpoints
#   long_name       a 255-byte file name: temporary, lock and checkpoint names cut to NAME_MAX,
#                   and a killed job's shortened lock taken over
#   long_path       a path past PATH_MAX: exit 2 naming PATH_MAX
#   via_symlink_dir, dotdot   -o through a symlinked directory, and a relative ../ path: exit 0
#   full_fs         the file system fills during the write: exit 1, no crash, nothing left
#   full_at_create  a file system already full: exit 2 naming ENOSPC, not file locking
#   merge_full_fs   numaprobe merge onto a full file system: exit 1, nothing left
#   full_fs_on_disk full_fs with every file on disk from its first rows (a fleet's file): its
#                   room cannot be reserved, the same exit, message and nothing left
set -uo pipefail
mode=$1 exe=$(realpath "$2") config=$(realpath "$3") outdir=$4
mkdir -p "$outdir"
work="$(cd "$outdir" && pwd -P)/paths-$mode"
. "$(dirname "$(realpath "$0")")/workdir.sh"
never_says() { ! grep -Eq -- "$1" "$work.log" || fail "output says: $1"; }
measured() { grep -q "CPUs of node" "$work.log"; }
# nothing_left DIR: no temporary and no lock file in DIR
nothing_left() {
    local left
    left=$(find "$1" -maxdepth 2 \( -name '*.tmp-*' -o -name '*.lock' -o -name '*.stale-*' \))
    [ -z "$left" ] || fail "left behind: $left"
}
# tiny_fs SIZE: a tmpfs of SIZE at $work/fs (skip, 77, where mounting is not allowed)
tiny_fs() {
    mkdir -p "$work/fs"
    mount -t tmpfs -o "size=$1" tmpfs "$work/fs" 2>/dev/null || { echo "SKIP: cannot mount"; exit 77; }
    mnt="$work/fs"
}
np() { "$exe" -c "$config" --quiet "$@"; }

case $mode in
not_regular)
    mkfifo fifo
    ln -s /dev/null devnull
    ln -s nowhere dangling
    run 2 np -o fifo
    says "fifo: it is a FIFO"
    measured && fail "measured before refusing"
    [ -p fifo ] || fail "the FIFO was replaced"
    run 2 np -o devnull
    says "devnull: it is a symbolic link \(to a character device\)"
    [ -c /dev/null ] || fail "/dev/null is no longer a device"
    run 2 np -o dangling
    says "symbolic link \(to nothing\)"
    run 2 np -o /dev/null
    says "/dev/null: it is a character device"
    [ -c /dev/null ] || fail "/dev/null is no longer a device"
    nothing_left "$work"
    ;;
empty)
    run 2 np -o ""
    says "cannot write results to '': the output path is empty"
    measured && fail "measured before refusing"
    run 2 np -o -
    says "cannot go to stdout"
    [ -z "$(ls -A)" ] || fail "left behind: $(ls -A)"
    ;;
exists)
    echo "precious" >r.h5
    run 2 np -o r.h5
    says "r.h5: the file exists \(give --force to replace it\)"
    measured && fail "measured before refusing"
    [ "$(cat r.h5)" = precious ] || fail "the existing file was changed"
    run 0 np -o r.h5 --force
    run 0 "$exe" check r.h5
    nothing_left "$work"
    ;;
concurrent)
    "$exe" -c "$config" --quiet -o r.h5 --set latency_matrix.samples=400 >"$work.first" 2>&1 &
    first=$!
    for _ in $(seq 100); do [ -e r.h5.lock ] && break; sleep 0.1; done
    [ -e r.h5.lock ] || fail "the first run made no lock"
    run 2 np -o r.h5 --force
    says "another job writes it \(lock .*r.h5.lock held by host $(hostname), PID $first, running\)"
    measured && fail "the second run measured"
    wait $first || fail "the first run failed: $(cat "$work.first")"
    run 0 "$exe" check r.h5
    nothing_left "$work"
    [ ! -e r.h5.checkpoints ] || fail "checkpoints left"
    ;;
summary_concurrent)
    "$exe" -c "$config" --quiet -o a.h5 --summary-json s.json \
        --set latency_matrix.samples=400 >"$work.first" 2>&1 &
    first=$!
    for _ in $(seq 100); do [ -e a.h5.lock ] && break; sleep 0.1; done
    [ -e a.h5.lock ] || fail "the first run made no lock"
    run 2 np -o b.h5 --summary-json s.json
    says "cannot write the summary to s.json: another job writes it \(lock .*s.json.lock held by host $(hostname), PID $first, running\); wait for it \(or give --force"
    measured && fail "the second run measured"
    [ ! -e b.h5 ] || fail "the refused run wrote its results"
    run 0 np -o c.h5 --summary-json s.json --force
    says "the summary s.json: its lock .*s.json.lock is held by another job; --force given"
    wait $first || fail "the first run failed: $(cat "$work.first")"
    grep -q '"results_file": "a.h5"' s.json || grep -q '"results_file": "c.h5"' s.json ||
        fail "no run's summary in s.json"
    nothing_left "$work"
    ;;
stale_lock)
    sleep 0 & dead=$!
    wait $dead
    echo "$(hostname) $dead" >r.h5.lock
    run 0 np -o r.h5
    says "took over the lock .*r.h5.lock of PID $dead on this host"
    nothing_left "$work"
    ;;
foreign_lock)
    echo "node-elsewhere.example 4242" >r.h5.lock
    run 2 np -o r.h5
    says "held by host node-elsewhere.example, PID 4242\); wait for it, or remove the lock"
    [ "$(cat r.h5.lock)" = "node-elsewhere.example 4242" ] || fail "the foreign lock was touched"
    [ ! -e r.h5 ] || fail "wrote a file"
    ;;
old_checkpoints)
    run 137 env NUMAPROBE_FAULT=kill_writer "$exe" -c "$config" --quiet -o r.h5
    [ -f r.h5.checkpoints/rank-00000.h5 ] || fail "the killed job kept no checkpoint"
    rm r.h5.tmp-* # SIGKILL alone leaves its temporary behind
    sum=$(md5sum <r.h5.checkpoints/rank-00000.h5)
    run 0 np -o r.h5
    says "took over the lock"
    says "an earlier job's checkpoints were in the way; moved to .*r.h5.checkpoints.20"
    aside=$(find . -maxdepth 1 -name 'r.h5.checkpoints.20*')
    [ "$(md5sum <"$aside/rank-00000.h5")" = "$sum" ] || fail "the earlier checkpoint changed"
    [ ! -e r.h5.checkpoints ] || fail "the new run left its checkpoints"
    run 0 "$exe" merge "$aside" -o earlier.h5
    run 0 "$exe" check earlier.h5
    nothing_left "$work"
    ;;
checkpoints_file)
    echo "not a directory" >r.h5.checkpoints
    run 0 np -o r.h5
    says "moved to .*r.h5.checkpoints.20"
    never_says "without checkpoints"
    [ "$(cat r.h5.checkpoints.20*)" = "not a directory" ] || fail "the file was not kept"
    ;;
long_name)
    name=$(printf 'x%.0s' $(seq 252)).h5 # 255 bytes: NAME_MAX
    run 137 env NUMAPROBE_FAULT=kill_writer "$exe" -c "$config" --quiet -o "$name"
    ckdir=$(find . -maxdepth 1 -type d -name 'x*~*.checkpoints')
    [ -f "$ckdir/rank-00000.h5" ] || fail "no checkpoint in a shortened directory: $(ls)"
    # Everything but the killed job's lock (its name cut short too), which the next run takes over.
    find . -mindepth 1 -maxdepth 1 ! -name '*~*.lock' -exec rm -rf {} +
    run 0 np -o "$name"
    says "took over the lock"
    [ -f "$name" ] || fail "no results file"
    [ "$(ls -A)" = "$name" ] || fail "left behind: $(ls -A)"
    ;;
long_path)
    long=$(printf 'd%.0s' $(seq 200))
    path=$work
    while [ ${#path} -lt 4200 ]; do path="$path/$long"; done
    run 2 np -o "$path/r.h5"
    says "the path is [0-9]+ bytes \(PATH_MAX 4096\)"
    ;;
via_symlink_dir)
    mkdir real && ln -s real link
    run 0 np -o link/r.h5
    [ -f real/r.h5 ] && [ -L link ] || fail "the file is not in the real directory"
    nothing_left "$work"
    ;;
dotdot)
    mkdir -p a/b && cd a/b || exit 1
    run 0 np -o ../../r.h5
    [ -f "$work/r.h5" ] || fail "no ../../r.h5"
    nothing_left "$work"
    ;;
full_fs)
    tiny_fs 32k
    run 1 np -o fs/r.h5
    says "cannot write results to .*fs/r.h5: No space left on device"
    says "going on without checkpoints"
    [ ! -e fs/r.h5 ] || fail "a final file exists"
    nothing_left "$work/fs"
    ;;
full_at_create)
    tiny_fs 16k
    head -c 1M /dev/zero >fs/filler 2>/dev/null
    run 2 np -o fs/r.h5
    says "No space left on device"
    never_says "locking"
    measured && fail "measured before refusing"
    nothing_left "$work/fs"
    ;;
full_fs_on_disk)
    tiny_fs 32k
    run 1 env NUMAPROBE_FAULT=writer_on_disk "$exe" -c "$config" --quiet -o fs/r.h5
    says "cannot write results to .*fs/r.h5: No space left on device \(reserving"
    says "going on without checkpoints"
    [ ! -e fs/r.h5 ] || fail "a final file exists"
    nothing_left "$work/fs"
    ;;
merge_full_fs)
    run 137 env NUMAPROBE_FAULT=kill_writer "$exe" -c "$config" --quiet -o r.h5
    rm r.h5.tmp-* r.h5.lock
    tiny_fs 32k
    run 1 "$exe" merge r.h5.checkpoints -o fs/merged.h5
    says "cannot write results to .*fs/merged.h5: No space left on device"
    [ ! -e fs/merged.h5 ] || fail "a final file exists"
    nothing_left "$work/fs"
    ;;
*) fail "unknown mode $mode" ;;
esac
echo "$mode: ok"
