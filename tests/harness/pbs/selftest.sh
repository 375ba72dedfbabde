#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# selftest.sh: prove the PBS stub (qsub, pbs_tmrsh) gives a job what PBS Pro gives it.
#
# Checks: 1. PBS_* variables, NCPUS/OMP_NUM_THREADS, the node file (select=3:mpiprocs=2 ->
# 6 lines, 3 hosts), the job starts in $HOME on pbshost1; 2. without -V only -v variables pass,
# with -V everything does; 3. command line beats #PBS (place=pack: one host); 4. the job's exit
# status is qsub's; 5. pbs_tmrsh reaches a job host and refuses another; 6. walltime kills (143).
# Prints PASS/FAIL lines and "N passed, N failed"; exit 0, 1, or 77 without namespaces.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/pbs-selftest.XXXXXX")
trap 'rm -rf -- "$WORK"' EXIT
cd "$WORK"
PASS=0 FAIL=0
ok() { echo "selftest: PASS: $*"; PASS=$((PASS + 1)); }
bad() { echo "selftest: FAIL: $*"; FAIL=$((FAIL + 1)); sed 's/^/  | /' "$OUT" 2>/dev/null || true; }
has() { grep -qxF -- "$1" "$OUT"; }

cat >job.sh <<'JOB'
#!/bin/bash
#PBS -N selftest
#PBS -l select=3:ncpus=4:mpiprocs=2:ompthreads=4
#PBS -l place=scatter:excl
echo "HOST $(hostname) PWD $PWD"
env | grep -E '^(PBS_|NCPUS=|OMP_NUM_THREADS=|SECRET=|PASSED=)' | sort | sed 's/^/ENV /'
sed 's/^/NODE /' "$PBS_NODEFILE"
pbs_tmrsh pbshost3 hostname | sed 's/^/TMRSH /'
pbs_tmrsh pbshost9 hostname 2>&1 | sed 's/^/TMRSH9 /' || true
exit "${EXIT_WITH:-0}"
JOB

# submit OUT [qsub args]: sets RC and OUT (the job's output file)
submit() {
    OUT=$WORK/$1
    shift
    RC=0
    "$HERE/qsub" -o "$OUT" -j oe "$@" >"$OUT.id" 2>"$OUT.err" || RC=$?
    if [[ $RC == 77 ]]; then echo "selftest: SKIP: namespaces" >&2; cat "$OUT.err" >&2; exit 77; fi
}

SECRET=hidden PASSED=yes submit j1 -v PASSED,EXIT_WITH=0 job.sh
id=$(cat "$WORK/j1.id")
want=("HOST pbshost1 PWD ${HOME:-/}" "ENV PBS_JOBID=$id" "ENV PBS_JOBNAME=selftest"
    "ENV PBS_O_WORKDIR=$WORK" "ENV PBS_ENVIRONMENT=PBS_BATCH" "ENV NCPUS=4" "ENV OMP_NUM_THREADS=4"
    "ENV PASSED=yes" "TMRSH pbshost3")
missing=""
for w in "${want[@]}"; do has "$w" || missing+=" [$w]"; done
nodes=$(grep '^NODE ' "$OUT" | tr '\n' ' ')
if [[ $RC == 0 && -z $missing && $nodes == "NODE pbshost1 NODE pbshost1 NODE pbshost2 NODE pbshost2 NODE pbshost3 NODE pbshost3 " ]]; then
    ok "job $id: PBS_* environment, node file, batch host, start directory"
else bad "job 1 (exit $RC): missing$missing; nodes: $nodes"; fi
if ! grep -q '^ENV SECRET=' "$OUT"; then ok "without -V the submitter's variables stay behind"
else bad "SECRET reached the job without -V"; fi
if grep -q "^TMRSH9 pbs_tmrsh: host 'pbshost9' is not part of job" "$OUT"; then
    ok "pbs_tmrsh refuses a host outside the job"
else bad "pbs_tmrsh reached pbshost9"; fi

SECRET=shown submit j2 -V -l place=pack job.sh
if [[ $RC == 0 ]] && has "ENV SECRET=shown" && [[ $(grep -c '^NODE pbshost1$' "$OUT") == 6 ]]; then
    ok "-V passes everything; command-line place=pack beats #PBS scatter"
else bad "job 2 (exit $RC)"; fi

submit j3 -v EXIT_WITH=5 job.sh
if [[ $RC == 5 ]]; then ok "job exit 5 -> qsub exit 5"; else bad "job 3: qsub exit $RC, want 5"; fi

printf '#!/bin/sh\nsleep 30\n' >slow.sh
submit j4 -l walltime=00:00:01 slow.sh
if [[ $RC == 143 ]]; then ok "walltime 1 s: killed, qsub exit 143"; else bad "job 4: exit $RC, want 143"; fi

echo "$PASS passed, $FAIL failed"
[[ $FAIL == 0 ]]
