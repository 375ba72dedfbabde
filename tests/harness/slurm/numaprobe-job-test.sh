#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# numaprobe-job-test.sh --exe NUMAPROBE --config FILE --outdir DIR [--nodes N] [--launcher L]
# Submits jobs/slurm/numaprobe.sbatch to a fresh local Slurm cluster (with-slurm-cluster) with
# -N N --ntasks-per-node=1, waits for it, and checks the results file: one row per node.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
exe="" config="" outdir="" nodes=2 launcher=srun
while [ $# -gt 0 ]; do
    case $1 in
    --exe) exe=$(realpath "$2"); shift 2 ;;
    --config) config=$(realpath "$2"); shift 2 ;;
    --outdir) outdir=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --launcher) launcher=$2; shift 2 ;;
    *) echo "numaprobe-job-test.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
outdir="$outdir/slurm-$launcher-$nodes"
rm -rf "$outdir"
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd -P)

# Runs inside the cluster's client context (SLURM_CONF etc. set by with-slurm-cluster). Our
# variables carry a prefix: the harness uses plain names such as NODES itself.
submit='"$SLURM_HARNESS_DIR"/slurm-submit-and-wait --dir "$SLURM_CLUSTER_DIR" --timeout 240 -- \
    -N "$NPRB_NODES" --ntasks-per-node=1 --chdir "$NPRB_OUTDIR" -o "$NPRB_OUTDIR/job-%j.out" \
    --export=ALL,NUMAPROBE="$NPRB_EXE",NUMAPROBE_LAUNCHER="$NPRB_LAUNCHER" \
    "$NPRB_SCRIPT" "$NPRB_CONFIG" "$NPRB_OUTDIR"'
NPRB_NODES=$nodes NPRB_OUTDIR=$outdir NPRB_EXE=$exe NPRB_LAUNCHER=$launcher NPRB_CONFIG=$config \
    NPRB_SCRIPT="$root/jobs/slurm/numaprobe.sbatch" \
    "$here/with-slurm-cluster" --nodes "$nodes" --timeout 300 -- bash -c "$submit"

files=("$outdir"/numaprobe-*.h5)
if [ ${#files[@]} -ne 1 ] || [ ! -f "${files[0]}" ]; then
    echo "FAIL: expected one numaprobe-<jobid>.h5 in $outdir, found: ${files[*]}"
    exit 1
fi
exec /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider "$root/tests/test_run_results.py" \
    --exe "$exe" --results "${files[0]}" --ranks "$nodes" --hosts "$nodes" \
    $(for i in $(seq 1 "$nodes"); do printf 'n%d=1 ' "$i"; done | sed 's/^/--host-ranks /')
