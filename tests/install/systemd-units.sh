#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# systemd-units.sh PREFIX: the nightly check's systemd service and timer as `cmake --install`
# wrote them into PREFIX pass `systemd-analyze verify` without a word, start the installed
# numaprobe-nightly with the prefix's bin/ on PATH, and fire every night. Two controls first: a
# plain unit must pass and a planted error must fail, or verify cannot judge here (exit 77, with
# the reason; in CI, where systemd is a test dependency, a missing tool fails).
set -euo pipefail
p=$(realpath "$1")
dir="$p/share/numaprobe/jobs/nightly"
skip() { echo "SKIP: $*"; exit 77; }
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

if ! command -v systemd-analyze >/dev/null; then
    if [ "${CI:-}" = true ]; then echo "FAIL: no systemd-analyze (tests/deps/install.txt)"; exit 1; fi
    skip "no systemd-analyze (Debian: systemd)"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/numaprobe-units.XXXXXX")
trap 'rm -rf "$work"' EXIT
printf '[Unit]\nDescription=control\n[Service]\nType=oneshot\nExecStart=/bin/true\n' \
    >"$work/control.service"
out=$(systemd-analyze verify "$work/control.service" 2>&1) ||
    skip "systemd-analyze verify refuses a plain unit here: $out"
sed 's|^ExecStart=.*|ExecStart=/no/such/numaprobe-nightly|' "$dir/numaprobe-nightly.service" \
    >"$work/planted.service"
if systemd-analyze verify "$work/planted.service" >/dev/null 2>&1; then
    skip "systemd-analyze verify passes a service whose ExecStart is missing: it cannot judge here"
fi

for unit in numaprobe-nightly.service numaprobe-nightly.timer; do
    [ -f "$dir/$unit" ] || fail "$dir/$unit is not installed"
done
[ ! -e "$dir/numaprobe-nightly.service.in" ] || fail "the service's template was installed"
if out=$(cd "$dir" && systemd-analyze verify numaprobe-nightly.service numaprobe-nightly.timer 2>&1); then
    [ -z "$out" ] || fail "systemd-analyze verify warns: $out"
else
    fail "systemd-analyze verify refuses the units: $out"
fi
service=$(cat "$dir/numaprobe-nightly.service")
grep -qx "ExecStart=$dir/numaprobe-nightly" <<<"$service" ||
    fail "the service does not start $dir/numaprobe-nightly"
[ -x "$dir/numaprobe-nightly" ] || fail "$dir/numaprobe-nightly is not executable"
grep -qx "Environment=PATH=$p/bin:.*" <<<"$service" || fail "the service's PATH lacks $p/bin first"
grep -qx "EnvironmentFile=-/etc/numaprobe/nightly.env" <<<"$service" ||
    fail "the service does not read /etc/numaprobe/nightly.env"
grep -q "@" <<<"$(grep -v '^#' "$dir/numaprobe-nightly.service")" &&
    fail "the service holds an unsubstituted @VARIABLE@"
# Every night at 01:30, as the cron recipe: the next two elapses are a day apart.
calendar=$(sed -n 's/^OnCalendar=//p' "$dir/numaprobe-nightly.timer")
next=$(systemd-analyze calendar --iterations=2 "$calendar" 2>&1) || fail "OnCalendar=$calendar: $next"
grep -q "01:30:00" <<<"$next" || fail "OnCalendar=$calendar does not fire at 01:30: $next"
grep -qx "WantedBy=timers.target" "$dir/numaprobe-nightly.timer" ||
    fail "the timer is not enabled into timers.target"

if [ "$failures" -ne 0 ]; then exit 1; fi
echo "the nightly service and timer pass systemd-analyze verify and start $dir/numaprobe-nightly"
