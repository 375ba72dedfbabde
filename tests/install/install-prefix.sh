#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# install-prefix.sh BUILD_DIR PREFIX: `cmake --install` of the build into a fresh PREFIX. The
# fixture of the install.* tests and of slurm.installed_from_anywhere.
set -euo pipefail
build=$1 prefix=$2
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix"
