#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# lmod-module.sh PREFIX WORK: the modulefiles that `cmake --install` wrote into PREFIX, unedited,
# in a copy of the whole prefix moved to WORK: `module use MOVED/share/modulefiles; module load
# numaprobe` puts the moved numaprobe on PATH, its pages on MANPATH (the system's staying
# there), its share/ on XDG_DATA_DIRS (bash-completion then loads numaprobe's completion, which
# it did not before), NUMAPROBE_ROOT=MOVED, and `module unload` takes them off again.
#   lua: the Lua file, with Lmod (which takes it over the Tcl one beside it);
#   tcl: the Tcl file, with Lmod, in a second moved copy without the Lua file (Debian's
#        environment-modules conflicts with lmod, so Lmod is what reads Tcl here);
#   tcl with Environment Modules, where its modulecmd.tcl is installed or NPRB_MODULECMD_TCL
#        names one;
#   a copy of the Lua file alone elsewhere: it falls back to PREFIX.
# 77 without Lmod.
set -euo pipefail

# ---- one check, in a clean environment: check FLAVOUR MODULEPATH FILE ROOT --------------------
if [ "${1:-}" = --check ]; then
    flavour=$2 modulepath=$3 file=$4 root=$5
    fail=0
    bad() { echo "FAIL ($flavour): $*"; fail=1; }
    if [ "$flavour" = envmodules ]; then
        module() { eval "$(tclsh "$NPRB_MODULECMD_TCL" bash "$@")"; }
    else
        # shellcheck source=/dev/null
        source /usr/share/lmod/lmod/init/bash
    fi
    # bash-completion as an interactive shell has it; its code is not written for set -u.
    set +u
    # shellcheck source=/dev/null
    source /usr/share/bash-completion/bash_completion
    set -u
    completes() {  # completes CMD FUNCTION: bash-completion's loader finds CMD's completion
        complete -r "$1" 2>/dev/null || true
        _completion_loader "$1" >/dev/null 2>&1 || true
        [[ $(complete -p "$1" 2>/dev/null) == "complete "*"-F $2 $1" ]]
    }
    # Negative control: the completion is nowhere bash-completion looks before the load.
    if completes numaprobe _numaprobe; then bad "numaprobe's completion found before the load"; fi

    module use "$modulepath"
    module load numaprobe || bad "module load numaprobe failed"
    echo "$flavour: loaded ${_LMFILES_:-nothing}"
    echo "  PATH=$PATH"
    echo "  MANPATH=${MANPATH:-}"
    echo "  XDG_DATA_DIRS=${XDG_DATA_DIRS:-}"
    echo "  NUMAPROBE_ROOT=${NUMAPROBE_ROOT:-}"
    [ "${_LMFILES_:-}" = "$file" ] || bad "loaded ${_LMFILES_:-nothing}, not $file"
    [ "${NUMAPROBE_ROOT:-}" = "$root" ] || bad "NUMAPROBE_ROOT is ${NUMAPROBE_ROOT:-unset}"
    [ "$(command -v numaprobe)" = "$root/bin/numaprobe" ] ||
        bad "numaprobe is $(command -v numaprobe)"
    [[ ${MANPATH:-} == "$root/share/man:"* ]] || bad "MANPATH is ${MANPATH:-unset}"
    [ "$(man -w numaprobe 2>&1)" = "$root/share/man/man1/numaprobe.1.gz" ] ||
        bad "man -w numaprobe: $(man -w numaprobe 2>&1)"
    man -w help2man >/dev/null 2>&1 || bad "the system's man pages are gone (man -w help2man)"
    [[ ${XDG_DATA_DIRS:-} == "$root/share:"* ]] || bad "XDG_DATA_DIRS is ${XDG_DATA_DIRS:-unset}"
    [[ :${XDG_DATA_DIRS:-}: == *:/usr/share:* ]] || bad "XDG_DATA_DIRS lost /usr/share"
    if version=$(numaprobe --version 2>&1); then
        echo "  numaprobe --version: ${version%%$'\n'*}"
    else
        bad "numaprobe --version: $version"
    fi
    completes numaprobe _numaprobe || bad "no completion for numaprobe: $(complete -p numaprobe)"
    completes numaprobe-report _numaprobe_report ||
        bad "no completion for numaprobe-report: $(complete -p numaprobe-report)"
    [ "$fail" -ne 0 ] || echo "  bash-completion loads numaprobe's and numaprobe-report's"

    module unload numaprobe || bad "module unload numaprobe failed"
    [ -z "${NUMAPROBE_ROOT:-}" ] || bad "NUMAPROBE_ROOT after unload: $NUMAPROBE_ROOT"
    for var in PATH MANPATH XDG_DATA_DIRS; do
        [[ ${!var:-} != *"$root"* ]] || bad "$var keeps $root after unload: ${!var}"
    done
    if completes numaprobe _numaprobe; then bad "numaprobe's completion found after unload"; fi
    [ "$fail" -ne 0 ] ||
        echo "  unloaded: PATH=$PATH MANPATH=${MANPATH:-} XDG_DATA_DIRS=${XDG_DATA_DIRS:-}"
    exit $fail
fi

# ---- the moved copies, and a check of each in a clean environment -----------------------------
# The prefix as installed into (the lone copy falls back to it, unresolved), and resolved.
installed=$1 prefix=$(realpath "$1") work=$2
if [ ! -f /usr/share/lmod/lmod/init/bash ]; then
    echo "SKIP: Lmod is not installed (Debian: lmod)"
    exit 77
fi
version=$("$prefix/bin/numaprobe" --version | awk 'NR == 1 { print $2 }')
rm -rf "$work" && mkdir -p "$work/home"
work=$(realpath "$work")
cp -a "$prefix" "$work/moved"
cp -a "$prefix" "$work/moved-tcl"
rm "$work/moved-tcl/share/modulefiles/numaprobe/$version.lua"
mkdir -p "$work/site/numaprobe"
cp "$prefix/share/modulefiles/numaprobe/$version.lua" "$work/site/numaprobe/"

check() {
    env -i HOME="$work/home" PATH=/usr/bin:/bin TERM=dumb LANG=C.UTF-8 \
        ${NPRB_MODULECMD_TCL:+NPRB_MODULECMD_TCL="$NPRB_MODULECMD_TCL"} bash "$0" --check "$@"
}
failures=0
mods=share/modulefiles/numaprobe
check lua "$work/moved/share/modulefiles" "$work/moved/$mods/$version.lua" "$work/moved" ||
    failures=$((failures + 1))
check tcl "$work/moved-tcl/share/modulefiles" "$work/moved-tcl/$mods/$version" \
    "$work/moved-tcl" || failures=$((failures + 1))
check copied "$work/site" "$work/site/numaprobe/$version.lua" "$installed" ||
    failures=$((failures + 1))

for tcl in "${NPRB_MODULECMD_TCL:-}" /usr/lib/x86_64-linux-gnu/modulecmd.tcl \
    /usr/share/modules/libexec/modulecmd.tcl; do
    [ -n "$tcl" ] && [ -f "$tcl" ] && break
done
if [ -n "$tcl" ] && [ -f "$tcl" ] && command -v tclsh >/dev/null; then
    NPRB_MODULECMD_TCL=$tcl check envmodules "$work/moved/share/modulefiles" \
        "$work/moved/$mods/$version" "$work/moved" || failures=$((failures + 1))
else
    echo "Environment Modules not installed: the Tcl file was loaded with Lmod only"
fi
[ "$failures" -eq 0 ] || exit 1
echo "modulefiles work from a moved prefix"
