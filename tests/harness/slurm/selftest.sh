#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# selftest.sh: prove the Slurm test harness works end to end.
#
# Brings up a 2-node cluster (via with-slurm-cluster), then:
#   1. an MPI hello launched with `srun --mpi=pmix` from an sbatch script,
#      -N 2 --ntasks-per-node=1: expects size 2, ranks 0 and 1, two distinct
#      node names;
#   2. the same program launched with `mpirun` inside the allocation;
#   3. the checker itself must reject a run whose two ranks share one node
#      (-N 1 -n 2), so the "distinct nodes" assertion is shown to bite;
#   4. a job that exits 3: slurm-submit-and-wait must exit non-zero;
#   5. a job that outlives --timeout: slurm-submit-and-wait must exit
#      non-zero and cancel it.
# Ends with a "N passed, N failed" line; exit 0 only if all passed,
# 77 if a prerequisite is missing.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

if [[ ${1:-} != --inner ]]; then
    if ! command -v mpicc >/dev/null 2>&1 || ! command -v mpirun >/dev/null 2>&1; then
        echo "selftest: SKIP: mpicc/mpirun missing; install Debian packages libopenmpi-dev openmpi-bin" >&2
        exit 77
    fi
    exec "$HERE/with-slurm-cluster" --nodes 2 --timeout 300 -- "$0" --inner
fi

# ---- from here on we run inside the cluster (with-slurm-cluster exec) ----
WORK=$SLURM_CLUSTER_DIR/selftest
mkdir -p "$WORK"
cd "$WORK"
PASS=0 FAIL=0
ok()  { echo "selftest: PASS: $*"; PASS=$((PASS + 1)); }
bad() { echo "selftest: FAIL: $*"; FAIL=$((FAIL + 1)); }

submit() { "$HERE/slurm-submit-and-wait" --dir "$SLURM_CLUSTER_DIR" "$@"; }

cat > hello.c <<'EOF'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    int rank, size, len;
    char name[MPI_MAX_PROCESSOR_NAME];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(name, &len);
    /* a collective, so inter-node communication is exercised too */
    int sum = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("hello rank=%d size=%d host=%s sum=%d\n", rank, size, name, sum);
    MPI_Finalize();
    return 0;
}
EOF
mpicc -o hello hello.c

# check_hello FILE: exactly 2 lines, size 2, ranks {0,1}, allreduce sum 1,
# two distinct host names.  Prints why on failure.
check_hello() {
    local f=$1 lines hosts ranks
    lines=$(grep -c '^hello ' "$f" || true)
    [[ $lines -eq 2 ]] || { echo "expected 2 hello lines, got $lines"; return 1; }
    grep '^hello ' "$f" | grep -qv ' size=2 ' && { echo "size is not 2"; return 1; }
    grep '^hello ' "$f" | grep -qv ' sum=1$' && { echo "allreduce sum is not 1"; return 1; }
    ranks=$(sed -n 's/^hello rank=\([0-9]*\) .*/\1/p' "$f" | sort | tr '\n' ' ')
    [[ $ranks == "0 1 " ]] || { echo "ranks are '$ranks', not '0 1'"; return 1; }
    hosts=$(sed -n 's/.* host=\([^ ]*\) .*/\1/p' "$f" | sort -u | wc -l)
    [[ $hosts -eq 2 ]] || { echo "ranks ran on $hosts distinct node(s), not 2"; return 1; }
}

printf '#!/bin/bash\nset -e\nsrun --mpi=pmix ./hello\n' > job-srun.sh
printf '#!/bin/bash\nset -e\nmpirun ./hello\n' > job-mpirun.sh
printf '#!/bin/bash\necho about to fail\nexit 3\n' > job-fail.sh
printf '#!/bin/bash\nsleep 120\n' > job-slow.sh

# 1 + 2: both launchers, two nodes, one rank each.
for launcher in srun mpirun; do
    if submit --timeout 120 -- -N 2 --ntasks-per-node=1 -o "$launcher.out" "job-$launcher.sh"; then
        if why=$(check_hello "$launcher.out"); then
            ok "$launcher: 2 ranks on 2 nodes: $(grep -o 'host=[^ ]*' "$launcher.out" | sort | tr '\n' ' ')"
        else
            bad "$launcher: $why"
        fi
    else
        bad "$launcher: job did not complete successfully"
    fi
done

# 3: the checker must reject two ranks on one node.
if submit --timeout 120 -- -N 1 -n 2 -o onenode.out job-srun.sh >/dev/null; then
    if why=$(check_hello onenode.out); then
        bad "checker accepted 2 ranks on one node"
    else
        ok "checker rejects a one-node run ($why)"
    fi
else
    bad "one-node job did not complete successfully"
fi

# 4: a failing job must make slurm-submit-and-wait fail.
rc=0; submit --timeout 60 -- -N 1 job-fail.sh >fail.log 2>&1 || rc=$?
if (( rc != 0 )) && grep -q 'JobState=FAILED ExitCode=3:0' fail.log; then
    ok "failing job: slurm-submit-and-wait exited $rc (JobState=FAILED ExitCode=3:0)"
else
    bad "failing job: slurm-submit-and-wait exited $rc"; cat fail.log
fi

# 5: a job that outlives --timeout must fail and be cancelled.
rc=0; submit --timeout 3 -- -N 1 job-slow.sh >slow.log 2>&1 || rc=$?
if (( rc != 0 )) && grep -q 'JobState=CANCELLED' slow.log; then
    ok "slow job: slurm-submit-and-wait exited $rc after --timeout and cancelled it"
else
    bad "slow job: slurm-submit-and-wait exited $rc"; cat slow.log
fi

echo "$PASS passed, $FAIL failed"
(( FAIL == 0 ))
