#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# run-case.sh SCRATCH RC FRAGMENT -- COMMAND...: one case of cases.txt. Makes SCRATCH afresh with
# the files the cases aim at (a results file that exists, a directory, a symbolic link to
# nothing, reference files), runs COMMAND there, and passes when it exits with RC and its output
# holds FRAGMENT literally.
set -u
scratch=$1 rc=$2 fragment=$3
shift 4
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$scratch"
mkdir -p "$scratch/adir" || exit 1
cd "$scratch" || exit 1
echo "not HDF5" >existing.h5
ln -s nowhere.h5 dangling.h5
cp "$here"/refs/* . 2>/dev/null
out=$("$@" 2>&1)
got=$?
fail=0
if [ "$got" -ne "$rc" ]; then
    echo "FAIL: exit code $got, expected $rc"; fail=1
fi
if ! grep -Fq -- "$fragment" <<<"$out"; then
    echo "FAIL: output lacks: $fragment"; fail=1
fi
if [ "$fail" -ne 0 ]; then
    echo "--- command: $*"; echo "--- output:"; echo "$out"
fi
exit "$fail"
