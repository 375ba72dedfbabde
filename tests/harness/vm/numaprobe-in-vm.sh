#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# numaprobe-in-vm.sh --exe NUMAPROBE --config FILE --outdir DIR --nodes N [--memonly K]
#                    [--ranks R] [--cpus C] [--cpuset-node K] [--fault NAME --expect-rc RC]
#                    [--balancing 0|1] [--packages P [--slit-package D] [--slit-cross D]]
#                    [--mem-per-node MIB] [--set KEY=VALUE]... [--numactl] [--mpirun-args "ARGS"]
#                    [--expect-binding WORD] [--shared-node] [--unprivileged]
#                    [--scenario start|restore|concurrent] [--phase all|prepare|check]
# Runs numaprobe inside a multi-NUMA guest (vm-run) and checks its results file with the pytest
# module test_guest_placement.py: recorded topology and distances, verified page placement, interleave spread,
# thread pinning. With --ranks R > 1 numaprobe runs under `mpirun --map-by numa --bind-to numa`;
# --mpirun-args replaces those launcher options (and runs mpirun even for one rank).
# --expect-binding WORD: the first rank's binding_check must contain WORD (e.g. "widened");
# --shared-node: the launcher must have bound two ranks to the same node (the placement tests check
# that it did, so the test of sharing nodes out cannot pass vacuously).
# With --cpuset-node K it runs in a cgroup v2 cpuset holding only node K's CPUs and memory (a
# Slurm job's cgroup), and test_guest_cpuset.py checks that the other nodes are listed as not allowed.
# With --fault NAME (NUMAPROBE_FAULT) numaprobe must exit with RC and leave no results file; the
# balancing setting is checked on every path. A fault with RC 0 (no_populate) must change nothing:
# the run's file is checked as any other. With --packages the guest groups its CPU nodes into
# P packages (vm-run --packages). With --numactl the guest also runs `numactl --hardware` just
# before numaprobe, and test_guest_topology_report.py compares numaprobe's stdout (topology block,
# class table) with it.
# --scenario NAME runs restore-scenario.sh NAME in the guest in place of one numaprobe run: a run
# killed while kernel.numa_balancing is off, and the setting put back after it (the script says
# how); test_guest_restore.py then checks the /hosts row of the run that put it back.
# --phase: "all" (the default) boots a guest for this run alone. guest-batch.sh runs several runs
# of one guest layout in one boot: "prepare" writes this run's guest script ($outdir/NAME.guest.sh,
# which leaves its exit status in NAME.rc) and its vm-run options (NAME.vmargs) and prints NAME;
# "check" checks what that run left, as "all" does after its own boot.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exe="" config="" outdir="" nodes=2 memonly=0 ranks=1 cpus="" cpu_model="" simd="" hmat=""
cpuset_node="" fault="" expect_rc=0 balancing=1 mpirun_args="" check_args=() unprivileged=""
packages=0 slit_package=12 slit_cross=32 mem_per_node=512 numactl="" sets=() sweep_every=""
phase=all scenario=""
while [ $# -gt 0 ]; do
    case $1 in
    --exe) exe=$2; shift 2 ;;
    --config) config=$2; shift 2 ;;
    --outdir) outdir=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --memonly) memonly=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    --cpus) cpus=$2; shift 2 ;;
    --cpu-model) cpu_model=$2; shift 2 ;; # QEMU CPU model (TCG), e.g. qemu64
    --simd) simd=$2; shift 2 ;;           # the kernel code path numaprobe must report
    --hmat) hmat=--hmat; shift ;;         # the guest's firmware publishes an ACPI HMAT
    --cpuset-node) cpuset_node=$2; shift 2 ;;
    --fault) fault=$2; shift 2 ;;
    --expect-rc) expect_rc=$2; shift 2 ;;
    --balancing) balancing=$2; shift 2 ;; # kernel.numa_balancing the guest boots with
    --packages) packages=$2; shift 2 ;;   # CPU nodes grouped into P packages
    --slit-package) slit_package=$2; shift 2 ;;
    --slit-cross) slit_cross=$2; shift 2 ;;
    --mem-per-node) mem_per_node=$2; shift 2 ;; # guest MiB per node (default 512)
    --set) sets+=(--set "$2"); shift 2         # passed to numaprobe
        case ${sets[-1]} in latency_sweep.from=every) sweep_every=1 ;; esac ;;
    --numactl) numactl=1; shift ;;
    --mpirun-args) mpirun_args=$2; shift 2 ;;
    --expect-binding) check_args+=(--expect-binding "$2"); shift 2 ;;
    --shared-node) check_args+=(--shared-node); shift ;;
    --unprivileged) unprivileged=1; check_args+=(--unprivileged); shift ;; # run as nobody
    --scenario) scenario=$2; shift 2 ;;
    --phase) phase=$2; shift 2 ;;
    *) echo "numaprobe-in-vm.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[ -n "$cpus" ] || cpus=$((nodes * 2))
exe=$(realpath "$exe")
config=$(realpath "$config")
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd -P)
name="vm-n${nodes}-m${memonly}-r${ranks}${cpu_model:+-$cpu_model}${hmat:+-hmat}"
name+="${cpuset_node:+-cpuset$cpuset_node}${fault:+-$fault}"
[ "$packages" = 0 ] || name+="-p${packages}"
[ ${#sets[@]} = 0 ] || name+="-set$(printf '%s' "${sets[*]}" | cksum | cut -c1-6)"
# Launcher options name the file too: "--map-by ppr:1:numa" -> "map-by-ppr-1-numa".
[ -z "$mpirun_args" ] || name+="-$(tr -cs 'A-Za-z0-9' '-' <<<"$mpirun_args" | sed 's/^-*//; s/-*$//')"
name+="${unprivileged:+-nobody}${scenario:+-restore-$scenario}-bal${balancing}"
result="$outdir/$name.h5"
guest_script="$outdir/$name.guest.sh" rc_file="$outdir/$name.rc"
after="$outdir/$name.balancing-after"
case $phase in
all | prepare)
    # A lock of a guest killed earlier: its PID may run again in a new guest.
    rm -f "$result" "$result.lock" "$rc_file" "$after" "$outdir/$name.skipped" ;;
check) ;;
*) echo "numaprobe-in-vm.sh: --phase all, prepare or check, not $phase" >&2; exit 2 ;;
esac

if [ "$phase" != check ]; then
# The guest sees the host's root read-only but has its own /tmp, so a build under /tmp (a CI
# clone, say) would be invisible there: run copies from the shared output directory, one
# directory a test, as two guests run at once and neither may overwrite what the other runs.
bin="$outdir/bin-$name"
mkdir -p "$bin"
cp "$exe" "$bin/numaprobe"
cp "$config" "$bin/config.yaml"
cp "$here/in-cpuset" "$bin/in-cpuset"
cmd=("$bin/numaprobe" -c "$bin/config.yaml" -o "$result" --quiet ${sets[@]+"${sets[@]}"})
if [ -n "$mpirun_args" ]; then
    # shellcheck disable=SC2206 # the launcher options are words on purpose
    cmd=(mpirun -np "$ranks" $mpirun_args --report-bindings "${cmd[@]}")
elif [ "$ranks" -gt 1 ]; then
    cmd=(mpirun -np "$ranks" --map-by numa --bind-to numa --report-bindings "${cmd[@]}")
fi
if [ -n "$cpuset_node" ]; then
    cmd=("$bin/in-cpuset" "$cpuset_node" "${cmd[@]}")
fi
# As a user without privileges: no SMBIOS, no sysctl, and page frames read as 0 in pagemap, so
# the census must place pages the balancing scanner unmapped without them.
if [ -n "$unprivileged" ]; then
    chmod 0777 "$outdir"
    cmd=(setpriv --reuid=65534 --regid=65534 --clear-groups "${cmd[@]}")
fi
if [ -n "$fault" ]; then
    cmd=(env NUMAPROBE_FAULT="$fault" "${cmd[@]}")
fi
if [ -n "$scenario" ]; then
    cp "$here/restore-scenario.sh" "$bin/restore-scenario.sh"
    # The Slurm harness, the job script and the epilog: the guest cannot see a checkout in /tmp.
    rm -rf "$bin/slurm" && cp -r "$here/../slurm" "$bin/slurm"
    cp "$here/../../../jobs/slurm/numaprobe.sbatch" "$here/../../../jobs/epilog/numaprobe-restore" "$bin/"
    cmd=(bash "$bin/restore-scenario.sh" "$bin/numaprobe" "$bin/config.yaml" "$outdir/$name"
        "$scenario")
fi
# numactl --hardware, then numaprobe with its stdout kept (still shown on the console).
if [ -n "$numactl" ]; then
    rm -f "$outdir/$name.numactl" "$outdir/$name.stdout"
    cmd=(sh -c 'numactl --hardware >"$1.numactl" || exit 125; out=$1; shift
"$@" >"$out.stdout"; rc=$?; cat "$out.stdout"; exit $rc' sh "$outdir/$name" "${cmd[@]}")
fi
# numaprobe changes kernel.numa_balancing for its balancing experiment and must put it back:
# the guest boots with --balancing (1 by default, as on most NUMA servers); record what is left
# after the run.
# A guest that locks up is booted again (vm-run) and runs this again from the start: the first
# boot's results, lock, temporary and checkpoints go first, as a killed job's would be in the way.
cmd=(sh -c 'r=$1 after=$2; shift 2; rm -rf "$r" "$r.lock" "$r".tmp-* "$r".checkpoints*
"$@"; rc=$?; cat /proc/sys/kernel/numa_balancing >"$after"; exit $rc' sh "$result" "$after" "${cmd[@]}")
# With balancing on, the scanner is made eager (no start delay, a scan every 10-100 ms instead of
# every 1-60 s) so that it unmaps the pages of the test's short-lived buffers while numaprobe
# counts them, as it does to a long run's buffers on a real server.
if [ "$balancing" = 1 ]; then
    eager='d=/sys/kernel/debug/sched/numa_balancing
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug || exit 125
echo 0 >$d/scan_delay_ms && echo 10 >$d/scan_period_min_ms && echo 100 >$d/scan_period_max_ms || exit 125
exec "$@"'
    cmd=(sh -c "$eager" sh "${cmd[@]}")
fi
# The guest script runs in $outdir and leaves the command's exit status beside its results.
{
    printf 'cd %q || exit 125\n' "$outdir"
    # OpenMP's threads wait at a barrier by sleeping, not spinning: under software emulation a
    # spinning vCPU takes the host core another vCPU needs, and timings mean nothing here.
    printf 'export OMP_WAIT_POLICY=passive\n'
    printf '%q ' "${cmd[@]}"
    printf '\necho $? >%q\n' "$rc_file"
} >"$guest_script"
vm_args=(--nodes "$nodes" --cpus "$cpus" --memonly-nodes "$memonly" --numa-balancing "$balancing"
    ${cpu_model:+--cpu-model "$cpu_model"} ${hmat:+"$hmat"}
    --packages "$packages" --slit-package "$slit_package" --slit-cross "$slit_cross"
    --mem-mib $(((nodes + memonly) * mem_per_node)))
if [ "$phase" = prepare ]; then
    printf '%s\n' "${vm_args[@]}" >"$outdir/$name.vmargs"
    echo "$name"
    exit 0
fi
cd "$outdir"
set +e
"$here/vm-run" "${vm_args[@]}" --timeout 500 -- bash "$guest_script"
vm_rc=$?
set -e
[ -f "$rc_file" ] || { echo "numaprobe in the guest did not finish: vm-run exited $vm_rc"; exit $((vm_rc ? vm_rc : 1)); }
fi # not --phase check
if [ -f "$outdir/$name.skipped" ]; then
    cat "$outdir/$name.skipped"
    exit 77
fi
if [ ! -f "$rc_file" ]; then
    echo "FAIL: no exit status from the guest ($rc_file): see the output of the guest's boot test"
    exit 1
fi
rc=$(cat "$rc_file")
if [ "$rc" -ne "$expect_rc" ]; then
    echo "numaprobe in the guest exited with $rc${fault:+ (want $expect_rc)}"
    [ "$rc" -ne 0 ] && exit "$rc"
    exit 1
fi
if [ "$(cat "$after" 2>/dev/null)" != "$balancing" ]; then
    echo "FAIL: kernel.numa_balancing is '$(cat "$after" 2>/dev/null)' after the run, not $balancing"
    exit 1
fi
if [ -n "$fault" ] && [ "$expect_rc" -ne 0 ]; then
    [ ! -e "$result" ] || { echo "FAIL: a results file after $fault"; exit 1; }
    echo "$fault: exit $rc, kernel.numa_balancing put back to $balancing, no results file: ok"
    exit 0
fi
case $scenario in
start)
    exec /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider "$here/test_guest_restore.py" \
        --results "$result" --killed-pid "$(cat "$outdir/$name.killed-pid")" ;;
concurrent)
    exec /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider "$here/test_guest_restore.py" \
        --results "$outdir/$name-second.h5" ;;
restore | slurm)
    echo "$scenario: kernel.numa_balancing put back: ok"
    exit 0 ;;
esac
if [ -n "$cpuset_node" ]; then
    exec /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider "$here/test_guest_cpuset.py" \
        --results "$result" --nodes "$nodes" --memonly "$memonly" --cpuset-node "$cpuset_node"
fi
layout=(--packages "$packages" --slit-package "$slit_package" --slit-cross "$slit_cross")
if [ -n "$numactl" ]; then
    /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider "$here/test_guest_topology_report.py" \
        --results "$result" --guest-stdout "$outdir/$name.stdout" \
        --guest-numactl "$outdir/$name.numactl" --nodes "$nodes" --cpus "$cpus" "${layout[@]}" \
        ${sweep_every:+--sweep-from-every} ||
        exit 1
fi
exec /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider "$here/test_guest_placement.py" \
    "$here/test_guest_experiments.py" \
    --results "$result" --nodes "$nodes" --memonly "$memonly" --ranks "$ranks" --cpus "$cpus" \
    ${simd:+--simd "$simd"} $hmat "${layout[@]}" "${check_args[@]}"
