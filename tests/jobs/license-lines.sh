#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# license-lines.sh SOURCE_DIR: every tracked source file (C, headers and their templates, Python,
# shell, CMake, job scripts, anything executable with a #! line) names its license in an SPDX line
# near its top, as LICENSE (BSD-3-Clause) asks of a file a site copies out on its own. Data files
# (configs, topologies, corpora, docs) are left out.
set -euo pipefail
cd "$1"
missing=0 checked=0
while IFS= read -r f; do
    case $f in
    fuzz/corpus/* | tests/topologies/* | tests/config_errors/*) continue ;;
    *.c | *.h | *.h.in | *.py | *.sh | *.cmake | */CMakeLists.txt | CMakeLists.txt | *.sbatch | \
        *.lsf | *.pbs | *.lua) ;;
    *) [ "$(head -c 2 "$f" 2>/dev/null)" = '#!' ] || continue ;;
    esac
    checked=$((checked + 1))
    if ! head -n 5 "$f" | grep -q 'SPDX-License-Identifier: BSD-3-Clause'; then
        echo "no SPDX line: $f"
        missing=$((missing + 1))
    fi
done < <(git ls-files)
echo "$checked source files checked, $missing without an SPDX line"
[ "$checked" -gt 100 ] && [ "$missing" -eq 0 ]
