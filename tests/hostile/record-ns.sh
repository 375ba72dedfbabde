#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# record-ns.sh [SETUP...] [EXPECT...] -- COMMAND...: runs COMMAND (numaprobe restore, a start)
# against a balancing record laid out as SETUP says, in a private mount namespace: a tmpfs over
# /run and a file of its own bound over /proc/sys/kernel/numa_balancing, so that this machine's
# setting and record are never read or written. Passes COMMAND's output and exit code through,
# then prints the setting and the record as COMMAND left them; exits 99 when they are not what
# EXPECT says (so the case fails whatever its exit code).
#
# SETUP:  --setting V|full      the setting's value before (default 0); full: /dev/full, whose
#                               writes fail with ENOSPC and whose reads give no number
#         --record FILE         records/FILE as the record; @LIVE@ in it becomes "PID START" of a
#                               process that lives while COMMAND runs, @DEAD@ one that is gone
#         --dir-mode M, --dir-owner U, --record-mode M, --record-owner U
#         --lock-link           the lock a symbolic link to a file of its own (must stay untouched)
#         --tmp-link            the record's temporary name a symbolic link to a file of its own
#         --state-link          the record itself a symbolic link to a file holding it
#         --hold-lock           another process holds the lock while COMMAND runs
#         --umask M             COMMAND's umask
#         --as-user             COMMAND runs as nobody (setpriv)
# EXPECT: --expect-setting V    the setting afterwards
#         --expect-record kept|gone
#         --expect-mode PATH=M  the mode of /run/PATH afterwards
#         --expect-victim-intact  the file a planted link pointed at is unchanged
# Exit 77 (skipped) without root or mount namespaces.
set -u
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${NPRB_RECORD_NS:-}" ]; then
    [ "$(id -u)" = 0 ] || { echo "record-ns: needs root (mount namespaces)"; exit 77; }
    unshare -m true 2>/dev/null || { echo "record-ns: no mount namespaces here"; exit 77; }
    NPRB_RECORD_NS=1 exec unshare -m --propagation private -- "$0" "$@"
fi

setting=0 record="" dir_mode="" dir_owner="" rec_mode="" rec_owner="" lock_link=0 tmp_link=0 state_link=0
hold=0 mask="" as_user=0 want_setting="" want_record="" victim_check=0
want_modes=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
    case $1 in
    --setting) setting=$2; shift 2 ;;
    --record) record=$2; shift 2 ;;
    --dir-mode) dir_mode=$2; shift 2 ;;
    --dir-owner) dir_owner=$2; shift 2 ;;
    --record-mode) rec_mode=$2; shift 2 ;;
    --record-owner) rec_owner=$2; shift 2 ;;
    --lock-link) lock_link=1; shift ;;
    --tmp-link) tmp_link=1; shift ;;
    --state-link) state_link=1; shift ;;
    --hold-lock) hold=1; shift ;;
    --umask) mask=$2; shift 2 ;;
    --as-user) as_user=1; shift ;;
    --expect-setting) want_setting=$2; shift 2 ;;
    --expect-record) want_record=$2; shift 2 ;;
    --expect-mode) want_modes+=("$2"); shift 2 ;;
    --expect-victim-intact) victim_check=1; shift ;;
    *) echo "record-ns: unknown option $1"; exit 2 ;;
    esac
done
shift

# Everything below happens in this namespace's own mounts; a mount that fails stops the case
# before COMMAND could reach the machine's own setting.
mount -t tmpfs -o mode=755 tmpfs /run || { echo "record-ns: cannot mount a tmpfs on /run"; exit 1; }
fake=/run/record-ns
mkdir -m 755 "$fake" || exit 1
if [ "$setting" = full ]; then
    mount --bind /dev/full /proc/sys/kernel/numa_balancing || exit 1
else
    echo 7 >"$fake/setting" && chmod 666 "$fake/setting"
    mount --bind "$fake/setting" /proc/sys/kernel/numa_balancing || exit 1
    [ "$(cat /proc/sys/kernel/numa_balancing)" = 7 ] || { echo "record-ns: bind failed"; exit 1; }
    echo "$setting" >/proc/sys/kernel/numa_balancing
fi

sleep 300 &
live=$!
live_start=$(awk '{sub(/^.*\) /, ""); print $20}' "/proc/$live/stat")
sh -c 'exit 0' &
dead=$!
wait "$dead"
dir=/run/numaprobe state=/run/numaprobe/numa_balancing.state
mkdir -p "$dir"
echo "secret" >"$fake/victim" && cp "$fake/victim" "$fake/victim.orig"
if [ -n "$record" ]; then
    sed -e "s/@LIVE@/$live $live_start/g" -e "s/@DEAD@/$dead 12345/g" \
        "$here/records/$record" >"$state"
    echo "record-ns: record $record:"
    sed 's/^/  | /' "$state" | cat -v
fi
if [ "$state_link" = 1 ]; then
    mv "$state" "$fake/record" && ln -s "$fake/record" "$state"
fi
[ "$tmp_link" = 1 ] && ln -s "$fake/victim" "$dir/numa_balancing.state.tmp"
[ "$lock_link" = 1 ] && ln -s "$fake/victim" "$dir/numa_balancing.lock"
[ -n "$rec_mode" ] && chmod "$rec_mode" "$state"
[ -n "$rec_owner" ] && chown -h "$rec_owner" "$state"
[ -n "$dir_mode" ] && chmod "$dir_mode" "$dir"
[ -n "$dir_owner" ] && chown "$dir_owner" "$dir"
holder=""
if [ "$hold" = 1 ]; then
    touch "$dir/numa_balancing.lock"
    python3 -c '
import fcntl, os, struct, sys, time
fd = os.open(sys.argv[1], os.O_RDWR)
# struct flock: l_type, l_whence, l_start, l_len, l_pid (x86-64 and arm64 layout)
fcntl.fcntl(fd, 37, struct.pack("hhqqi4x", fcntl.F_WRLCK, 0, 0, 0, 0))  # F_OFD_SETLK
print("held", flush=True)
time.sleep(60)' "$dir/numa_balancing.lock" >"$fake/held" &
    holder=$!
    for _ in $(seq 50); do grep -q held "$fake/held" 2>/dev/null && break; sleep 0.1; done
fi

run=("$@")
[ "$as_user" = 1 ] && run=(setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@")
if [ -n "$mask" ]; then
    (umask "$mask" && exec "${run[@]}")
else
    "${run[@]}"
fi
rc=$?
[ -n "$holder" ] && kill "$holder" 2>/dev/null
kill "$live" 2>/dev/null

now=$(head -c 16 /proc/sys/kernel/numa_balancing 2>/dev/null | tr -dc '0-9')
[ -e "$state" ] && left=kept || left=gone
echo "record-ns: kernel.numa_balancing now ${now:-unreadable}; record $left"
fail=0
if [ -n "$want_setting" ] && [ "$now" != "$want_setting" ]; then
    echo "record-ns: FAIL: kernel.numa_balancing is ${now:-unreadable}, expected $want_setting"
    fail=1
fi
if [ -n "$want_record" ] && [ "$left" != "$want_record" ]; then
    echo "record-ns: FAIL: the record is $left, expected $want_record"
    fail=1
fi
for m in "${want_modes[@]}"; do
    got=$(stat -c %a "/run/${m%%=*}" 2>/dev/null)
    if [ "$got" != "${m#*=}" ]; then
        echo "record-ns: FAIL: /run/${m%%=*} has mode ${got:-none}, expected ${m#*=}"
        fail=1
    fi
done
if [ "$victim_check" = 1 ] && ! cmp -s "$fake/victim" "$fake/victim.orig"; then
    echo "record-ns: FAIL: a file behind a planted link was written"
    fail=1
fi
[ $fail = 0 ] || exit 99
exit "$rc"
