#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# shipped-configs.sh NUMAPROBE ROOT: every config in ROOT/configs validates, without measuring.
#   --show-config  parses it (keys, types, ranges): must exit 0 and echo every experiment;
#   --dry-run      plans it on this host: must exit 0, except that a config for big machines
#                  (the textbook's 16 GiB per pair) may be refused here, exit 2, only because a
#                  size exceeds this host's NUMA node (the message says which).
# configs/quick.yaml must plan here without any refusal and equal the built-in defaults. A
# known-bad config must be rejected by the same checks (the negative control).
set -euo pipefail
exe=$1 root=$2
fail=0
# Every section the program has (each experiment's, memory.*, counters.*), as its key reference
# names them: a new experiment is checked with no line here.
mapfile -t sections < <("$exe" --config-reference | awk '$1 ~ /^[a-z0-9_]+\./ {
    sub(/\..*/, "", $1); if (!seen[$1]++) print $1 }')
if [ "${#sections[@]}" -lt 3 ]; then
    echo "FAIL: --config-reference names ${#sections[@]} section(s): ${sections[*]}"
    exit 1
fi

# validate CONFIG: 0 when it passes, 1 with the reason on stdout when not.
validate() {
    local config=$1 out rc=0
    out=$("$exe" --show-config -c "$config" 2>&1) || rc=$?
    if [ "$rc" -ne 0 ]; then echo "--show-config exit $rc: $out"; return 1; fi
    local s
    for s in "${sections[@]}"; do
        grep -q "^$s:$" <<<"$out" || { echo "--show-config does not echo section $s"; return 1; }
    done
    rc=0
    out=$("$exe" --dry-run -c "$config" 2>&1) || rc=$?
    if [ "$rc" -eq 0 ] && grep -q "^config and plan ok on 1 host" <<<"$out"; then
        return 0
    fi
    if [ "$rc" -eq 2 ] && grep -Eq "is larger than NUMA node [0-9]+'s memory" <<<"$out" &&
        [ "$(basename "$config")" != quick.yaml ]; then
        echo "note: $(basename "$config") is valid but too big for this host: $(tail -1 <<<"$out")" >&2
        return 0
    fi
    echo "--dry-run exit $rc: $out"
    return 1
}

shopt -s nullglob
configs=("$root"/configs/*.yaml)
for want in quick default full textbook; do
    [ -f "$root/configs/$want.yaml" ] || { echo "FAIL: configs/$want.yaml missing"; fail=1; }
done
for config in "${configs[@]}"; do
    if why=$(validate "$config"); then
        echo "ok: $(basename "$config")"
    else
        echo "FAIL: $(basename "$config"): $why"
        fail=1
    fi
done
# quick.yaml is what numaprobe does without -c (--help and config.h say so).
if [ "$("$exe" --show-config)" != "$("$exe" --show-config -c "$root/configs/quick.yaml")" ]; then
    echo "FAIL: configs/quick.yaml differs from the built-in defaults:"
    diff <("$exe" --show-config) <("$exe" --show-config -c "$root/configs/quick.yaml") || true
    fail=1
fi
# The job scripts' default config, a shipped config by name, must exist (the epilog measures
# nothing and takes no config; the nightly systemd units run the nightly script, which names it;
# the Prometheus rules are no script).
for script in "$root"/jobs/local.sh "$root"/jobs/*/numaprobe*; do
    # The health check measures with numaprobe health, whose config is its own (health).
    case $script in */jobs/epilog/* | */jobs/prometheus/* | */jobs/nhc/* | *.service.in | *.timer | *-healthcheck) continue ;; esac
    default=$(grep -o 'NUMAPROBE_CONFIG:-[a-z]*}' "$script" | head -1 | sed 's/.*:-//; s/}//')
    if [ -z "$default" ] || [ ! -f "$root/configs/$default.yaml" ]; then
        echo "FAIL: $script: default config '${default:-none}' not in the repository"
        fail=1
    fi
done
if validate "$root/tests/config_errors/unknown-key.yaml" >/dev/null; then
    echo "FAIL: negative control: tests/config_errors/unknown-key.yaml passed validation"
    fail=1
fi
exit $fail
