#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# man-pages.sh PREFIX: the installed man pages, as `man -l` renders them (80 columns, no
# hyphenation or justification, so that words stay whole), read as a page should:
#  - a SYNOPSIS whose first line is the command, with every subcommand that --help names
#    ('numaprobe check', 'numaprobe-report compare', ...);
#  - no usage line left in the text, nor rendered as an option term ("[--json FILE]" as the
#    term of an option paragraph: what help2man makes of argparse's wrapped usage);
#  - no source path (docs/NAME); the DESCRIPTION points to the installed docs, and every
#    share/doc/numaprobe/NAME the page names is installed.
# A page with each of these faults, as help2man made it from argparse's help, must fail.
set -euo pipefail
prefix=$(realpath "$1")
docdir=share/doc/numaprobe
failures=0

render() { MANWIDTH=80 man --nh --nj -l -P cat "$1" 2>&1 | col -b; }
# The lines of section $2 (a .SH heading, rendered flush left) of rendered page $1.
section() { awk -v s="$2" '/^[A-Z]/ { on = ($0 == s); next } on' <<<"$1"; }

# check_page NAME PAGE HELP: prints one FAIL line per fault; returns how many.
check_page() {
    local name=$1 page=$2 help=$3 text synopsis rest bad=0 sub doc
    text=$(render "$page")
    synopsis=$(section "$text" SYNOPSIS)
    rest=$(awk '/^[A-Z]/ { on = ($0 != "SYNOPSIS" && $0 != "NAME") } on' <<<"$text")
    if [[ $(head -1 <<<"$synopsis") != "       $name "* ]]; then
        echo "FAIL: $name: no SYNOPSIS starting with $name"; bad=$((bad + 1))
    fi
    while read -r sub; do
        grep -qE "^ +$name $sub( |$)" <<<"$synopsis" ||
            { echo "FAIL: $name: SYNOPSIS lacks '$name $sub'"; bad=$((bad + 1)); }
    done < <(grep -oE "'$name [a-z]+" <<<"$help" | awk '{ print $2 }' | sort -u)
    if grep -qiE '(^|[^[:alnum:]])usage:' <<<"$text"; then
        echo "FAIL: $name: a usage line left in the page:"
        grep -iE '(^|[^[:alnum:]])usage:' <<<"$text"; bad=$((bad + 1))
    fi
    if grep -qE '^ +\[' <<<"$rest"; then
        echo "FAIL: $name: a usage line rendered as text or an option term:"
        grep -E '^ +\[' <<<"$rest"; bad=$((bad + 1))
    fi
    if grep -qE '(^|[^/[:alnum:]_.-])docs/' <<<"$text"; then
        echo "FAIL: $name: a source path (docs/):"
        grep -E '(^|[^/[:alnum:]_.-])docs/' <<<"$text"; bad=$((bad + 1))
    fi
    grep -qF "$docdir/" <<<"$(section "$text" DESCRIPTION)" ||
        { echo "FAIL: $name: the DESCRIPTION does not point to $docdir"; bad=$((bad + 1)); }
    while read -r doc; do
        [ -e "$prefix/$doc" ] || { echo "FAIL: $name names $doc, not installed"; bad=$((bad + 1)); }
    done < <(grep -oE "$docdir/[[:alnum:]_.-]*[[:alnum:]_]" <<<"$text" | sort -u)
    return "$bad"
}

for name in numaprobe numaprobe-report; do
    page=$prefix/share/man/man1/$name.1.gz
    if [ ! -f "$page" ]; then
        echo "FAIL: $page not installed (help2man missing? scripts/setup-deps --test)"
        failures=$((failures + 1))
        continue
    fi
    if check_page "$name" "$page" "$("$prefix/bin/$name" --help 2>&1)"; then
        echo "$name.1: SYNOPSIS"
        section "$(render "$page")" SYNOPSIS
        echo "  ... no usage line as an option term, no docs/ path, installed docs named"
    else
        failures=$((failures + $?))
    fi
done

# Negative control: the page help2man made from argparse's own help (usage in the DESCRIPTION,
# its wrapped lines an option term, a source path) fails on each of those.
work=$(mktemp -d "${TMPDIR:-/tmp}/numaprobe-man.XXXXXX")
trap 'rm -rf "$work"' EXIT
cat >"$work/bad.1" <<'EOF'
.TH NUMAPROBE-REPORT "1"
.SH NAME
numaprobe-report \- tables
.SH DESCRIPTION
usage: numaprobe-report [\-h] [\-\-version]
.TP
[\-\-fail\-on\-outliers] [\-\-json FILE]
FILE [FILE ...]
.PP
Tables. 'numaprobe\-report compare BASE NEW' compares two runs.
.TP
\fB\-\-json\fR FILE
the verdicts as JSON (docs/report.schema.json)
EOF
control=$(check_page numaprobe-report "$work/bad.1" "'numaprobe-report compare BASE NEW'") || true
for fault in "no SYNOPSIS" "SYNOPSIS lacks 'numaprobe-report compare'" "a usage line left" \
    "rendered as text or an option term" "a source path" "does not point to"; do
    grep -qF "$fault" <<<"$control" || {
        echo "FAIL: negative control: the faulty page passes the check for '$fault'"
        failures=$((failures + 1))
    }
done
[ "$failures" -eq 0 ] || exit 1
echo "man pages read right; the faulty page fails the $(grep -c FAIL <<<"$control") checks it should"
