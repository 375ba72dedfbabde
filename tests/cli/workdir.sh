# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=bash disable=SC2154  # work: the sourcing script's
# Sourced by the test scripts that run commands in a directory of their own, $work (set before):
# the directory made afresh and entered, a tmpfs a test mounts at $mnt unmounted at exit, and the
# checks of a command's exit code and of what it says (its output goes to $work.log).
mnt=""
cleanup() { [ -z "$mnt" ] || umount "$mnt" 2>/dev/null; }
trap cleanup EXIT
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

fail() { echo "FAIL: $*"; echo "--- output:"; tail -40 "$work.log" 2>/dev/null; exit 1; }
# run WANT_RC CMD...: runs CMD into $work.log and checks the exit code
run() {
    local want=$1
    shift
    "$@" >"$work.log" 2>&1
    rc=$?
    echo "exit $rc: $*" | cut -c1-200
    [ "$rc" -eq "$want" ] || fail "exit code $rc, expected $want"
}
says() { grep -Eq -- "$1" "$work.log" || fail "output does not say: $1"; }
