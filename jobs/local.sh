#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# numaprobe on this host, no scheduler: one rank (an MPI singleton), one results file.
#
#   jobs/local.sh [CONFIG] [OUTDIR]
#
# CONFIG  numaprobe config: a shipped one by name (default, quick, full, textbook, health) or a file
#         (default: default, or $NUMAPROBE_CONFIG)
# OUTDIR  where numaprobe-<host>-<UTC time>.h5 goes (default: results, or $NUMAPROBE_OUTDIR)
# Environment: NUMAPROBE (binary; default: numaprobe on PATH, after `module load numaprobe`,
#              else build/release/src/numaprobe of the checkout run from).
# Extra numaprobe options go in NUMAPROBE_ARGS (e.g. "--set bandwidth_matrix.size=256MiB");
# NUMAPROBE_HOST_TEXTFILE_DIR: node_exporter's textfile directory here (--textfile-dir).
# Exit status: numaprobe's (0 ok, 2 config error, ...; numaprobe --help lists them).
set -euo pipefail

config=${1:-${NUMAPROBE_CONFIG:-default}}
outdir=${2:-${NUMAPROBE_OUTDIR:-results}}
# The program: $NUMAPROBE, else numaprobe on PATH (after `module load numaprobe`), else the build
# of the checkout this job was submitted from.
exe=${NUMAPROBE:-$(command -v numaprobe || echo build/release/src/numaprobe)}
if [ ! -x "$exe" ]; then
    echo "numaprobe not found (tried $exe): module load numaprobe, put it on PATH," \
        "or set NUMAPROBE" >&2
    exit 2
fi
read -r -a extra <<<"${NUMAPROBE_ARGS:-}"
# Each host's own figures for the node_exporter on it (jobs/README.md, "Prometheus").
if [ -n "${NUMAPROBE_HOST_TEXTFILE_DIR:-}" ]; then
    extra+=(--textfile-dir "$NUMAPROBE_HOST_TEXTFILE_DIR")
fi
mkdir -p "$outdir"
out="$outdir/numaprobe-$(hostname -s)-$(date -u +%Y%m%dT%H%M%SZ).h5"

# numaprobe starts one thread per core of the node it measures and pins it itself:
# OMP_PLACES/OMP_PROC_BIND would bind those threads again, against the pins.
unset OMP_PLACES OMP_PROC_BIND
export OMP_DYNAMIC=false OMP_NUM_THREADS
OMP_NUM_THREADS=$(nproc --all)

echo "numaprobe on $(hostname -s): config $config, results $out"
# After the run, however it ended (it failed, the OOM killer took it): numaprobe restore puts back
# a setting that a numaprobe killed by SIGKILL left changed. Hence no exec, which would leave no
# shell to run the trap; the exit status stays numaprobe's, whatever restore says.
trap '"$exe" restore || echo "numaprobe restore failed (exit $?)" >&2' EXIT
"$exe" -c "$config" -o "$out" "${extra[@]}"
