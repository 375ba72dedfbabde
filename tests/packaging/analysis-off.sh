#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# analysis-off.sh CMAKE SOURCE_DIR BUILD_DIR OUTDIR: a build configured with -DNPRB_ANALYSIS=OFF
# (Spack's ~analysis) installs nothing of numaprobe-report (command, package, page, completion)
# and its .deb and .rpm name none of the analysis's Python packages; the build at BUILD_DIR
# (NPRB_ANALYSIS on) is the control that installs them, so the check can see what it looks for.
# Configures only: nothing is compiled.
set -euo pipefail
cmake=$1 src=$2 build=$3 out=$4
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# What each build's install scripts and package config name of the analysis.
analysis_in() {
    find "$1" -name cmake_install.cmake -not -path "*/_CPack_Packages/*" -print0 |
        { xargs -0 grep -ho "numaprobe-report[^\"/ ]*\|numaprobe_analysis" || true; } | sort -u
}
deps_in() { sed -n 's/^set(CPACK_\(DEBIAN\|RPM\)_PACKAGE_\([A-Z]*\) "\(.*\)")$/\1 \2: \3/p' "$1/CPackConfig.cmake"; }

rm -rf "$out"
"$cmake" -S "$src" -B "$out" -DNPRB_ANALYSIS=OFF -DNPRB_BUILD_TESTS=OFF >"$out.log" 2>&1 ||
    { rc=$?; cat "$out.log"; echo "FAIL: configuring with -DNPRB_ANALYSIS=OFF exited $rc"; exit 1; }
[ -n "$(analysis_in "$build")" ] || fail "the control build ($build) installs no numaprobe-report"
grep -q "python3-h5py" <<<"$(deps_in "$build")" || fail "the control build's .deb lacks python3-h5py"
off=$(analysis_in "$out")
[ -z "$off" ] || fail "-DNPRB_ANALYSIS=OFF still installs: $off"
if grep -Eq "python3" <<<"$(deps_in "$out")"; then
    fail "-DNPRB_ANALYSIS=OFF still depends on Python: $(deps_in "$out" | grep python3)"
fi
grep -q "NPRB_ANALYSIS is OFF: no numaprobe-report" "$out.log" || fail "configure did not say so"
rm -rf "$out" "$out.log"
if [ "$failures" -ne 0 ]; then exit 1; fi
echo "-DNPRB_ANALYSIS=OFF installs the MPI program alone, and its packages need no Python"
