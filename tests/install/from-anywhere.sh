#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# from-anywhere.sh PREFIX VERSION: an installation used as a site uses it. The prefix is copied
# elsewhere first (an installation must not depend on where it was installed, nor on the source
# or build tree), then, from an empty directory with only the copy's bin/ before the system's on
# PATH: the layout is complete, `numaprobe -c default --dry-run` finds the shipped config,
# numaprobe-report runs with its package, `man -l` reads both pages, and bash completes options,
# config names and --set keys.
set -euo pipefail
prefix=$(realpath "$1") version=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/numaprobe-anywhere.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -a "$prefix" "$work/moved"
p=$work/moved
mkdir "$work/empty"
cd "$work/empty"
export PATH="$p/bin:/usr/bin:/bin"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

for f in bin/numaprobe bin/numaprobe-report libexec/numaprobe/numaprobe_analysis/cli.py \
    share/numaprobe/configs/{default,quick,full,textbook,health}.yaml \
    share/numaprobe/jobs/{README.md,local.sh,slurm/numaprobe.sbatch,slurm/numaprobe-numa.sbatch} \
    share/numaprobe/jobs/{lsf/numaprobe.lsf,pbs/numaprobe.pbs,epilog/numaprobe-restore} \
    share/numaprobe/jobs/prometheus/{numaprobe-alerts.yml,numaprobe-alerts.test.yml} \
    share/doc/numaprobe/{README.md,LICENSE,SCHEMA.md,CONFIG.md,ANALYSIS.md,copyright} \
    share/doc/numaprobe/changelog.Debian.gz share/man/man1/{numaprobe,numaprobe-report}.1.gz \
    share/bash-completion/completions/{numaprobe,numaprobe-report} \
    "share/modulefiles/numaprobe/$version" "share/modulefiles/numaprobe/$version.lua"; do
    [ -e "$p/$f" ] || fail "not installed: $f"
done
for f in local.sh slurm/numaprobe.sbatch lsf/numaprobe.lsf pbs/numaprobe.pbs epilog/numaprobe-restore; do
    [ -x "$p/share/numaprobe/jobs/$f" ] || fail "job script not executable: $f"
done
[ "$(command -v numaprobe)" = "$p/bin/numaprobe" ] || fail "numaprobe on PATH is $(command -v numaprobe)"

if out=$(numaprobe -c default --dry-run 2>&1); then
    grep -q "config and plan ok" <<<"$out" || fail "numaprobe -c default --dry-run: no plan: $out"
else
    fail "numaprobe -c default --dry-run exited $?: $out"
fi
for name in quick full textbook; do
    numaprobe -c "$name" --show-config >/dev/null 2>&1 || fail "numaprobe -c $name --show-config"
done
out=$(numaprobe -c nosuch --dry-run 2>&1) && fail "numaprobe -c nosuch succeeded"
grep -q "no site config of that name in /etc/numaprobe (site: .*) and no shipped config of that name in $p/bin/../share/numaprobe/configs (shipped: default, full, health, quick, textbook)" \
    <<<"$out" || fail "numaprobe -c nosuch: $out"
out=$(numaprobe --version 2>&1) || fail "numaprobe --version exited $?"
grep -Eq "^numaprobe $version " <<<"$out" || fail "numaprobe --version: $out"

out=$(numaprobe-report --version 2>&1) || fail "numaprobe-report --version exited $?: $out"
grep -Eq "^numaprobe-report $version, reads results schema [0-9]+\.x$" <<<"$out" ||
    fail "numaprobe-report --version: $out"
out=$(numaprobe --schema 2>&1) || fail "numaprobe --schema exited $?"
grep -q '"root_attributes"' <<<"$out" || fail "numaprobe --schema: no root attributes: $out"
[ -z "$(find "$p/libexec" -name __pycache__)" ] || fail "numaprobe-report wrote __pycache__"
# Called by its path with the prefix off PATH (as numaprobe health does), numaprobe-report checks
# files with the numaprobe beside it.
numaprobe -c health -q -o "$work/health.h5" >/dev/null || fail "numaprobe -c health exited $?"
out=$(PATH=/usr/bin:/bin "$p/bin/numaprobe-report" --no-report --json "$work/health.json" \
    "$work/health.h5" 2>&1) || fail "numaprobe-report off PATH exited $?: $out"
# The alert rules as a site loads them, from the installation (promtool: Debian's prometheus).
if command -v promtool >/dev/null; then
    out=$(cd "$p/share/numaprobe/jobs/prometheus" && promtool test rules numaprobe-alerts.test.yml 2>&1) ||
        fail "the installed alert rules fail their unit tests: $out"
fi
# The epilog's command, installed: on this host no killed run left anything to put back.
out=$(numaprobe restore 2>&1) || fail "numaprobe restore exited $?: $out"
grep -q "^numaprobe restore: nothing to put back" <<<"$out" || fail "numaprobe restore: $out"
out=$(NUMAPROBE="$p/bin/numaprobe" "$p/share/numaprobe/jobs/epilog/numaprobe-restore" 2>&1) ||
    fail "the installed epilog exited $?: $out"

for page in numaprobe numaprobe-report; do
    out=$(MANPAGER=cat MANWIDTH=100 man -l "$p/share/man/man1/$page.1.gz" 2>&1) ||
        fail "man -l $page.1.gz exited $?"
    if ! grep -q "^NAME" <<<"$out" || ! grep -q -- "--help" <<<"$out"; then
        fail "man -l $page.1.gz: $out"
    fi
done

# Completion, as bash-completion loads it: a function per command, fed COMP_WORDS.
complete_words() {
    local file=$1 func=$2
    shift 2
    bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); '"$func"'
             printf "%s\n" "${COMPREPLY[@]}"' _ "$file" "$@" 2>/dev/null
}
comp=$p/share/bash-completion/completions
complete_words "$comp/numaprobe" _numaprobe numaprobe -c de | grep -qx default ||
    fail "completion: numaprobe -c de<TAB> does not give default"
complete_words "$comp/numaprobe" _numaprobe numaprobe --dry | grep -qx -- --dry-run ||
    fail "completion: numaprobe --dry<TAB> does not give --dry-run"
complete_words "$comp/numaprobe" _numaprobe numaprobe --sche | grep -qx -- --schema ||
    fail "completion: numaprobe --sche<TAB> does not give --schema"
complete_words "$comp/numaprobe" _numaprobe numaprobe --set latency_matrix.si |
    grep -qx "latency_matrix.size=" || fail "completion: --set latency_matrix.si<TAB>"
complete_words "$comp/numaprobe" _numaprobe numaprobe res | grep -qx restore ||
    fail "completion: numaprobe res<TAB> does not give restore"
complete_words "$comp/numaprobe-report" _numaprobe_report numaprobe-report --ver |
    grep -qx -- --version || fail "completion: numaprobe-report --ver<TAB>"

if [ "$failures" -ne 0 ]; then exit 1; fi
echo "installation at $prefix works from $work/moved, with only its bin/ added to PATH"
