#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# lmod-module.sh PREFIX: the example modulefile (packaging/modules) loaded with Lmod puts the
# installation's numaprobe on PATH and its pages on MANPATH, and `module unload` takes them off.
# 77 without Lmod.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
prefix=$(realpath "$1")
init=/usr/share/lmod/lmod/init/bash
[ -f "$init" ] || { echo "SKIP: Lmod is not installed (Debian: lmod)"; exit 77; }
export NUMAPROBE_MODULE_ROOT=$prefix PATH=/usr/bin:/bin MANPATH=""
# shellcheck source=/dev/null
source "$init"
module use "$here/../../packaging/modules"
module load numaprobe
fail=0
[ "$(command -v numaprobe)" = "$prefix/bin/numaprobe" ] || { echo "FAIL: numaprobe is $(command -v numaprobe)"; fail=1; }
[[ $MANPATH == "$prefix/share/man"* ]] || { echo "FAIL: MANPATH is $MANPATH"; fail=1; }
numaprobe --version | head -1 || fail=1
[ "${NUMAPROBE_ROOT:-}" = "$prefix" ] || { echo "FAIL: NUMAPROBE_ROOT is ${NUMAPROBE_ROOT:-unset}"; fail=1; }
module unload numaprobe
# Another numaprobe (a system package) may stay on PATH; the installation's must not.
if [ "$(command -v numaprobe)" = "$prefix/bin/numaprobe" ]; then
    echo "FAIL: $prefix/bin/numaprobe still on PATH after unload"; fail=1
fi
[[ :$PATH: != *":$prefix/bin:"* ]] || { echo "FAIL: PATH keeps $prefix/bin: $PATH"; fail=1; }
exit $fail
