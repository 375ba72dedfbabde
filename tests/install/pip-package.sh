#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# pip-package.sh PYTHON SOURCE_DIR WORK VERSION RESULTS NUMAPROBE: analysis/ is an installable
# package. pip builds it offline (Debian's setuptools, no build isolation, no index) from a copy of
# analysis/ (setuptools builds in the source directory) into WORK/target; the numaprobe-report
# console script it installs there then reports VERSION and reads RESULTS from an empty directory
# with only WORK/target on PYTHONPATH. Skips (77) without them.
set -euo pipefail
python=$1 src=$2 work=$3 version=$4 results=$5 numaprobe=$6
if ! "$python" -c 'import setuptools, wheel, pip' 2>/dev/null; then
    echo "SKIP: $python lacks setuptools, wheel or pip (Debian: python3-setuptools python3-wheel python3-pip)"
    exit 77
fi
fail() {
    echo "FAIL: $*"
    exit 1
}
rm -rf "$work"
mkdir -p "$work/src" "$work/empty"
cp -r "$src/analysis/pyproject.toml" "$src/analysis/numaprobe_analysis" "$work/src/"
PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1 \
    "$python" -m pip install --no-build-isolation --no-deps --no-cache-dir \
    --root-user-action=ignore --target "$work/target" "$work/src"

script=$work/target/bin/numaprobe-report
[ -x "$script" ] || fail "no console script $script"
meta=$work/target/numaprobe_analysis-$version.dist-info
[ -d "$meta" ] || fail "no $meta: the package's version is not $version"
grep -qx 'numaprobe-report = numaprobe_analysis.cli:main' "$meta/entry_points.txt" ||
    fail "entry point: $(cat "$meta/entry_points.txt")"

cd "$work/empty"
export PYTHONPATH=$work/target NUMAPROBE_BIN=$numaprobe
out=$("$script" --version 2>&1) || fail "numaprobe-report --version exited $?: $out"
echo "$out"
grep -Eq "^numaprobe-report $version, reads results schema [0-9]+\.x$" <<<"$out" ||
    fail "numaprobe-report --version: $out"
"$script" --no-report "$results" >report.log 2>&1 || { rc=$?; cat report.log; fail "report exited $rc"; }
grep -q "Local memory per NUMA node" report.log || { cat report.log; fail "no tables"; }
echo "ok: pip installed numaprobe_analysis $version; its numaprobe-report read $results"
