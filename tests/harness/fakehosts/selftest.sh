#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# selftest.sh: prove that fakehosts-mpirun really gives each rank a separate
# "host".
#
#   selftest.sh [--break]
#
# Compiles a tiny MPI program (mpicc, into a temp dir) that prints, per rank:
# world rank/size, gethostname(), MPI_Get_processor_name(), and the size, rank
# and lowest world rank ("leader") of its MPI_COMM_TYPE_SHARED communicator.
# Then checks:
#   1. 3 hosts x 1 rank: 3 distinct names, every shared comm has size 1
#   2. 8 hosts x 1 rank: 8 distinct names, every shared comm has size 1
#   3. a:2,b:1,c:1: the 2 ranks on "a" share one shared comm of size 2; the
#      others are alone
#   4. the same layout given through --hostfile
#   5. the checker rejects a run when told to expect a wrong layout (so the
#      assertions above can fail at all)
#   6. rank 1 exits with status 3: fakehosts-mpirun exits 3
#   7. a rank that hangs: --timeout 3 ends the run with 124, and no process of
#      the job is left behind
#   8. (if strace is installed) a 3-host run makes no DNS look-up and uses
#      no address but loopback
# --break adds one deliberately wrong assertion (the 3 x 1 run is expected
# to be a single host "a" with 3 ranks in one shared comm), to show that
# the script then exits non-zero.
#
# Prints "selftest: PASS/FAIL: ..." lines and a final "N passed, N failed"
# line.  Exit 0 if everything passed, 1 if not, 77 if a prerequisite is
# missing (mpicc, mpirun, unshare, namespaces).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
RUN="$HERE/fakehosts-mpirun"
BREAK=0
case ${1:-} in
    --break) BREAK=1 ;;
    "") ;;
    *) echo "usage: $0 [--break]" >&2; exit 2 ;;
esac

command -v mpicc >/dev/null 2>&1 || {
    echo "selftest: SKIP: mpicc not found (Debian: libopenmpi-dev)" >&2; exit 77; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/fakehosts-selftest.XXXXXX")
trap 'rm -rf -- "$WORK"' EXIT
PASS=0 FAIL=0
ok()  { echo "selftest: PASS: $*"; PASS=$((PASS + 1)); }
bad() { echo "selftest: FAIL: $*"; FAIL=$((FAIL + 1)); }

cat >"$WORK/probe.c" <<'EOF'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* probe [exit|hang]: print where this rank runs; optionally misbehave on
 * rank 1 (exit 3 / sleep forever) to test status propagation and timeouts. */
int main(int argc, char **argv)
{
    int rank, size, len, shm_rank, shm_size, leader;
    char proc[MPI_MAX_PROCESSOR_NAME], host[256];
    MPI_Comm shm;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(proc, &len);
    if (gethostname(host, sizeof host) != 0)
        strcpy(host, "?");
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                        MPI_INFO_NULL, &shm);
    MPI_Comm_rank(shm, &shm_rank);
    MPI_Comm_size(shm, &shm_size);
    /* lowest world rank in my shared comm: identifies the group */
    MPI_Allreduce(&rank, &leader, 1, MPI_INT, MPI_MIN, shm);

    if (argc > 1 && rank == 1) {
        if (strcmp(argv[1], "exit") == 0)
            exit(3);
        if (strcmp(argv[1], "hang") == 0)
            for (;;)
                sleep(1);
    }
    /* a world collective too, so traffic between fake hosts is exercised */
    int sum = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("PROBE rank=%d size=%d host=%s proc=%s shm_rank=%d shm_size=%d "
           "leader=%d sum=%d\n", rank, size, host, proc, shm_rank, shm_size,
           leader, sum);
    MPI_Comm_free(&shm);
    MPI_Finalize();
    return 0;
}
EOF
mpicc -O1 -o "$WORK/probe" "$WORK/probe.c"

# run_probe NAME [fakehosts-mpirun options...]: run the probe, output in
# $WORK/NAME.out / .err; sets RC and SECS.  Exit 77 (skip) is passed on.
run_probe() {
    local name=$1 t0 ms
    shift
    t0=$(date +%s%N)
    RC=0
    "$RUN" "$@" -- "$WORK/probe" ${PROBE_MODE:+"$PROBE_MODE"} \
        >"$WORK/$name.out" 2>"$WORK/$name.err" || RC=$?
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    SECS=$(printf '%d.%02d' $((ms / 1000)) $((ms % 1000 / 10)))
    if [[ $RC == 77 ]]; then
        cat "$WORK/$name.err" >&2
        echo "selftest: SKIP: fakehosts-mpirun cannot run here" >&2
        exit 77
    fi
}

# check_layout FILE SPEC: FILE holds PROBE lines; SPEC is "name:ranks,...".
# Passes (returns 0) only if: one line per expected rank, ranks 0..N-1 once
# each, size N, gethostname() == processor name, the host names and rank
# counts per name are exactly SPEC, every shared comm has exactly the ranks
# of one host (same leader within a host, different leaders across hosts,
# shm_size == ranks on that host), and the world allreduce sum is right.
# Prints the reason on failure.
check_layout() {
    local file=$1 spec=$2
    local -A want=() count=() leader_of=() seen_rank=() host_of_leader=()
    local -a items
    local item n=0 lines=0 line rank size host proc shm_size leader sum
    IFS=, read -r -a items <<<"$spec"
    for item in "${items[@]}"; do
        want[${item%%:*}]=${item#*:}
        n=$((n + ${item#*:}))
    done
    while read -r line; do
        lines=$((lines + 1))
        rank=$(field rank "$line"); size=$(field size "$line")
        host=$(field host "$line"); proc=$(field proc "$line")
        shm_size=$(field shm_size "$line"); leader=$(field leader "$line")
        sum=$(field sum "$line")
        [[ $size == "$n" ]] || { echo "  rank $rank: world size $size, want $n"; return 1; }
        [[ -z ${seen_rank[$rank]:-} ]] || { echo "  rank $rank printed twice"; return 1; }
        seen_rank[$rank]=1
        [[ $host == "$proc" ]] || { echo "  rank $rank: gethostname '$host' != processor name '$proc'"; return 1; }
        [[ -n ${want[$host]:-} ]] || { echo "  rank $rank on unexpected host '$host'"; return 1; }
        [[ $shm_size == "${want[$host]}" ]] \
            || { echo "  rank $rank on $host: shared comm size $shm_size, want ${want[$host]}"; return 1; }
        if [[ -n ${leader_of[$host]:-} && ${leader_of[$host]} != "$leader" ]]; then
            echo "  host $host is split over shared comms (leaders ${leader_of[$host]} and $leader)"; return 1
        fi
        if [[ -n ${host_of_leader[$leader]:-} && ${host_of_leader[$leader]} != "$host" ]]; then
            echo "  one shared comm (leader $leader) spans $host and ${host_of_leader[$leader]}"; return 1
        fi
        leader_of[$host]=$leader; host_of_leader[$leader]=$host
        count[$host]=$(( ${count[$host]:-0} + 1 ))
        [[ $sum == $((n * (n - 1) / 2)) ]] || { echo "  rank $rank: allreduce sum $sum"; return 1; }
    done < <(grep '^PROBE ' "$file")
    [[ $lines == "$n" ]] || { echo "  $lines PROBE lines, want $n"; return 1; }
    for host in "${!want[@]}"; do
        [[ ${count[$host]:-0} == "${want[$host]}" ]] \
            || { echo "  host $host ran ${count[$host]:-0} ranks, want ${want[$host]}"; return 1; }
    done
    [[ ${#count[@]} == "${#want[@]}" ]] || { echo "  ${#count[@]} distinct hosts, want ${#want[@]}"; return 1; }
    return 0
}
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $2"; }

# layout_case NAME SPEC-TO-EXPECT [fakehosts-mpirun options...]
layout_case() {
    local name=$1 spec=$2 why
    shift 2
    run_probe "$name" "$@"
    if [[ $RC != 0 ]]; then
        bad "$name: exit status $RC"; sed 's/^/  | /' "$WORK/$name.err" | tail -20
    elif why=$(check_layout "$WORK/$name.out" "$spec"); then
        ok "$name ($spec) in ${SECS}s"
    else
        bad "$name: $why"; sed 's/^/  | /' "$WORK/$name.out"
    fi
}

hosts8=h1:1,h2:1,h3:1,h4:1,h5:1,h6:1,h7:1,h8:1
layout_case "3-hosts" a:1,b:1,c:1 --hosts a,b,c
layout_case "8-hosts" "$hosts8" --hosts "$hosts8"
layout_case "2+1+1" a:2,b:1,c:1 --hosts a:2,b:1,c:1
printf '# comment\na slots=2\nb\nc slots=1\n' >"$WORK/hostfile"
layout_case "hostfile" a:2,b:1,c:1 --hostfile "$WORK/hostfile"

# 5: the checker must reject real output against wrong expectations.
wrong=0
for spec in a:1,b:1 a:2,b:1 a:1,b:1,x:1 a:3; do
    if check_layout "$WORK/3-hosts.out" "$spec" >/dev/null; then
        bad "checker accepted 3-hosts output as '$spec'"; wrong=1
    fi
done
if check_layout "$WORK/2+1+1.out" a:1,b:1,c:1,d:1 >/dev/null; then
    bad "checker accepted 2+1+1 output as 4 separate hosts"; wrong=1
fi
if [[ $wrong == 0 ]]; then ok "checker rejects wrong layouts"; fi

if [[ $BREAK == 1 ]]; then   # deliberately wrong: must show up as FAIL
    layout_case "BROKEN-on-purpose" a:3 --hosts a,b,c
fi

# 6: failing rank
PROBE_MODE="exit" run_probe "exit-3" --hosts a,b,c
if [[ $RC == 3 ]]; then ok "rank 1 exit(3) -> fakehosts-mpirun exit 3"
else bad "rank 1 exit(3) -> exit status $RC, want 3"; fi

# 7: timeout + nothing left behind.  The probe path is unique to this run,
# so pgrep -f on it finds only our processes.
PROBE_MODE="hang" run_probe "hang" --hosts a,b,c --timeout 3
sleep 0.5
if [[ $RC == 124 ]] && ! pgrep -f "$WORK/probe" >/dev/null; then
    ok "hung job killed by --timeout 3 after ${SECS}s, exit 124, no leftovers"
else
    bad "hung job: exit status $RC (want 124); leftovers: $(pgrep -af "$WORK/probe" || echo none)"
fi

# 8: no DNS look-ups, and no address but loopback, in any process of a run.
# strace sees every connect/send with an address; a DNS query would show as
# port 53 (Open MPI resolves the fake names unless if_base_do_not_resolve=1).
if command -v strace >/dev/null 2>&1; then
    strace -f -qq -e trace=connect,sendto,sendmsg,sendmmsg -o "$WORK/strace.txt" \
        "$RUN" --hosts a,b,c -- "$WORK/probe" >/dev/null 2>&1 || true
    if ! grep -q 'sin_port=htons' "$WORK/strace.txt"; then
        bad "strace saw no inet connect at all (tracing broken?)"
    elif grep -q 'htons(53)' "$WORK/strace.txt"; then
        bad "DNS look-up attempted:"; grep 'htons(53)' "$WORK/strace.txt" | head -3 | sed 's/^/  | /'
    elif grep -E 'inet_addr\("|inet_pton\(AF_INET6, "' "$WORK/strace.txt" \
            | grep -vE 'inet_addr\("127\.|inet_pton\(AF_INET6, "::1"' >"$WORK/foreign.txt"; then
        bad "non-loopback address used:"; head -3 "$WORK/foreign.txt" | sed 's/^/  | /'
    else
        ok "no DNS look-ups, only loopback addresses (strace of a 3-host run)"
    fi
else
    echo "selftest: SKIP: strace not installed, DNS/loopback check not run"
fi

echo "$PASS passed, $FAIL failed"
[[ $FAIL == 0 ]]
