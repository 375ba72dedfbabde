#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# nightly-test.sh --fake --exe EXE --outdir DIR
# nightly-test.sh --slurm --exe EXE --config FILE --outdir DIR [--nights N]
# jobs/nightly/numaprobe-nightly run night after night, then its files checked: one directory
# per night holding the night's results file, history.json (docs/report.schema.json) with every
# night's run, the history report, one HOST.prom per host that promtool accepts, and the
# compare step.
#   --fake   sbatch is tests/jobs/nightly/fake-sbatch (synthetic fleets of 20 hosts): four
#            nights, the fourth with icx03's local bandwidth at 0.6, which must exit 1 and
#            name it; the first three exit 0.
#   --slurm  the local Slurm cluster (tests/harness/slurm), 2 nodes, N nights (default 3) of
#            the tiny config, each submitted with --wait; every night must exit 0 (a tolerance
#            of 1000%: figures measured on a shared machine mean nothing).
# Exit 0 pass, 1 fail, 77 when the Slurm harness cannot run here.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mode="" exe="" config="" outdir="" nights=3
while [ $# -gt 0 ]; do
    case $1 in
    --fake) mode=fake; shift ;;
    --slurm) mode=slurm; shift ;;
    --exe) exe=$(realpath "$2"); shift 2 ;;
    --config) config=$(realpath "$2"); shift 2 ;;
    --outdir) outdir=$2; shift 2 ;;
    --nights) nights=$2; shift 2 ;;
    *) echo "nightly-test.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
outdir="$outdir/nightly-$mode"
rm -rf "$outdir"
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd -P)
cd "$outdir"
export NUMAPROBE_RESULTS=$outdir/results NUMAPROBE_REPORT=$root/analysis/numaprobe-report
# numaprobe-report checks every file with this binary's numaprobe check first.
if [ -n "$exe" ]; then export NUMAPROBE_BIN=$exe; fi
fail() { echo "FAIL: $*"; exit 1; }

check_nights() { # check_nights N HOSTS...: the files of N nights, the latest night's outputs
    local n=$1 last
    shift
    mapfile -t days < <(cd results && printf '%s\n' 20??-??-?? | sort)
    [ ${#days[@]} -eq "$n" ] || fail "expected $n dated directories, found: ${days[*]}"
    for d in "${days[@]}"; do
        compgen -G "results/$d/numaprobe-*.h5" >/dev/null || fail "no results file in $d"
    done
    last=results/${days[-1]}
    [ -s "$last/history-report/history.html" ] || fail "$last/history-report/history.html"
    for h in "$@"; do
        [ -s "results/metrics/$h.prom" ] || fail "results/metrics/$h.prom missing"
        if command -v promtool >/dev/null; then
            promtool check metrics <"results/metrics/$h.prom" || fail "promtool: $h.prom"
        elif [ "${CI:-}" = true ]; then
            fail "promtool not installed (Debian package prometheus)"
        else
            echo "note: promtool not installed: $h.prom not linted"
        fi
    done
    /usr/bin/python3 - "$last/history.json" "$n" "$root/docs/report.schema.json" <<'PY'
import json, sys
import jsonschema
doc = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator(json.load(open(sys.argv[3]))).validate(doc)
if len(doc["runs"]) != int(sys.argv[2]):
    sys.exit(f"FAIL: history.json has {len(doc['runs'])} runs, want {sys.argv[2]}")
print(f"{sys.argv[1]}: {len(doc['runs'])} runs, valid")
PY
    grep -q "^compare" "$last/nightly-status.tsv" || fail "no compare step in $last"
}

case $mode in
fake)
    mkdir -p bin state
    cp "$here/nightly/fake-sbatch" bin/sbatch
    export PATH="$outdir/bin:$PATH" FAKE_STATE=$outdir/state FAKE_TESTS=$root/analysis/tests
    for i in 1 2 3 4; do
        export NUMAPROBE_DATE=2026-03-0$i FAKE_START=2026-03-0${i}T02:00:00Z FAKE_FACTORS=""
        if [ "$i" = 4 ]; then FAKE_FACTORS=icx03:bw_local:0.6; fi
        if [ "$i" -gt 1 ]; then
            NUMAPROBE_BASELINE=$(ls "$outdir"/results/2026-03-01/numaprobe-*.h5)
            export NUMAPROBE_BASELINE
        fi
        rc=0
        "$root/jobs/nightly/numaprobe-nightly" --wait >"night-$i.log" 2>&1 || rc=$?
        cat "night-$i.log"
        want=0
        if [ "$i" = 4 ]; then want=1; fi
        [ "$rc" -eq "$want" ] || fail "night $i exited $rc, want $want"
        if [ "$i" = 1 ]; then
            # compare needs a baseline: the first night becomes it.
            [ "$(wc -l <state/calls)" -eq 2 ] || fail "2 sbatch calls expected on night 1"
        fi
    done
    grep -q "dependency=afterany:" state/calls || fail "the analysis is not a dependent job"
    grep -q "icx03" results/2026-03-04/nightly-*.out || fail "night 4 does not name icx03"
    /usr/bin/python3 - results/2026-03-04/history.json <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
worse = {d["host"] for d in doc["drift"] if d["verdict"] == "worse"}
if worse != {"icx03"}:
    sys.exit(f"FAIL: drifted hosts {worse}, want icx03")
PY
    mapfile -t hosts < <(/usr/bin/python3 -c "import sys; sys.path.insert(0, '$root/analysis/tests'); import synthetic_fleet; print('\n'.join(synthetic_fleet.host_names(20)))")
    NUMAPROBE_BASELINE=x check_nights 4 "${hosts[@]}"
    ;;
slurm)
    export NPRB_NIGHTS=$nights NPRB_ROOT=$root NPRB_CONFIG=$config
    export NUMAPROBE=$exe NUMAPROBE_BIN=$exe NUMAPROBE_ARGS=--quiet
    export NUMAPROBE_SBATCH_ARGS="--nodes=2 --time=00:10:00"
    export NUMAPROBE_HISTORY_ARGS="--tolerance 1000" NUMAPROBE_COMPARE_ARGS="--threshold 1000"
    # shellcheck disable=SC2016  # expanded inside the cluster's client context
    nights_cmd='set -e
        for i in $(seq 1 "$NPRB_NIGHTS"); do
            export NUMAPROBE_DATE=2026-03-0$i NUMAPROBE_CONFIG=$NPRB_CONFIG
            if [ "$i" -gt 1 ]; then
                NUMAPROBE_BASELINE=$(ls "$NUMAPROBE_RESULTS"/2026-03-01/numaprobe-*.h5)
                export NUMAPROBE_BASELINE
            fi
            # Exit 1 is a finding: real timings of two fake hosts sharing a loaded CI machine
            # can move 10x between nights (a 1369% latency "regression" was seen). The steps and
            # files are checked below; 2 (unusable input, a step that could not run) fails.
            rc=0
            "$NPRB_ROOT/jobs/nightly/numaprobe-nightly" --wait || rc=$?
            if [ "$rc" -gt 1 ]; then echo "night $i: exit $rc"; exit 1; fi
            [ "$rc" -eq 0 ] || echo "night $i: exit 1, a finding on noisy timings: allowed here"
        done'
    rc=0
    "$root/tests/harness/slurm/with-slurm-cluster" --nodes 2 --timeout $((120 + 150 * nights)) \
        -- bash -c "$nights_cmd" || rc=$?
    if [ "$rc" -eq 77 ]; then exit 77; fi
    [ "$rc" -eq 0 ] || fail "the nights under Slurm exited $rc"
    check_nights "$nights" n1 n2
    ;;
*) echo "nightly-test.sh: --fake or --slurm" >&2; exit 2 ;;
esac
echo "PASS"
