#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Every module says what it owns before anything else (docs/ARCHITECTURE.md): each header of
# src/ opens, after its license line, with a comment, and so does each .c file without a header
# of its own (an experiment, main.c). No file of src/ is longer than 600 lines.
# Usage: module_comments.sh SOURCE_DIR
set -euo pipefail
cd "$1/src"
bad=0
for f in $(find . -name '*.[ch]' | sort); do
    f=${f#./}
    if [[ $f == *.c && -e ${f%.c}.h ]]; then
        : # the header opens with the module's comment
    elif [[ $(sed -n 2p "$f") != "/*"* ]]; then
        echo "FAIL: $f does not open with a comment saying what it owns"
        bad=$((bad + 1))
    fi
    lines=$(wc -l <"$f")
    if ((lines > 600)); then
        echo "FAIL: $f has $lines lines (at most 600)"
        bad=$((bad + 1))
    fi
done
((bad == 0)) && echo "ok: every module opens with what it owns, and no file is over 600 lines"
((bad == 0))
