#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# restore-scenario.sh NUMAPROBE CONFIG OUT SCENARIO: runs in a guest booted with
# kernel.numa_balancing=1 (numaprobe-in-vm.sh --scenario). A numaprobe run is killed with SIGKILL
# while its numa_balancing experiment has the setting off, as a time limit's KillWait or the OOM
# killer would; then the setting must come back to 1 by:
#   start      the next numaprobe start, which says so on stderr (OUT.h5: its /hosts row,
#              checked after the guest by test_guest_restore.py)
#   restore    `numaprobe restore` (refused without root, saying what to run; then as root)
#   concurrent a second run of its own beside the first: it must leave the first one's setting
#              and record alone when it ends; the first is then killed, and a --dry-run start
#              puts the setting back
#   slurm      jobs/slurm/numaprobe.sbatch under a local Slurm cluster in the guest
#              (tests/harness/slurm, copied beside NUMAPROBE), killed at its time limit
#              (--time=1, KillWait=5) with its numaprobe deaf to SIGTERM, as a rank stuck in
#              the kernel is: SIGKILL ends it, and the cluster's Epilog=jobs/epilog/
#              numaprobe-restore must put the setting back once the job has ended
# CONFIG is tests/configs/guest-balancing.yaml. Prints what it sees; exits 0 when every step held.
set -uo pipefail
exe=$1 config=$2 out=$3 scenario=$4
setting=/proc/sys/kernel/numa_balancing record=/run/numaprobe/numa_balancing.state
say() { echo "restore-scenario: $*"; }
fail() {
    echo "FAIL: $*"
    [ -f "$record" ] && sed 's/^/  record: /' "$record"
    exit 1
}
now() { cat "$setting"; }
measure_balancing=(-c "$config" --quiet --only numa_balancing)
measure_latency=(-c "$config" --quiet --only latency_matrix)

[ "$(now)" = 1 ] || fail "the guest booted with kernel.numa_balancing=$(now), not 1"
# What an earlier boot of this guest left (a guest that locked up is booted again).
rm -rf "$out.h5"* "$out-victim.h5"* "$out-second.h5"* "$out.stdout" "$out.stderr" "$out.killed-pid"

# The first run, in the background, until its balancing series has the setting off and its
# record names it; $victim is its PID.
start_victim() {
    "$exe" "${measure_balancing[@]}" -o "$out-victim.h5" &
    victim=$!
    for _ in $(seq 3000); do
        if [ "$(now)" = 0 ] && grep -q "^owner $victim " "$record" 2>/dev/null; then
            say "pid $victim has kernel.numa_balancing at 0 and its record is there"
            return 0
        fi
        kill -0 "$victim" 2>/dev/null || fail "numaprobe (pid $victim) ended before its off phase"
        sleep 0.1
    done
    fail "numaprobe (pid $victim) never turned kernel.numa_balancing off"
}

kill_victim() {
    kill -9 "$victim"
    wait "$victim" 2>/dev/null
    # Without this the test would pass on a run that put the setting back itself.
    [ "$(now)" = 0 ] || fail "after SIGKILL the setting is $(now): nothing was left to recover"
    grep -q "^owner $victim " "$record" || fail "after SIGKILL the record does not name $victim"
    say "SIGKILL: kernel.numa_balancing left at 0, the record left behind"
    echo "$victim" >"$out.killed-pid"
}

restored_back() {
    [ "$(now)" = 1 ] || fail "$1: kernel.numa_balancing is $(now), not 1"
    [ ! -e "$record" ] || fail "$1: the record is still there"
    say "$1: kernel.numa_balancing back at 1, no record left"
}

case $scenario in
start)
    start_victim
    kill_victim
    "$exe" "${measure_latency[@]}" -o "$out.h5" >"$out.stdout" 2>"$out.stderr"
    rc=$?
    cat "$out.stderr"
    [ "$rc" = 0 ] || fail "the next run exited $rc"
    grep -q "left at 0 by numaprobe pid $victim.*restored to 1" "$out.stderr" ||
        fail "the next run did not say it restored the setting"
    grep "at start: kernel.numa_balancing was left at 0" "$out.stdout" ||
        fail "the next run's report does not say what it found at start"
    restored_back "the next start"
    ;;
restore)
    start_victim
    kill_victim
    msg=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$exe" restore 2>&1)
    rc=$?
    echo "$msg"
    [ "$rc" = 1 ] || fail "numaprobe restore without root exited $rc, not 1"
    grep -q "not root.*numaprobe restore' as root" <<<"$msg" || fail "it did not say what to run"
    if [ "$(now)" != 0 ] || [ ! -f "$record" ]; then
        fail "numaprobe restore without root changed something"
    fi
    msg=$("$exe" restore 2>&1)
    rc=$?
    echo "$msg"
    [ "$rc" = 0 ] || fail "numaprobe restore exited $rc"
    grep -q "left at 0 by numaprobe pid $victim.*restored to 1" <<<"$msg" ||
        fail "numaprobe restore did not say what it restored"
    restored_back "numaprobe restore"
    msg=$("$exe" restore 2>&1)
    rc=$?
    echo "$msg"
    if [ "$rc" != 0 ] || ! grep -q "nothing to put back" <<<"$msg"; then
        fail "a second numaprobe restore exited $rc"
    fi
    ;;
concurrent)
    start_victim
    # The second run changes the setting too (off, then on) and leaves while the first still
    # measures: the setting must be what the first one wants, and the record the first one's.
    "$exe" "${measure_balancing[@]}" --set numa_balancing.duration=1s -o "$out-second.h5" \
        2>"$out.stderr"
    rc=$?
    cat "$out.stderr"
    [ "$rc" = 0 ] || fail "the second run exited $rc"
    kill -0 "$victim" 2>/dev/null || fail "the first run ended before the second: no overlap"
    wants=$(awk -v p="$victim" '$1 == "owner" && $2 == p { print $4 }' "$record")
    [ -n "$wants" ] || fail "the second run removed the first one's record"
    [ "$(now)" = "$wants" ] ||
        fail "the second run left kernel.numa_balancing at $(now); the first run wants $wants"
    grep -q "^original 1$" "$record" || fail "the record's original value is no longer 1"
    [ "$(grep -c '^owner ' "$record")" = 1 ] || fail "the second run is still in the record"
    say "the second run ended: the first run's $wants and record kept, original 1"
    kill_victim
    "$exe" "${measure_latency[@]}" --dry-run >/dev/null 2>"$out.stderr"
    rc=$?
    cat "$out.stderr"
    [ "$rc" = 0 ] || fail "numaprobe --dry-run exited $rc"
    grep -q "left at 0 by numaprobe pid $victim.*restored to 1" "$out.stderr" ||
        fail "the --dry-run start did not say it restored the setting"
    restored_back "a --dry-run start"
    ;;
slurm)
    bin=$(dirname "$exe")
    if ! modprobe bridge || ! modprobe veth; then fail "the guest has no bridge or veth module"; fi
    # slurmd's cgroup/v2 plugin, without systemd here, builds its tree under system.slice itself
    # (the harness's IgnoreSystemdOnFailure), with these controllers.
    cg=/sys/fs/cgroup controllers="+cpuset +cpu +memory +pids"
    mountpoint -q $cg || mount -t cgroup2 none $cg || fail "cannot mount cgroup2"
    if ! { mkdir -p $cg/system.slice && echo "$controllers" >$cg/cgroup.subtree_control &&
        echo "$controllers" >$cg/system.slice/cgroup.subtree_control; }; then
        fail "cannot prepare $cg/system.slice for slurmd"
    fi
    # The rank: SIGTERM ignored (inherited, numaprobe keeps it), so that only SIGKILL ends it.
    printf '#!/bin/sh\ntrap "" TERM\nexec %q "$@"\n' "$exe" >"$out.deaf"
    # The site's epilog as slurmd runs it (as root, no PATH), told where numaprobe is.
    # shellcheck disable=SC2016 # $SLURM_JOB_ID is the epilog's
    printf '#!/bin/sh\nexec >>%q 2>&1\necho "epilog of job $SLURM_JOB_ID"\nNUMAPROBE=%q exec %q\n' \
        "$out.epilog.log" "$exe" "$bin/numaprobe-restore" >"$out.epilog"
    chmod +x "$out.deaf" "$out.epilog"
    rm -rf "$out.epilog.log" "$out.job.out" "$out.job"
    mkdir "$out.job" # the job's results and checkpoints, apart from every other test's
    export NUMAPROBE="$out.deaf" JOB_OUT="$out.job.out" EPILOG_LOG="$out.epilog.log"
    export NUMAPROBE_ARGS="--quiet --only numa_balancing --set numa_balancing.duration=900s"
    # shellcheck disable=SC2016 # expanded in the cluster's namespace
    "$bin/slurm/with-slurm-cluster" --nodes 1 --cpus-per-node 4 --timeout 600 \
        --epilog "$out.epilog" -- bash -c '
        id=$(sbatch --parsable --time=1 --nodes=1 -o "$JOB_OUT" "$1" "$2" "$3") || exit 1
        echo "restore-scenario: job $id submitted with --time=1"
        for _ in $(seq 480); do
            state=$(scontrol show job "$id" | grep -o "JobState=[A-Z_]*")
            case $state in JobState=PENDING | JobState=RUNNING | JobState=CONFIGURING | \
                JobState=COMPLETING | "") sleep 1 ;; *) break ;; esac
        done
        echo "restore-scenario: job $id ended: $state"
        # The epilog runs as the job completes; wait for it to have said something.
        for _ in $(seq 120); do [ -s "$EPILOG_LOG" ] && grep -q "numaprobe" "$EPILOG_LOG" && break; sleep 1; done
        echo "$id" >"$JOB_OUT.id"
        [ "$state" = JobState=TIMEOUT ]' job "$bin/numaprobe.sbatch" "$config" "$out.job"
    rc=$?
    sed 's/^/  job: /' "$out.job.out" 2>/dev/null | grep -v '^  job: *$' | tail -20
    sed 's/^/  epilog: /' "$out.epilog.log" 2>/dev/null
    [ "$rc" = 0 ] || fail "the job did not end by its time limit (with-slurm-cluster exited $rc)"
    id=$(cat "$out.job.out.id")
    grep -q "left at 0 by numaprobe pid [0-9]* (job $id).*restored to 1" "$out.epilog.log" ||
        fail "the epilog did not put back what job $id left"
    restored_back "the epilog after job $id"
    ;;
*)
    fail "unknown scenario $scenario"
    ;;
esac
say "$scenario: ok"
