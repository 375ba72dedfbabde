#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# site-files.sh PREFIX: the installation at PREFIX finds a site's configs and references by name
# in /etc/numaprobe, before the shipped ones: `numaprobe -c NAME` and `numaprobe-report compare
# --references NAME`. The machine's /etc is never written: the checks run in a private mount
# namespace, over an overlay of /etc with an empty tmpfs as /etc/numaprobe, which vanish with
# it. Needs root, unshare and overlayfs (else exit 77, with the reason).
set -euo pipefail
p=$(realpath "$1")
skip() { echo "SKIP: $*"; exit 77; }

if [ "${NPRB_SITE_NS:-}" != 1 ]; then
    [ "$(id -u)" -eq 0 ] || skip "a private mount namespace over /etc needs root"
    command -v unshare >/dev/null || skip "no unshare (util-linux)"
    before=$(ls -la /etc/numaprobe 2>&1 || true)
    rc=0
    NPRB_SITE_NS=1 unshare --mount --propagation private "$0" "$@" || rc=$?
    # Whatever happened inside, the real /etc/numaprobe is as it was.
    if [ "$(ls -la /etc/numaprobe 2>&1 || true)" != "$before" ]; then
        echo "FAIL: the test changed the machine's /etc/numaprobe"
        exit 1
    fi
    exit "$rc"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/numaprobe-site.XXXXXX")
mkdir "$work/upper" "$work/ovl" "$work/run"
mount -t overlay overlay -o "lowerdir=/etc,upperdir=$work/upper,workdir=$work/ovl" /etc ||
    skip "cannot mount an overlay over /etc here"
mkdir -p /etc/numaprobe
mount -t tmpfs -o mode=0755 site-etc /etc/numaprobe
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
seed() { "$p/bin/numaprobe" -c "$1" --show-config 2>&1 | awk '$1 == "seed:" {print $2}'; }
cd "$work/run"

# A config only the site has, and one that shadows a shipped name.
printf 'seed: 4242\n' >/etc/numaprobe/site-only.yaml
[ "$(seed site-only)" = 4242 ] || fail "-c site-only did not read /etc/numaprobe/site-only.yaml"
shipped=$(seed default)
printf 'seed: 4243\n' >/etc/numaprobe/default.yaml
[ "$(seed default)" = 4243 ] || fail "-c default did not prefer /etc/numaprobe/default.yaml"
# A file of that name in the working directory comes first; a path is never looked up.
printf 'seed: 4244\n' >default
[ "$(seed default)" = 4244 ] || fail "-c default did not prefer ./default"
rm default
out=$("$p/bin/numaprobe" -c ./default.yaml --show-config 2>&1) && fail "-c ./default.yaml: $out"
rm /etc/numaprobe/default.yaml
[ "$(seed default)" = "$shipped" ] || fail "-c default without a site copy: seed $(seed default)"
# A name found nowhere: the message names both places, and what each holds.
out=$("$p/bin/numaprobe" -c nosuch --dry-run 2>&1) && fail "-c nosuch succeeded"
grep -q "no site config of that name in /etc/numaprobe (site: site-only) and no shipped config of that name in $p/bin/../share/numaprobe/configs (shipped: default, full, health, quick, textbook)" \
    <<<"$out" || fail "-c nosuch: $out"

# References by name: the file is read from /etc/numaprobe (this one is malformed, so that the
# message shows which file was read before any results file is opened).
printf '[]\n' >/etc/numaprobe/fleet.json
out=$("$p/bin/numaprobe-report" compare --references fleet new.h5 2>&1) && rc=0 || rc=$?
if [ "$rc" -ne 2 ] || ! grep -q "/etc/numaprobe/fleet.json: references are NODE_TYPE" <<<"$out"; then
    fail "compare --references fleet (exit $rc) did not read /etc/numaprobe/fleet.json: $out"
fi
out=$("$p/bin/numaprobe-report" compare --references nosuch new.h5 2>&1) && rc=0 || rc=$?
if [ "$rc" -ne 2 ] ||
    ! grep -q "no nosuch.yaml, nosuch.yml or nosuch.json in the site's directory /etc/numaprobe" <<<"$out"; then
    fail "compare --references nosuch (exit $rc): $out"
fi

cd /
umount /etc/numaprobe
umount /etc
rm -rf "$work"
if [ "$failures" -ne 0 ]; then exit 1; fi
echo "site configs and references found by name in /etc/numaprobe, before the shipped ones"
