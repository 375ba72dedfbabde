#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# deb.sh CPACK BUILD_DIR OUTDIR TINY_CONFIG: builds the .deb with CPack, checks its dependencies
# (the run-time ones of packaging/dependencies.txt, and a package for every library the program
# links), its conffiles (/etc/numaprobe), installs it with dpkg, runs `numaprobe --version`, a
# tiny run, `numaprobe check`, a shipped config by name, a site's config placed in /etc/numaprobe
# and numaprobe-report from it, removes it (its conffiles stay) and purges it, leaving nothing
# behind. Purging happens on failure too (trap). It needs root and dpkg (else exit 77, with the reason),
# and refuses (77) to touch a machine where numaprobe is already installed system-wide.
set -euo pipefail
cpack=$1 build=$(realpath "$2") out=$3 tiny=$(realpath "$4")
skip() { echo "SKIP: $*"; exit 77; }
if ! command -v dpkg >/dev/null || ! command -v dpkg-deb >/dev/null; then
    skip "no dpkg: not a Debian system"
fi
[ "$(id -u)" -eq 0 ] || skip "installing a .deb needs root"
if dpkg-query -W -f='${Status}' numaprobe 2>/dev/null | grep -q "ok installed"; then
    skip "a numaprobe package is installed here already; not replacing it"
fi
for f in /usr/bin/numaprobe /usr/bin/numaprobe-report /usr/share/numaprobe /etc/numaprobe; do
    if [ -e "$f" ]; then skip "$f exists and belongs to no package: installing would overwrite it"; fi
done
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

rm -rf "$out"
mkdir -p "$out"
out=$(realpath "$out")
"$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$out" >"$out/cpack.log" 2>&1 ||
    { rc=$?; cat "$out/cpack.log"; echo "FAIL: cpack exited $rc"; exit 1; }
debs=("$out"/numaprobe_*.deb)
[ -f "${debs[0]}" ] || { cat "$out/cpack.log"; echo "FAIL: no .deb in $out"; exit 1; }
deb=${debs[0]}
# The package is for the architecture its binary was built for, as dpkg names it.
arch=$(dpkg-deb -f "$deb" Architecture)
want_arch=$(dpkg --print-architecture)
[ "$arch" = "$want_arch" ] || fail "the .deb is for $arch, this machine is $want_arch"
case "$deb" in *_"$arch".deb) ;; *) fail "$deb: the file name does not say $arch" ;; esac
depends=$(dpkg-deb -f "$deb" Depends)
echo "$deb: Depends: $depends"
has_dep() { grep -Eq "(^|, )$1( |,|$)" <<<"$depends"; }
for pkg in openmpi-bin python3 python3-h5py python3-pandas python3-matplotlib; do
    has_dep "$pkg" || fail "the .deb does not depend on $pkg"
done

# Debian policy, as lintian reads it at its most pedantic: no errors, and no hardening tag (the
# build takes dpkg-buildflags' flags, cmake/NprbHardening.cmake). Other tags are printed for the
# reader.
if command -v lintian >/dev/null; then
    lint=$(lintian -EvIL +pedantic --tag-display-limit 0 "$deb" 2>&1) || true
    echo "lintian -EvIL +pedantic:"; echo "${lint:-  nothing}"
    if grep -q "^E: " <<<"$lint"; then fail "lintian reports errors"; fi
    if grep -Eq "^[EWIPX]: [^ ]+ hardening-" <<<"$lint"; then
        fail "lintian reports hardening tags: the build lacks dpkg-buildflags' flags"
    fi
elif [ "${CI:-}" = true ]; then
    fail "lintian is not installed (tests/deps/install.txt)"
else
    echo "lintian not installed: Debian policy not checked"
fi

# The site's directory: its files are conffiles, and nothing else of the package is in /etc.
conffiles=$(dpkg-deb --ctrl-tarfile "$deb" | tar -xOf - ./conffiles 2>/dev/null || true)
[ "$conffiles" = $'/etc/numaprobe/README\n/etc/numaprobe/nightly.env' ] ||
    fail "the .deb's conffiles are not /etc/numaprobe/README and nightly.env: ${conffiles:-none}"
in_etc=$(dpkg-deb -c "$deb" | awk '$6 ~ /^\.\/etc\/./ && $6 !~ /\/$/ {print $6}' | sort)
[ "$in_etc" = $'./etc/numaprobe/README\n./etc/numaprobe/nightly.env' ] ||
    fail "the .deb's files in /etc are not its conffiles: $in_etc"

trap 'rm -f /etc/numaprobe/deb-site.yaml; dpkg -P numaprobe >/dev/null 2>&1 || true' EXIT
dpkg -i "$deb" || { echo "FAIL: dpkg -i exited $?"; exit 1; }
# Every library numaprobe links directly comes from a package the .deb depends on.
mapfile -t needed < <(objdump -p /usr/bin/numaprobe | awk '/NEEDED/ {print $2}')
for soname in "${needed[@]}"; do
    path=$(ldd /usr/bin/numaprobe | awk -v s="$soname" '$1 == s {print $3}')
    owner=""
    for p in "$path" "$(realpath "$path")" "${path#/usr}" "/usr$path"; do
        owner=$(dpkg -S "$p" 2>/dev/null | head -1 | cut -d: -f1) && [ -n "$owner" ] && break
    done
    if [ -z "$owner" ]; then
        fail "no package owns $soname ($path)"
    elif ! has_dep "$owner"; then
        fail "numaprobe links $soname from $owner, which the .deb does not depend on"
    fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/numaprobe-deb.XXXXXX")
trap 'rm -f /etc/numaprobe/deb-site.yaml; dpkg -P numaprobe >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
cd "$work"
/usr/bin/numaprobe --version || fail "numaprobe --version exited $?"
/usr/bin/numaprobe -c "$tiny" -o "$work/deb.h5" --quiet >run.log 2>&1 ||
    { rc=$?; cat run.log; fail "the tiny run exited $rc"; }
/usr/bin/numaprobe check "$work/deb.h5" || fail "numaprobe check exited $?"
/usr/bin/numaprobe -c quick --dry-run >dry.log 2>&1 || { cat dry.log; fail "-c quick --dry-run"; }
/usr/bin/numaprobe-report --version || fail "numaprobe-report --version exited $?"
/usr/bin/numaprobe-report --no-report "$work/deb.h5" >report.log 2>&1 ||
    { rc=$?; cat report.log; fail "numaprobe-report exited $rc"; }
MANPAGER="cat" man -l /usr/share/man/man1/numaprobe.1.gz >/dev/null 2>&1 || fail "man -l numaprobe.1.gz"

# A config a site places in /etc/numaprobe is found by name, before the shipped one.
for f in /etc/numaprobe/README /etc/numaprobe/nightly.env; do
    [ -f "$f" ] || fail "dpkg -i did not install $f"
done
printf 'seed: 4245\n' >/etc/numaprobe/deb-site.yaml
/usr/bin/numaprobe -c deb-site --show-config 2>&1 | grep -qx "seed: 4245" ||
    fail "numaprobe -c deb-site did not read /etc/numaprobe/deb-site.yaml"
rm /etc/numaprobe/deb-site.yaml
# The nightly service as installed under /usr starts the installed script.
grep -qx "ExecStart=/usr/share/numaprobe/jobs/nightly/numaprobe-nightly" \
    /usr/share/numaprobe/jobs/nightly/numaprobe-nightly.service ||
    fail "the installed numaprobe-nightly.service does not start /usr/share/numaprobe/jobs/nightly/numaprobe-nightly"

# Removed, the package leaves its conffiles (a site's edits) behind; purged, nothing.
dpkg -r numaprobe || fail "dpkg -r exited $?"
for f in /usr/bin/numaprobe /usr/bin/numaprobe-report /usr/libexec/numaprobe /usr/share/numaprobe; do
    if [ -e "$f" ]; then fail "$f is left after dpkg -r"; fi
done
[ -f /etc/numaprobe/nightly.env ] || fail "dpkg -r removed the conffile /etc/numaprobe/nightly.env"
dpkg -P numaprobe || fail "dpkg -P exited $?"
if [ -e /etc/numaprobe ]; then fail "/etc/numaprobe is left after dpkg -P"; fi
if [ "$failures" -ne 0 ]; then exit 1; fi
echo "the .deb built, installed, ran, was removed and purged"
