#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# job-test.sh SCHEDULER --exe EXE --config FILE --outdir DIR [--hosts N] [--script FILE]
#             [--launcher L] [--ranks-per-host R]
# Submits a job script of jobs/ unchanged to a stand-in for its scheduler, then checks the
# results: exactly one numaprobe-<jobid>.h5, valid (tests/test_run_results.py) with R ranks on each
# of N hosts, and its scheduler, job id and config recorded.
#   slurm  the local Slurm cluster (tests/harness/slurm), hosts n1..nN
#   lsf    the bsub/blaunch stub over fake hosts (tests/harness/lsf), hosts lsfhost1..N
#   pbs    the qsub/pbs_tmrsh stub over fake hosts (tests/harness/pbs), hosts pbshost1..N
#   local  jobs/local.sh, no scheduler, this host
# Exit 0 pass, 1 fail, 77 when the harness cannot run here.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
harness=$root/tests/harness
scheduler=$1
shift
exe="" config="" outdir="" hosts=2 script="" launcher="" per_host=1
while [ $# -gt 0 ]; do
    case $1 in
    --exe) exe=$(realpath "$2"); shift 2 ;;
    --config) config=$(realpath "$2"); shift 2 ;;
    --outdir) outdir=$2; shift 2 ;;
    --hosts) hosts=$2; shift 2 ;;
    --script) script=$(realpath "$2"); shift 2 ;;
    --launcher) launcher=$2; shift 2 ;;
    --ranks-per-host) per_host=$2; shift 2 ;;
    *) echo "job-test.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
tag=$scheduler-$(basename "${script:-default}")-${launcher:-auto}-$hosts
outdir="$outdir/jobs/$tag"
rm -rf "$outdir"
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd -P)
cd "$outdir"
# Parameters as the scripts document them; relative OUTDIR on purpose (taken from the
# submission directory).
export NUMAPROBE=$exe NUMAPROBE_ARGS=--quiet
rc=0
case $scheduler in
slurm)
    export NPRB_SCRIPT=${script:-$root/jobs/slurm/numaprobe.sbatch} NPRB_NODES=$hosts
    export NPRB_PER_HOST=$per_host NPRB_CONFIG=$config NPRB_OUTDIR=$outdir
    export NUMAPROBE_LAUNCHER=${launcher:-srun}
    # shellcheck disable=SC2016  # expanded inside the cluster's client context
    submit='"$SLURM_HARNESS_DIR"/slurm-submit-and-wait --dir "$SLURM_CLUSTER_DIR" --timeout 240 -- \
        -N "$NPRB_NODES" --ntasks-per-node="$NPRB_PER_HOST" --chdir "$NPRB_OUTDIR" \
        -o "$NPRB_OUTDIR/job-%j.out" "$NPRB_SCRIPT" "$NPRB_CONFIG" out'
    "$harness/slurm/with-slurm-cluster" --nodes "$hosts" --timeout 300 -- bash -c "$submit" || rc=$?
    host_prefix=n scheduler_name=slurm
    ;;
lsf)
    if [ -n "$launcher" ]; then export NUMAPROBE_LAUNCHER=$launcher; fi
    NUMAPROBE_CONFIG=$config NUMAPROBE_OUTDIR=out LSF_STUB_TIMEOUT=240 \
        "$harness/lsf/bsub" -n "$hosts" <"${script:-$root/jobs/lsf/numaprobe.lsf}" || rc=$?
    cat numaprobe.*.out 2>/dev/null || true
    host_prefix=lsfhost scheduler_name=lsf
    ;;
pbs)
    vars=NUMAPROBE,NUMAPROBE_ARGS,NUMAPROBE_CONFIG=$config,NUMAPROBE_OUTDIR=out
    if [ -n "$launcher" ]; then vars+=",NUMAPROBE_LAUNCHER=$launcher"; fi
    # PBS passes only what -v names: the sanitizer settings of the ASan test pass too.
    for v in ASAN_OPTIONS UBSAN_OPTIONS; do
        if [ -n "${!v:-}" ]; then vars+=",$v"; fi
    done
    PBS_STUB_TIMEOUT=240 "$harness/pbs/qsub" -l "select=$hosts:ncpus=2:mpiprocs=1:ompthreads=2" \
        -v "$vars" "${script:-$root/jobs/pbs/numaprobe.pbs}" || rc=$?
    cat numaprobe.o* 2>/dev/null || true
    host_prefix=pbshost scheduler_name=pbs
    ;;
local)
    hosts=1
    "${script:-$root/jobs/local.sh}" "$config" out || rc=$?
    host_prefix="" scheduler_name=none
    ;;
*) echo "job-test.sh: unknown scheduler $scheduler" >&2; exit 2 ;;
esac
if [ "$rc" -eq 77 ]; then exit 77; fi
if [ "$rc" -ne 0 ]; then echo "FAIL: the job exited $rc"; exit 1; fi

shopt -s nullglob
files=(out/numaprobe-*.h5)
if [ ${#files[@]} -ne 1 ]; then
    echo "FAIL: expected one numaprobe-<jobid>.h5 in $outdir/out, found: ${files[*]:-none}"
    exit 1
fi
file=${files[0]}
host_ranks=()
if [ -n "$host_prefix" ]; then
    for i in $(seq 1 "$hosts"); do host_ranks+=("$host_prefix$i=$per_host"); done
else
    host_ranks=("$(hostname)=1")
fi
/usr/bin/python3 -m pytest -q -rs -p no:cacheprovider "$root/tests/test_run_results.py" \
    --exe "$exe" --results "$file" --ranks $((hosts * per_host)) --hosts "$hosts" \
    --host-ranks "${host_ranks[@]}"
# The file is named after the job, and says which scheduler and job and config made it.
/usr/bin/python3 - "$file" "$scheduler_name" "$config" <<'PY'
import re, sys, h5py
path, scheduler, config = sys.argv[1:]
attrs = h5py.File(path, "r").attrs
text = lambda k: attrs[k].decode() if isinstance(attrs[k], bytes) else str(attrs[k])
name_id = re.fullmatch(r".*numaprobe-(.+)\.h5", path).group(1)
problems = []
if text("scheduler") != scheduler:
    problems.append(f"scheduler {text('scheduler')!r}, want {scheduler!r}")
if scheduler != "none" and text("job_id").split(".")[0] != name_id:
    problems.append(f"job_id {text('job_id')!r} but the file is named {name_id!r}")
if text("config_source") != config:
    problems.append(f"config_source {text('config_source')!r}, want {config!r}")
if problems:
    sys.exit("FAIL: " + "; ".join(problems))
print(f"{path}: scheduler {scheduler}, job {text('job_id')}, config {config}")
PY
