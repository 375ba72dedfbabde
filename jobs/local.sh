#!/bin/bash
# numaprobe on this host, no scheduler: one rank (an MPI singleton), one results file.
#
#   jobs/local.sh [CONFIG] [OUTDIR]
#
# CONFIG  numaprobe config (default: configs/default.yaml, or $NUMAPROBE_CONFIG)
# OUTDIR  where numaprobe-<host>-<UTC time>.h5 goes (default: results, or $NUMAPROBE_OUTDIR)
# Environment: NUMAPROBE (binary; default: numaprobe on PATH, else build/release/src/numaprobe).
# Extra numaprobe options go in NUMAPROBE_ARGS (e.g. "--set bandwidth_matrix.size=256MiB").
# Exit status: numaprobe's (0 ok, 2 config error, ...; numaprobe --help lists them).
set -euo pipefail

config=${1:-${NUMAPROBE_CONFIG:-configs/default.yaml}}
outdir=${2:-${NUMAPROBE_OUTDIR:-results}}
exe=${NUMAPROBE:-$(command -v numaprobe || echo build/release/src/numaprobe)}
read -r -a extra <<<"${NUMAPROBE_ARGS:-}"
mkdir -p "$outdir"
out="$outdir/numaprobe-$(hostname -s)-$(date -u +%Y%m%dT%H%M%SZ).h5"

# numaprobe starts one thread per core of the node it measures and pins it itself:
# OMP_PLACES/OMP_PROC_BIND would bind those threads again, against the pins.
unset OMP_PLACES OMP_PROC_BIND
export OMP_DYNAMIC=false OMP_NUM_THREADS
OMP_NUM_THREADS=$(nproc --all)

echo "numaprobe on $(hostname -s): config $config, results $out"
exec "$exe" -c "$config" -o "$out" "${extra[@]}"
