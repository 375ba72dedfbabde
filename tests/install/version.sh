#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# version.sh NUMAPROBE NUMAPROBE_REPORT VERSION: --version carries the build facts. numaprobe:
# version, git revision and schema on the first line (its shape is what scripts read), then the
# MPI library, HDF5, hwloc, libnuma, libyaml and jansson versions, the compiler and the SIMD
# paths compiled in.
# numaprobe-report: the project's version (analysis/numaprobe_analysis/version.py must follow
# CMakeLists.txt) and the schema major it reads.
set -euo pipefail
exe=$1 report=$2 version=$3
out=$("$exe" --version)
echo "$out"
failures=0
expect() {
    grep -Eq -- "$1" <<<"$out" || { echo "FAIL: no line matches $1"; failures=$((failures + 1)); }
}
v='[0-9]+\.[0-9]+(\.[0-9]+)?'
[ "$(head -1 <<<"$out" | grep -Ec "^numaprobe $version \(.+\), results schema $v$")" -eq 1 ] ||
    { echo "FAIL: first line: $(head -1 <<<"$out")"; failures=$((failures + 1)); }
expect "^MPI: +.*[0-9].* \(MPI $v\)$"
expect "^HDF5: +$v \((parallel|serial); built with $v\)$"
expect "^hwloc: +$v "
expect "^libnuma: +$v"
expect "^libyaml: +$v "
expect "^jansson: +$v \(built with $v\)$"
expect "^compiler: +[A-Za-z]+ $v"
expect "^SIMD: +avx512f avx2 sse2 compiled in; this CPU runs (avx512f|avx2|sse2)$"
out=$("$report" --version)
echo "$out"
expect "^numaprobe-report $version, reads results schema [0-9]+\.x$"
if [ "$failures" -ne 0 ]; then exit 1; fi
