#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# selftest.sh: prove the LSF stubs (bsub, blaunch, lsf-run) work end to end.
#
#   selftest.sh
#
# Compiles a tiny MPI program, then submits a job script
# (#BSUB -n 3, -R "span[ptile=1]", -J lsf-selftest) that prints its LSB_*
# environment and host, and runs
#   mpirun --mca plm_rsh_agent blaunch --hostfile <from LSB_DJOB_HOSTFILE>
# Checks:
#   1. the LSB_* variables (ids, names, host lists, hostfile) are right and
#      the batch script ran on lsfhost1
#   2. the 3 ranks ran on lsfhost1, lsfhost2, lsfhost3 (gethostname and
#      MPI_Get_processor_name), each alone in its MPI_COMM_TYPE_SHARED comm
#   3. command-line options beat #BSUB lines: -n 3 -R "span[ptile=2]" puts
#      2 ranks on lsfhost1 (one shared comm of size 2) and 1 on lsfhost2
#   4. the job's exit status (5) is bsub's exit status
#   5. blaunch refuses a host outside the job's allocation
#   6. bsub called outside lsf-run re-runs itself inside it
# Prints PASS/FAIL lines, then "N passed, N failed".  Exit 0 if all passed,
# 1 if not, 77 if a prerequisite (mpicc, namespaces) is missing.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
command -v mpicc >/dev/null 2>&1 || {
    echo "selftest: SKIP: mpicc not found (Debian: libopenmpi-dev)" >&2; exit 77; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/lsf-selftest.XXXXXX")
trap 'rm -rf -- "$WORK"' EXIT
cd "$WORK"
PASS=0 FAIL=0
ok()   { echo "selftest: PASS: $*"; PASS=$((PASS + 1)); }
bad()  { echo "selftest: FAIL: $*"; FAIL=$((FAIL + 1)); }
show() { sed 's/^/  | /' "$@"; }

cat >where.c <<'EOF'
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    int rank, len, shm_size;
    char proc[MPI_MAX_PROCESSOR_NAME], host[256];
    MPI_Comm shm;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Get_processor_name(proc, &len);
    gethostname(host, sizeof host);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                        MPI_INFO_NULL, &shm);
    MPI_Comm_size(shm, &shm_size);
    printf("RANK %d host=%s proc=%s shm_size=%d\n", rank, host, proc, shm_size);
    MPI_Comm_free(&shm);
    MPI_Finalize();
    return 0;
}
EOF
mpicc -o where where.c

cat >job.sh <<'EOF'
#!/bin/bash
#BSUB -n 3
#BSUB -R "span[ptile=1]"
#BSUB -J lsf-selftest
#BSUB -x
set -eu
echo "BATCHHOST $(hostname)"
env | grep -E '^(LSB_|LS_SUBCWD=)' | sort | sed 's/^/ENV /'
sed 's/^/HOSTFILE /' "$LSB_DJOB_HOSTFILE"
# LSB_DJOB_HOSTFILE has one line per slot; give Open MPI "host slots=N".
sort "$LSB_DJOB_HOSTFILE" | uniq -c | awk '{print $2 " slots=" $1}' >"hosts.$LSB_JOBID"
mpirun --mca plm_rsh_agent blaunch --hostfile "hosts.$LSB_JOBID" \
    -np "$LSB_DJOB_NUMPROC" ./where | sort
EOF

# submit OUT [bsub args...]: run bsub under lsf-run with job output in OUT
# and bsub's own stdout in OUT.submit; sets RC.
submit() {
    local out=$1
    shift
    RC=0
    "$HERE/lsf-run" --timeout 120 -- bsub -oo "$out" "$@" >"$out.submit" 2>"$out.err" || RC=$?
    if [[ $RC == 77 ]]; then
        cat "$out.err" >&2; echo "selftest: SKIP: cannot create the namespaces" >&2; exit 77
    fi
}
has() { grep -qxF -- "$2" "$1"; }   # has FILE LINE: exact line present

# ---- 1 + 2: the job as written
submit job1.out <job.sh
echo "job output (job 1):"; show job1.out
jobid=$(sed -n 's/^Job <\([0-9]*\)> is submitted to queue <normal>\.$/\1/p' job1.out.submit)
if [[ $RC != 0 || -z $jobid ]]; then
    bad "job 1: bsub exit $RC, submit line '$(cat job1.out.submit)'"; show job1.out.err
else
    missing=""
    for line in "BATCHHOST lsfhost1" "ENV LSB_JOBID=$jobid" "ENV LSB_JOBNAME=lsf-selftest" \
                "ENV LSB_DJOB_NUMPROC=3" "ENV LSB_MAX_NUM_PROCESSORS=3" \
                "ENV LSB_HOSTS=lsfhost1 lsfhost2 lsfhost3" \
                "ENV LSB_MCPU_HOSTS=lsfhost1 1 lsfhost2 1 lsfhost3 1" \
                "ENV LSB_SUB_HOST=lsf-submit" "ENV LS_SUBCWD=$WORK" \
                "HOSTFILE lsfhost1" "HOSTFILE lsfhost2" "HOSTFILE lsfhost3"; do
        has job1.out "$line" || missing+=" [$line]"
    done
    [[ $(grep -c '^HOSTFILE ' job1.out) == 3 ]] || missing+=" [exactly 3 HOSTFILE lines]"
    grep -q '^ENV LSB_DJOB_HOSTFILE=/' job1.out || missing+=" [LSB_DJOB_HOSTFILE]"
    if [[ -z $missing ]]; then ok "job $jobid: LSB_* environment and batch host"
    else bad "job 1: missing$missing"; fi

    want=$'RANK 0 host=lsfhost1 proc=lsfhost1 shm_size=1\nRANK 1 host=lsfhost2 proc=lsfhost2 shm_size=1\nRANK 2 host=lsfhost3 proc=lsfhost3 shm_size=1'
    if [[ $(grep '^RANK ' job1.out) == "$want" ]]; then
        ok "3 ranks on lsfhost1..3 (hostname, processor name, shared comm of 1)"
    else
        bad "job 1 ranks: got"; grep '^RANK ' job1.out | show
    fi
fi

# ---- 3: command line beats #BSUB
submit job2.out -n 3 -R "span[ptile=2]" -J cli-wins <job.sh
want=$'RANK 0 host=lsfhost1 proc=lsfhost1 shm_size=2\nRANK 1 host=lsfhost1 proc=lsfhost1 shm_size=2\nRANK 2 host=lsfhost2 proc=lsfhost2 shm_size=1'
if [[ $RC == 0 ]] && has job2.out "ENV LSB_JOBNAME=cli-wins" \
        && has job2.out "ENV LSB_MCPU_HOSTS=lsfhost1 2 lsfhost2 1" \
        && [[ $(grep '^RANK ' job2.out) == "$want" ]]; then
    ok "command line over #BSUB: ptile=2 -> 2 ranks share lsfhost1"
else
    bad "job 2 (exit $RC):"; show job2.out job2.out.err
fi

# ---- 4: exit status
printf '#!/bin/sh\necho failing on purpose\nexit 5\n' >fail.sh
submit job3.out fail.sh
if [[ $RC == 5 ]] && has job3.out "failing on purpose"; then ok "job exit 5 -> bsub exit 5"
else bad "failing job: bsub exit $RC, want 5"; show job3.out; fi

# ---- 5: blaunch only reaches the job's own hosts
submit job4.out -n 2 -R "span[ptile=1]" blaunch lsfhost3 hostname
if [[ $RC != 0 ]] && grep -q "not part of job" job4.out; then
    ok "blaunch refuses lsfhost3 in a 2-host job (bsub exit $RC)"
else
    bad "blaunch to a foreign host: exit $RC"; show job4.out
fi

# ---- 6: bsub outside lsf-run wraps itself
RC=0
PATH="$HERE:$PATH" bsub -n 2 -R "span[ptile=1]" -oo job5.out blaunch lsfhost2 hostname \
    >job5.submit 2>&1 || RC=$?
if [[ $RC == 0 ]] && has job5.out lsfhost2; then ok "bsub outside lsf-run re-runs itself inside"
else bad "bsub outside lsf-run: exit $RC"; show job5.submit job5.out 2>/dev/null || true; fi

echo "$PASS passed, $FAIL failed"
[[ $FAIL == 0 ]]
