/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file config_find.h
 * Configs by name: `-c default` (also quick, full, textbook, or any NAME.yaml shipped) is found
 * in the installation's share/numaprobe/configs, or, for an executable in the build tree, in the
 * source tree's configs/. Anything that looks like a path stays a path.
 */
#ifndef NPRB_CONFIG_FIND_H
#define NPRB_CONFIG_FIND_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/** Where names are looked up: at most the installation's directory and the source tree's. */
struct nprb_config_dirs {
    size_t count;
    char path[2][PATH_MAX];
};

/** True when @p arg is a config name, not a path: no '/', no .yaml or .yml suffix. */
bool nprb_config_is_name(const char *arg);

/**
 * The directories a name is looked up in, in order, for the executable at @p exe (an absolute
 * path without symbolic links, as /proc/self/exe gives it): EXEDIR/../share/numaprobe/configs
 * (as installed), then the source tree's configs/ when @p exe is in the build tree.
 */
void nprb_config_dirs(const char *exe, struct nprb_config_dirs *dirs);

/**
 * Resolves the -c argument @p arg for the running executable. @return @p arg itself when it is a
 * path or an existing file (a directory is not one), else @p buf holding DIR/NAME.yaml from the
 * first directory that has it, else @p arg (reading it then fails, and nprb_config_find_hint() says
 * where it looked).
 */
const char *nprb_config_find(const char *arg, char *buf, size_t len);

/**
 * For a name that was not found: "; no shipped config of that name in DIRS (shipped: NAMES)"
 * in @p buf; an empty string for a path. @return @p buf.
 */
const char *nprb_config_find_hint(const char *arg, char *buf, size_t len);

#endif
