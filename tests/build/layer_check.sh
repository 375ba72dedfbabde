#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The layer check must pass on the tree as it is, and must refuse each way of breaking the layers:
# a kernel that includes the fleet, a results file that includes <mpi.h>, an include without its
# folder. Each break is made in a copy of src/.
# Usage: layer_check.sh SOURCE_DIR LAYERS_TXT
set -euo pipefail
src=$1 edges=$2
check() { cmake -DSRC="$1" -DEDGES="$edges" -P "$src/cmake/NprbLayers.cmake" 2>&1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
check "$src/src" >/dev/null || { echo "FAIL: the layer check refuses the tree as it is"; check "$src/src"; exit 1; }
echo "ok: the tree keeps its layers"
fails=0
try_break() { # FILE LINE WANT
    rm -rf "$work/src"
    cp -r "$src/src" "$work/src"
    printf '%s\n' "$2" >>"$work/src/$1"
    local out rc=0
    out=$(check "$work/src") || rc=$?
    if ((rc != 0)) && grep -q "$3" <<<"$out"; then
        echo "ok: refused $1 + '$2'"
    else
        echo "FAIL: $1 + '$2' was not refused as '$3' (exit $rc):"; echo "$out"; fails=$((fails + 1))
    fi
}
try_break kernels/chain.c '#include "fleet/fleet.h"' "reaches layer fleet"
try_break host/topo.c '#include "plan/plan.h"' "reaches layer plan"
try_break plan/passes.c '#include "measure/experiment.h"' "reaches layer measure"
try_break results/results.c '#include <mpi.h>' "outside the layer that owns"
try_break plan/plan.c '#include <hdf5.h>' "outside the layer that owns"
try_break job/run.c '#include <mpi.h>' "outside the layer that owns"
try_break tools/merge.c '#include "topo.h"' "names no folder"
((fails == 0))
