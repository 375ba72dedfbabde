#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# config-doc.sh NUMAPROBE DOC [--write]: the key reference in docs/CONFIG.md is exactly what
# `numaprobe --config-reference` prints, so the document cannot drift from the key table.
# The reference sits between the lines "<!-- begin: numaprobe --config-reference -->" and
# "<!-- end: numaprobe --config-reference -->", inside a ```text fence.
# --write replaces it with the binary's output instead of comparing.
set -euo pipefail
exe=$1 doc=$2
begin='<!-- begin: numaprobe --config-reference -->'
end='<!-- end: numaprobe --config-reference -->'
ref=$("$exe" --config-reference)
if [ "$(grep -cxF -- "$begin" "$doc")" != 1 ] || [ "$(grep -cxF -- "$end" "$doc")" != 1 ]; then
    echo "FAIL: $doc must hold the begin and end markers once each"
    exit 1
fi
if [ "${3:-}" = --write ]; then
    tmp=$(mktemp)
    awk -v b="$begin" -v e="$end" -v ref="$ref" '
        $0 == b { print; print "```text"; print ref; print "```"; skip = 1; next }
        $0 == e { skip = 0 }
        !skip' "$doc" >"$tmp"
    cat "$tmp" >"$doc"
    rm -f "$tmp"
    exit 0
fi
documented=$(awk -v b="$begin" -v e="$end" '$0 == e { on = 0 } on; $0 == b { on = 1 }' "$doc" |
    sed '1{/^```text$/d}; ${/^```$/d}')
if ! grep -q '^latency_matrix\.size ' <<<"$documented"; then
    echo "FAIL: no reference between the markers of $doc"
    exit 1
fi
if [ "$documented" != "$ref" ]; then
    echo "FAIL: $doc differs from numaprobe --config-reference; regenerate it with"
    echo "  tests/jobs/config-doc.sh build/dev/src/numaprobe docs/CONFIG.md --write"
    diff <(echo "$documented") <(echo "$ref") || true
    exit 1
fi
echo "$doc matches numaprobe --config-reference ($(wc -l <<<"$ref") lines)"
