#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# expect.sh RC PATTERN [--forbid PATTERN] [--absent FILE] -- COMMAND...
# Runs COMMAND, and passes when it exits with RC, its output (stdout + stderr) matches the
# extended regex PATTERN, does not match the --forbid pattern, and FILE does not exist afterwards.
set -u
want_rc=$1 pattern=$2
shift 2
forbid="" absent=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    case $1 in
    --forbid) forbid=$2; shift 2 ;;
    --absent) absent=$2; shift 2 ;;
    *) echo "expect.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
shift
out=$("$@" 2>&1)
rc=$?
fail=0
if [ "$rc" -ne "$want_rc" ]; then
    echo "FAIL: exit code $rc, expected $want_rc"; fail=1
fi
if ! grep -Eq -- "$pattern" <<<"$out"; then
    echo "FAIL: output does not match: $pattern"; fail=1
fi
if [ -n "$forbid" ] && grep -Eq -- "$forbid" <<<"$out"; then
    echo "FAIL: output matches forbidden: $forbid"; fail=1
fi
if [ -n "$absent" ] && [ -e "$absent" ]; then
    echo "FAIL: $absent exists"; fail=1
fi
if [ $fail -ne 0 ]; then
    echo "--- command: $*"; echo "--- output:"; echo "$out"
fi
exit $fail
