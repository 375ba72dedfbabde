#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# config-doc.sh NUMAPROBE DOC [--write]: the generated block of DOC is exactly what numaprobe
# prints, so the document cannot drift from the table in the code it comes from: the key
# reference in docs/CONFIG.md (`numaprobe --config-reference`, inside a ```text fence) and the
# experiments in docs/EXPERIMENTS.md (`numaprobe --experiments`, Markdown as printed, each
# experiment's .about). The block sits between the lines "<!-- begin: numaprobe OPTION -->" and
# "<!-- end: numaprobe OPTION -->", which also say which option makes it.
# --write replaces it with the binary's output instead of comparing.
set -euo pipefail
exe=$1 doc=$2
opt=$(sed -n 's/^<!-- begin: numaprobe \(--[a-z-]*\) -->$/\1/p' "$doc" | head -n 1)
# shellcheck disable=SC2016 # the backticks are Markdown's
case $opt in
--config-reference) fence=text first='^latency_matrix\.size ' ;;
--experiments) fence='' first='^| `latency_matrix` | ' ;;
*)
    echo "FAIL: $doc has no begin marker of --config-reference or --experiments"
    exit 1
    ;;
esac
begin="<!-- begin: numaprobe $opt -->"
end="<!-- end: numaprobe $opt -->"
ref=$("$exe" "$opt")
if [ "$(grep -cxF -- "$begin" "$doc")" != 1 ] || [ "$(grep -cxF -- "$end" "$doc")" != 1 ]; then
    echo "FAIL: $doc must hold the begin and end markers once each"
    exit 1
fi
if [ "${3:-}" = --write ]; then
    tmp=$(mktemp)
    awk -v b="$begin" -v e="$end" -v ref="$ref" -v fence="$fence" '
        $0 == b { print; if (fence != "") print "```" fence; print ref; if (fence != "") print "```"
                  skip = 1; next }
        $0 == e { skip = 0 }
        !skip' "$doc" >"$tmp"
    cat "$tmp" >"$doc"
    rm -f "$tmp"
    exit 0
fi
documented=$(awk -v b="$begin" -v e="$end" '$0 == e { on = 0 } on; $0 == b { on = 1 }' "$doc")
if [ -n "$fence" ]; then
    documented=$(sed "1{/^\`\`\`$fence\$/d}; \${/^\`\`\`\$/d}" <<<"$documented")
fi
if ! grep -q -- "$first" <<<"$documented"; then
    echo "FAIL: no numaprobe $opt between the markers of $doc"
    exit 1
fi
if [ "$documented" != "$ref" ]; then
    echo "FAIL: $doc differs from numaprobe $opt; regenerate it with"
    echo "  tests/jobs/config-doc.sh build/dev/src/numaprobe $doc --write"
    diff <(echo "$documented") <(echo "$ref") || true
    exit 1
fi
echo "$doc matches numaprobe $opt ($(wc -l <<<"$ref") lines)"
