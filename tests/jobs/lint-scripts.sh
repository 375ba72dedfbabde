#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# lint-scripts.sh ROOT: the job scripts, the fuzz driver, the PBS stub and these test scripts are
# clean under shellcheck. A planted mistake must be caught (negative control). 77 without shellcheck.
set -euo pipefail
root=$1
command -v shellcheck >/dev/null || { echo "SKIP: shellcheck not installed (Debian: shellcheck)"; exit 77; }
cd "$root"
mapfile -t files < <(git ls-files jobs fuzz tests/harness/pbs tests/jobs tests/install tests/packaging packaging/completions 2>/dev/null |
    while read -r f; do
        case $f in *.sh | *.sbatch | *.lsf | *.pbs | jobs/nightly/numaprobe-nightly | jobs/epilog/* | jobs/slurm/numaprobe-healthcheck | jobs/nhc/*.nhc | tests/jobs/nightly/fake-sbatch | fuzz/run | tests/harness/pbs/qsub | tests/harness/pbs/pbs_tmrsh | packaging/completions/*) echo "$f" ;; esac
    done)
if [ ${#files[@]} -lt 10 ]; then
    echo "FAIL: found only ${#files[@]} scripts to check: ${files[*]}"
    exit 1
fi
planted=$(mktemp)
trap 'rm -f "$planted"' EXIT
# shellcheck disable=SC2016  # the planted script is meant to hold $1 unexpanded
printf '#!/bin/bash\ndir=$1\nrm -rf $dir/*\n' >"$planted"
if shellcheck "$planted" >/dev/null 2>&1; then
    echo "FAIL: negative control: shellcheck accepted an unquoted rm -rf \$dir/*"
    exit 1
fi
shellcheck --external-sources "${files[@]}"
echo "shellcheck clean: ${files[*]}"
