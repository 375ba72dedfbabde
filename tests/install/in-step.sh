#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# in-step.sh NUMAPROBE NUMAPROBE_REPORT MAN_DIR REPORT_COMPLETION: the man pages (built by
# help2man) and numaprobe-report's completion name every option that --help names. numaprobe's
# own completion reads its --help at run time (from-anywhere.sh tests it).
set -euo pipefail
exe=$1 report=$2 man=$3 completion=$4
failures=0
# The options of a --help text: the leading -x/--xyz words of each option line.
options() {
    awk '/^  +-/ { for (i = 1; i <= NF; i++) { w = $i; sub(/,$/, "", w)
        if (w !~ /^-/) break; print w } }'
}
# A page's roff source, with \- as - and font changes gone.
roff_text() { sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$1"; }

for pair in "numaprobe:$exe" "numaprobe-report:$report"; do
    page=$man/${pair%%:*}.1
    if [ ! -f "$page" ]; then
        echo "FAIL: $page was not built (help2man missing? scripts/setup-deps --test)"
        failures=$((failures + 1))
        continue
    fi
    mapfile -t opts < <("${pair#*:}" --help | options)
    if [ ${#opts[@]} -lt 5 ]; then
        echo "FAIL: found only ${#opts[@]} options in ${pair#*:} --help"
        failures=$((failures + 1))
    fi
    text=$(roff_text "$page")
    for o in "${opts[@]}"; do
        if ! grep -qF -- "$o" <<<"$text"; then
            echo "FAIL: $page lacks $o (rebuild: the page is older than --help?)"
            failures=$((failures + 1))
        fi
    done
done
mapfile -t opts < <("$report" --help | options)
for o in "${opts[@]}"; do
    grep -qE -- "(^|[ \"])$o( |\")" "$completion" || {
        echo "FAIL: $completion does not complete $o"
        failures=$((failures + 1))
    }
done
# Negative control: an option no help has must be reported missing.
if grep -qF -- "--no-such-option" <<<"$(roff_text "$man/numaprobe.1")"; then
    echo "FAIL: negative control: --no-such-option found in numaprobe.1"
    failures=$((failures + 1))
fi
if [ "$failures" -ne 0 ]; then exit 1; fi
echo "man pages and completion in step with --help"
