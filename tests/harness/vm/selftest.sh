#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Self-test for vm-run: boots a few guests and checks that what was asked for
# is what the guest kernel sees, that exit statuses propagate and that files
# written in the share come back.
#
# Usage: tests/harness/vm/selftest.sh
# Exit: 0 all checks passed, 1 a check failed, 77 vm-run cannot run here.
#
# SELFTEST_BREAK=1 deliberately asks for 4 nodes but asserts 2, to show that
# a mismatch makes the self-test fail.
set -euo pipefail

HERE=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)
VM_RUN="$HERE/vm-run"

passed=0
failed=0
work=$(mktemp -d "${TMPDIR:-/tmp}/numaprobe-vm-selftest.XXXXXX")
trap 'rm -rf -- "$work"' EXIT

pass() { echo "PASS: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

# Runs vm-run with the given arguments; output goes to $work/out.
# A skip (77) from vm-run ends the whole self-test as skipped.
vm() {
    local rc=0
    (cd "$work" && "$VM_RUN" --share "$work" --timeout 180 "$@") >"$work/out" 2>"$work/err" || rc=$?
    if ((rc == 77)); then
        cat "$work/err" >&2
        echo "SKIP: vm-run cannot run on this machine"
        exit 77
    fi
    return "$rc"
}

# The distance row that vm-run promises for node $1 out of $2 CPU nodes and
# $3 memory-only nodes (keep in sync with node_distance in vm-run / README).
expected_row() {
    local i=$1 n=$2 k=$3 j d row=""
    for ((j = 0; j < n + k; j++)); do
        if ((i == j)); then d=10
        elif ((i >= n || j >= n)); then d=31
        else d=$((10 + 10 * (i > j ? i - j : j - i) + 1))
        fi
        row+="${row:+ }$d"
    done
    echo "$row"
}

# Guest script that prints one line per node: "nodeI <cpulist> | <distances>".
read -r -d '' TOPOLOGY_SCRIPT <<'EOF' || true
for d in /sys/devices/system/node/node[0-9]*; do
    echo "${d##*/} $(cat "$d/cpulist") | $(cat "$d/distance")"
done | sort -V
EOF

# check_topology NAME CPU_NODES MEMONLY_NODES CPUS [vm-run options...]
# check_topology NAME NODES MEMONLY CPUS VM_RUN_OPTIONS...: with NUMACTL=1 in the environment,
# the same boot also keeps `numactl --hardware` in the share for check_numactl.
check_topology() {
    local name=$1 n=$2 k=$3 cpus=$4 i line want_row count cpulist script=$TOPOLOGY_SCRIPT
    shift 4
    if [[ ${NUMACTL:-0} == 1 ]] && command -v numactl >/dev/null; then
        script+=$'\nnumactl --hardware >numactl.out'
    fi
    if ! vm "$@" -- bash -c "$script"; then
        fail "$name: vm-run failed: $(tail -n3 "$work/err" | tr '\n' ' ')"
        return
    fi
    count=$(grep -c '^node' "$work/out" || true)
    if ((count == n + k)); then pass "$name: $count NUMA nodes"
    else fail "$name: expected $((n + k)) NUMA nodes, guest has $count"; fi

    for ((i = 0; i < n + k; i++)); do
        line=$(grep "^node$i " "$work/out" || true)
        want_row=$(expected_row "$i" "$n" "$k")
        if [[ ${line#*| } == "$want_row" ]]; then pass "$name: node$i distances $want_row"
        else fail "$name: node$i distances: want '$want_row', got '${line#*| }'"; fi
        cpulist=$(awk '{print $2}' <<<"$line")
        # An empty cpulist leaves "|" in the second field.
        if ((i >= n)); then
            if [[ $cpulist == "|" ]]; then pass "$name: node$i is memory-only"
            else fail "$name: node$i should have no CPUs, has '$cpulist'"; fi
        else
            if [[ -n $cpulist && $cpulist != "|" ]]; then pass "$name: node$i has CPUs $cpulist"
            else fail "$name: node$i should have CPUs"; fi
        fi
    done
    local got_cpus
    got_cpus=$(awk '$2 != "|" { print $2 }' "$work/out" | count_cpus)
    if ((got_cpus == cpus)); then pass "$name: $cpus vCPUs on the CPU nodes"
    else fail "$name: want $cpus vCPUs, nodes list $got_cpus"; fi
}

# Counts the CPUs in cpulist lines such as "0-3,6" read from stdin.
count_cpus() {
    tr ',' '\n' | awk -F- 'NF == 2 { n += $2 - $1 + 1; next } NF == 1 { n++ } END { print n + 0 }'
}

# What numactl --hardware said in the 4-node guest of check_topology.
check_numactl() {
    if ! command -v numactl >/dev/null; then
        echo "note: numactl not installed on the host, skipping numactl --hardware check"
        return
    fi
    if grep -q '^available: 4 nodes (0-3)' "$work/numactl.out" 2>/dev/null &&
        grep -Eq '^ +0: +10 +21 +31 +41 *$' "$work/numactl.out"; then
        pass "numactl --hardware: 4 nodes, row 0 = 10 21 31 41"
    else
        fail "numactl --hardware output unexpected:"
        sed 's/^/    /' "$work/numactl.out" 2>/dev/null || echo "    (none)"
    fi
}

# One boot: a file written in the share comes back, the guest's defaults hold (cwd,
# numa_balancing off, THP madvise), and the command's exit status is vm-run's.
check_share_settings_and_status() {
    local rc=0
    rm -f "$work/from-guest"
    vm -- bash -c 'pwd >from-guest; cat /proc/sys/kernel/numa_balancing >>from-guest;
            grep -o "\[[a-z]*\]" /sys/kernel/mm/transparent_hugepage/enabled >>from-guest
            exit 3' || rc=$?
    if [[ $(cat "$work/from-guest" 2>/dev/null) == "$work"$'\n0\n[madvise]' ]]; then
        pass "file written in the share came back (cwd, numa_balancing=0, THP madvise)"
    else
        fail "share file content: '$(cat "$work/from-guest" 2>/dev/null || echo missing)'"
    fi
    if ((rc == 3)); then pass "exit status 3 propagates"
    else fail "command exited 3, vm-run exited $rc"; fi
}

check_timeout() {
    local rc=0
    vm --timeout 12 -- sleep 600 || rc=$?
    if ((rc == 124)); then pass "timeout gives exit status 124"
    else fail "timeout: want 124, got $rc"; fi
}

# A guest whose kernel reports a lockup in text patching, or a vCPU whose timer stopped, is
# booted again, the command run again from the start, and given up (125) after NPRB_VM_REBOOTS
# more boots. The command writes the reports into the kernel's log itself (the first boot the
# lockup, the second the timer), so that the check does not wait on QEMU's defects.
check_lockup_reboot() {
    local rc=0 boots
    rm -f "$work/boots"
    NPRB_VM_REBOOTS=1 vm -- sh -c 'if [ -s boots ]; then
echo "<3>rcu: rcu_preempt kthread timer wakeup didn'"'"'t happen for 10187 jiffies!" >/dev/kmsg
else
echo "<0>watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [numaprobe:176]" >/dev/kmsg
echo "<4> text_poke_bp_batch+0x2c0/0x300" >/dev/kmsg
fi
echo boot >>boots; sleep 600' || rc=$?
    boots=$(grep -c boot "$work/boots" 2>/dev/null || echo 0)
    if ((rc == 125 && boots == 2)) && grep -q "locked up patching its text" "$work/err" &&
        grep -q "(the last: timer)" "$work/err" &&
        grep -q "giving up" "$work/err"; then
        pass "a lockup in text patching, then a stopped timer: booted again once, then given up (125)"
    else
        fail "lockup, then timer: want 125 after 2 boots, got $rc after $boots: $(cat "$work/err")"
    fi
}

main() {
    if [[ ${SELFTEST_BREAK:-0} == 1 ]]; then
        # Ask for 4 nodes, assert 2: this run must fail.
        check_topology "broken-on-purpose" 2 0 4 --nodes 4 --cpus 4
    else
        check_topology "2 nodes x 4 vCPUs" 2 0 4 --nodes 2 --cpus 4
        NUMACTL=1 check_topology "4 nodes x 4 vCPUs" 4 0 4 --nodes 4 --cpus 4
        check_topology "2 nodes + 1 memory-only" 2 1 4 --nodes 2 --cpus 4 --memonly-nodes 1 --mem-mib 1536
        check_numactl
        check_share_settings_and_status
        check_timeout
        check_lockup_reboot
    fi
    echo "$passed passed, $failed failed"
    ((failed == 0))
}

main "$@"
