#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# stage.sh: numaprobe for Arm64, built here with the cross compiler and run under QEMU's user-mode
# emulation (scripts/test's Arm64 stage). It builds against a Debian arm64 tree kept outside the
# clone (make-root.sh) and packages the build (the .deb must say arm64), then runs, on emulated
# Arm64 cores:
#   - the unit tests, stream kernels' validation on three cores: `max` (SVE), `cortex-a57`
#     (NEON alone) and `a64fx` (SVE, 512-bit vectors);
#   - a singleton quick run, which `numaprobe check` of both builds must accept;
#   - a 2-rank MPI run under the tree's own mpirun;
#   - the analysis's mixed x86 + Arm64 fleet test on the singleton's file.
# Emulated timings mean nothing; what is checked is that every kernel computes the right answer
# and that a whole run of the Arm64 build writes a valid file. Needs root (binfmt_misc, so that
# mpirun and the singleton's helper can start Arm64 programs). Prints each part's time.
set -euo pipefail
cd "$(dirname "$0")/../../.."
build=build/arm64
out=$build/out
parts=()
part_start=$SECONDS
part() {
    parts+=("$((SECONDS - part_start)) $*")
    part_start=$SECONDS
}

root_was_there=no
[ -f "${NPRB_ARM64_ROOT:-/var/cache/numaprobe/arm64-root}/.numaprobe-stamp" ] && root_was_there=yes
root=$(tests/harness/arm64/make-root.sh)
part "Debian arm64 tree $root (already there: $root_was_there)"

# The kernel starts Arm64 programs through QEMU when binfmt_misc names it: mpirun's ranks and the
# singleton's helper are started that way. Debian's qemu-user-static registers it on install
# where binfmt_misc is mounted; a container or a machine without systemd may need it mounted.
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
    [ -e /proc/sys/fs/binfmt_misc/register ] ||
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc ||
        { echo "arm64: cannot mount binfmt_misc (run as root)" >&2; exit 1; }
    update-binfmts --enable qemu-aarch64 ||
        { echo "arm64: cannot register QEMU for Arm64 programs (update-binfmts)" >&2; exit 1; }
fi
export QEMU_LD_PREFIX=$root
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
# OpenMP's threads wait at a barrier by sleeping: under emulation a spinning thread takes the core
# the other emulated thread needs, and the stage checks results, not timings.
export OMP_WAIT_POLICY=passive

cmake -S . -B $build -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake \
    -DNPRB_ARM64_ROOT="$root" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNPRB_WERROR=ON \
    -DNPRB_BUILD_TESTS=ON >/dev/null
cmake --build $build -j "$(nproc)"
file $build/src/numaprobe | grep -q "ARM aarch64" || { echo "arm64: not an Arm64 binary" >&2; exit 1; }
part "cross build (gcc-aarch64-linux-gnu, -Werror)"

# The package of a cross build is for the target: dpkg's name for it, in the field and the file.
rm -rf $build/deb
cpack --config $build/CPackConfig.cmake -G DEB -B $build/deb >$build/cpack.log 2>&1 ||
    { tail -20 $build/cpack.log; echo "arm64: cpack failed" >&2; exit 1; }
deb=$(ls $build/deb/numaprobe_*_arm64.deb)
[ "$(dpkg-deb -f "$deb" Architecture)" = arm64 ] || { echo "arm64: $deb is not arm64" >&2; exit 1; }
part "the .deb of the cross build: $(basename "$deb")"

# test_verify, test_place and test_balancing exercise the kernel's NUMA calls (move_pages,
# mbind) and process locks through it, which QEMU's user mode does not pass on: they run on the
# real kernel in the main suite. test_sole_node checks what stands in for them here.
kernel_calls='^unit\.test_(verify|place|balancing)$'
QEMU_CPU=max ctest --test-dir $build -L unit -E "$kernel_calls" -j "$(nproc)" --output-on-failure
for cpu in cortex-a57 a64fx; do
    QEMU_CPU=$cpu ctest --test-dir $build -R '^unit\.test_(stream|sole_node)$' --output-on-failure
done
part "unit tests under emulation (max; stream kernels also on cortex-a57 and a64fx)"

rm -rf "$out"
mkdir -p "$out"
# The singleton and the MPI run side by side: each keeps about one emulated core busy (the MPI
# run's ranks take turns on the host), and the stage's time is mostly theirs.
# A single rank, started without mpirun, on an emulated Neoverse-N1 (Graviton 2, Ampere Altra),
# then its checks and the mixed x86 + Arm64 fleet analysis on its file.
singleton_side() {
    QEMU_CPU=neoverse-n1 $build/src/numaprobe -c quick -o "$out/singleton.h5" \
        >"$out/singleton.log" 2>&1 ||
        { tail -40 "$out/singleton.log"; echo "arm64: the singleton quick run failed" >&2; return 1; }
    $build/src/numaprobe check "$out/singleton.h5" || return 1
    if [ -x build/dev/src/numaprobe ]; then
        build/dev/src/numaprobe check "$out/singleton.h5" || return 1 # the x86 build reads it
    fi
    if [ -f analysis/tests/test_mixed_isa.py ]; then
        NPRB_ARM64_RESULTS="$out/singleton.h5" /usr/bin/python3 -m pytest -q -p no:cacheprovider \
            analysis/tests/test_mixed_isa.py || return 1
    fi
}
singleton_side >"$out/singleton-side.log" 2>&1 &
side=$!

QEMU_CPU=neoverse-n1 "$root/usr/bin/orterun" --oversubscribe --bind-to none -np 2 \
    $build/src/numaprobe -c quick --time-budget 60s -o "$out/mpi2.h5" >"$out/mpi2.log" 2>&1 ||
    { tail -40 "$out/mpi2.log"; echo "arm64: the 2-rank MPI run failed" >&2; wait $side; exit 1; }
$build/src/numaprobe check "$out/mpi2.h5"
if ! wait $side; then
    cat "$out/singleton-side.log"
    echo "arm64: the singleton's run, its checks or the mixed-ISA analysis failed" >&2
    exit 1
fi
cat "$out/singleton-side.log"
/usr/bin/python3 - "$out/singleton.h5" "$out/mpi2.h5" <<'PY'
import sys
import h5py
# Both files: Arm64 hosts, named from the MIDR of the emulated core, on the Arm64 kernel paths.
for path, ranks in ((sys.argv[1], 1), (sys.argv[2], 2)):
    with h5py.File(path, "r") as f:
        hosts = f["hosts"][()]
        got = [(h["rank"], h["cpu_model"].decode(), h["simd_path"].decode(), h["status"].decode(),
                h["clock_tick_ns"]) for h in hosts]
        print(f"{path}: {got}")
        assert len(hosts) == ranks, f"{path}: {len(hosts)} rank(s), expected {ranks}"
        for rank, model, simd, status, tick in got:
            assert model == "ARM Neoverse-N1", f"{path}: rank {rank}: cpu_model {model!r}"
            assert simd == "neon", f"{path}: rank {rank}: simd_path {simd!r}"
            assert status == "ok", f"{path}: rank {rank}: status {status!r}"
            assert tick > 0, f"{path}: rank {rank}: no timer resolution"
PY
part "singleton quick run and mixed-ISA analysis beside the 2-rank MPI run, all checked"

echo "arm64 stage times (s):"
for p in "${parts[@]}"; do
    printf '  %5d  %s\n' "${p%% *}" "${p#* }"
done
