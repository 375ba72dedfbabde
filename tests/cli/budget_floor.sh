#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# budget_floor.sh EXE OUTDIR: whether --time-budget refuses a config must not hang on how fast
# this host hands out new memory at that moment (a busy neighbour changes that rate from one
# run to the next). The same host is planned twice for each budget around the floor: live,
# where numaprobe measures the rate, and as an hwloc XML export of itself, where it measures
# nothing and takes the model's rate. Every budget must get the same exit code both ways, and a
# refusal must state the same floor; the budgets must straddle the floor (one refused, one
# accepted), or the comparison would prove nothing.
set -uo pipefail
exe=$(realpath "$1") outdir=$2
command -v lstopo-no-graphics >/dev/null || { echo "skip: no lstopo-no-graphics"; exit 77; }
work="$(mkdir -p "$outdir" && cd "$outdir" && pwd -P)/budget_floor"
rm -rf "$work" && mkdir -p "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
lstopo-no-graphics --of xml >"$work/here.xml" 2>/dev/null || fail "lstopo could not export this host"

plan() { # plan BUDGET LIVE|XML: the dry run's exit code; its output in $work/out.BUDGET.MODE
    local out="$work/out.$1.$2"
    if [ "$2" = XML ]; then
        HWLOC_XMLFILE="$work/here.xml" "$exe" -c default --dry-run --time-budget "$1" >"$out" 2>&1
    else
        "$exe" -c default --dry-run --time-budget "$1" >"$out" 2>&1
    fi
    echo $?
}
floor_of() { sed -n 's/.*alone need \(about [^(]*\) (raise.*/\1/p' "$1"; }

[ "$(plan 0.01s XML)" = 2 ] || fail "a 0.01 s budget was not refused"
grep -q "did not load it" "$work/out.0.01s.XML" && fail "hwloc did not load the export"
high=$(floor_of "$work/out.0.01s.XML" | sed -n 's/.* to \([0-9]*\) s$/\1/p')
[ -n "$high" ] || fail "no floor in whole seconds in: $(cat "$work/out.0.01s.XML")"

refused=0 accepted=0
for tenths in $(seq $((high * 10 - 30)) 5 $((high * 10 + 30))); do
    b="$((tenths / 10)).$((tenths % 10))s"
    live=$(plan "$b" LIVE) xml=$(plan "$b" XML)
    [ "$live" = "$xml" ] ||
        fail "--time-budget $b exited $live here and $xml on this host's XML (the model's rate)"
    case $live in
    0) accepted=$((accepted + 1)) ;;
    2) refused=$((refused + 1))
       [ "$(floor_of "$work/out.$b.LIVE")" = "$(floor_of "$work/out.$b.XML")" ] ||
           fail "--time-budget $b: floor '$(floor_of "$work/out.$b.LIVE")' here, '$(floor_of "$work/out.$b.XML")' by the model" ;;
    *) fail "--time-budget $b exited $live: $(tail -3 "$work/out.$b.LIVE")" ;;
    esac
done
((refused > 0 && accepted > 0)) ||
    fail "the budgets did not straddle the floor ($refused refused, $accepted accepted)"
echo "ok: the floor decided alike at any first-touch rate ($refused refused, $accepted accepted)"
