#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# soak.sh BUILD_DIR ROUNDS REGEX [BUSY]: runs the ctest tests matching REGEX (guest tests, say
# 'vm\.mpi_ppr_numa4\.', each after its guest's boot, which makes every run of that guest)
# ROUNDS times, one at a time, with BUSY (default 2) busy loops on the host beside them, as a
# loaded CI machine has. Prints a line a test and round: passed or failed,
# its time, and how often vm-run booted a guest again; then the totals. Exit 0 when every run
# passed. Each run's output is kept in BUILD_DIR/soak/.
set -uo pipefail
build=$(cd "$1" && pwd) rounds=$2 regex=$3 busy=${4:-2}
mkdir -p "$build/soak"
loops=()
for ((i = 0; i < busy; i++)); do
    (while :; do :; done) &
    loops+=($!)
done
trap 'kill "${loops[@]}" 2>/dev/null' EXIT
# -FA: not the fixtures' setup tests, one of which empties the output directory.
mapfile -t tests < <(cd "$build" && ctest -N -R "$regex" -FA '.*' | sed -n 's/^ *Test *#[0-9]*: //p')
((${#tests[@]} > 0)) || { echo "soak.sh: no test matches '$regex'"; exit 2; }
passed=0 failed=0 reboots=0
for ((r = 1; r <= rounds; r++)); do
    for t in "${tests[@]}"; do
        log="$build/soak/$t.round$r.log"
        start=$SECONDS
        # -FS: not the outputs fixture, which would empty the output directory of the runs beside;
        # the guest's boot (vm.guest.LAYOUT.balB) runs first as the test's fixture.
        if (cd "$build" && ctest -R "^${t//./\\.}\$" -FS '^outputs$' --output-on-failure) >"$log" 2>&1; then
            verdict=passed passed=$((passed + 1))
        else
            verdict=FAILED failed=$((failed + 1))
        fi
        n=$(grep -c 'booting it once more' "$log")
        reboots=$((reboots + n))
        printf 'round %d %s: %s in %d s, %d reboot(s)\n' "$r" "$t" "$verdict" $((SECONDS - start)) "$n"
    done
done
echo "soak: $passed passed, $failed failed, $reboots guest reboot(s), $busy busy loop(s)"
((failed == 0))
