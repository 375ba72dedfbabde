#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# slurm-installed.sh PREFIX [NODES]: the installed Slurm job script, submitted as a user would
# after `module load numaprobe`: from an empty directory outside any checkout, with only the
# installation's bin/ before the system's on PATH, a config by name, no NUMAPROBE variable. On
# the local Slurm cluster (tests/harness/slurm). The job must write one valid file into the
# submission directory's results/, from the installed config.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
prefix=$(realpath "$1") nodes=${2:-2}
submit=$(mktemp -d "${TMPDIR:-/tmp}/numaprobe-submit.XXXXXX")
trap 'rm -rf "$submit"' EXIT

# The quick config by name, made tiny with --set (NUMAPROBE_ARGS): what matters here is where
# the program and its config come from, not the measurement.
tiny="--quiet --only latency_matrix,bandwidth_matrix --set latency_matrix.size=8MiB"
tiny+=" --set bandwidth_matrix.size=16MiB"
# Runs inside the cluster's client context (SLURM_CONF etc. set by with-slurm-cluster).
# shellcheck disable=SC2016  # expanded there
job='cd "$NPRB_SUBMIT" && PATH="$NPRB_PREFIX/bin:/usr/bin:/bin:/usr/sbin:/sbin" \
    "$SLURM_HARNESS_DIR"/slurm-submit-and-wait --dir "$SLURM_CLUSTER_DIR" --timeout 240 -- \
    -N "$NPRB_NODES" "$NPRB_PREFIX/share/numaprobe/jobs/slurm/numaprobe.sbatch" quick'
rc=0
env -u NUMAPROBE -u NUMAPROBE_CONFIG -u NUMAPROBE_OUTDIR -u NUMAPROBE_LAUNCHER \
    NUMAPROBE_ARGS="$tiny" NPRB_SUBMIT="$submit" NPRB_PREFIX="$prefix" NPRB_NODES="$nodes" \
    "$root/tests/harness/slurm/with-slurm-cluster" --nodes "$nodes" --timeout 300 -- \
    bash -c "$job" || rc=$?
if [ "$rc" -eq 77 ]; then exit 77; fi
cat "$submit"/numaprobe-*.out 2>/dev/null || true
if [ "$rc" -ne 0 ]; then echo "FAIL: the job exited $rc"; exit 1; fi

shopt -s nullglob
files=("$submit"/results/numaprobe-*.h5)
if [ ${#files[@]} -ne 1 ]; then
    echo "FAIL: expected one numaprobe-<jobid>.h5 in $submit/results, found: ${files[*]:-none}"
    exit 1
fi
hosts=()
for i in $(seq 1 "$nodes"); do hosts+=("n$i=1"); done
/usr/bin/python3 -m pytest -q -rs -p no:cacheprovider "$root/tests/test_run_results.py" \
    --exe "$prefix/bin/numaprobe" --results "${files[0]}" --ranks "$nodes" --hosts "$nodes" \
    --host-ranks "${hosts[@]}"
# The config came from the installation, found by name.
/usr/bin/python3 - "${files[0]}" "$prefix" <<'PY'
import os, sys, h5py
path, prefix = sys.argv[1:]
source = h5py.File(path, "r").attrs["config_source"]
source = source.decode() if isinstance(source, bytes) else str(source)
want = os.path.join(prefix, "share/numaprobe/configs/quick.yaml")
if os.path.realpath(source) != want:
    sys.exit(f"FAIL: config_source {source!r}, want the installed {want}")
print(f"{path}: config {source}")
PY
