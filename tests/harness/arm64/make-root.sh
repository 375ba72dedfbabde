#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# make-root.sh [ROOT]: makes (once) the Debian arm64 tree the Arm64 stage builds against and runs
# in: the target's libraries (MPI, HDF5, hwloc, libnuma, libyaml, jansson, libc) unpacked from
# Debian's arm64 packages. It lives outside the clone (default /var/cache/numaprobe/arm64-root,
# or $NPRB_ARM64_ROOT) so that a second CI run on the machine reuses it; a stamp names the
# package list it was made from, and a different list makes it again. Prints the root's path.
#
# The packages are unpacked, not installed (mmdebstrap's extract variant): nothing runs under
# emulation, which makes a new tree in under a minute where running every maintainer script
# under QEMU takes about five (README.md). Nothing here needs what those scripts do.
set -euo pipefail
root=${1:-${NPRB_ARM64_ROOT:-/var/cache/numaprobe/arm64-root}}
packages=libc6-dev,libgomp1,libopenmpi-dev,openmpi-bin,libhdf5-openmpi-dev,libhwloc-dev,libnuma-dev,libyaml-dev,libjansson-dev,libdeflate-dev
suite=${NPRB_ARM64_SUITE:-bookworm}
stamp="$suite $packages"

if [ -f "$root/.numaprobe-stamp" ] && [ "$(cat "$root/.numaprobe-stamp")" = "$stamp" ]; then
    echo "$root"
    exit 0
fi

# The machine's own Debian mirror, so the root comes from where apt-get does.
mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $3 ~ /^(bookworm|stable)$/ { print $2; exit }' \
    /etc/apt/sources.list 2>/dev/null)
mirror=${mirror:-http://deb.debian.org/debian}

new="$root.new.$$"
trap 'rm -rf "$new"' EXIT
mkdir -p "$(dirname "$root")"
echo "make-root: unpacking Debian $suite arm64 ($packages) from $mirror into $root" >&2
mmdebstrap --quiet --arch=arm64 --variant=extract --include="$packages" "$suite" "$new" \
    "deb $mirror $suite main" >&2

# The -dev packages' library links are absolute (libm.so -> /lib/aarch64-linux-gnu/libm.so.6):
# in a tree used as a sysroot they would point into the build machine. Made relative, they point
# within the tree, wherever it lies.
find "$new" -type l -lname '/*' -print0 | while IFS= read -r -d '' link; do
    target=$(readlink "$link")
    ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$new$target")" "$link"
done
# QEMU's user emulation looks a path up in the tree first: an empty /tmp there would catch the
# files the tests write to the real /tmp.
rm -rf "$new/tmp" "$new/proc" "$new/sys" "$new/dev"

echo "$stamp" >"$new/.numaprobe-stamp"
rm -rf "$root"
mv "$new" "$root"
trap - EXIT
echo "$root"
