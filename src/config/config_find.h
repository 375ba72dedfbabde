/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file config_find.h
 * Configs by name: `-c NAME` (NAME without '/' or a .yaml/.yml suffix) is, in order, a file of
 * that name in the working directory, the site's NPRB_SITE_CONFDIR/NAME.yaml, the installation's
 * share/numaprobe/configs/NAME.yaml (default, quick, full, textbook, health) or, for an executable
 * in the build tree, the source tree's configs/NAME.yaml. Anything that looks like a path stays a
 * path.
 */
#ifndef NPRB_CONFIG_FIND_H
#define NPRB_CONFIG_FIND_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/** The site's configs and references, searched by name before the shipped ones. */
#define NPRB_SITE_CONFDIR "/etc/numaprobe"

/**
 * Where names are looked up, in order: the first @c site entries are the site's directory, the
 * rest hold shipped configs (the installation's, then the source tree's).
 */
struct nprb_config_dirs {
    size_t count;
    size_t site;
    char path[3][PATH_MAX];
};

/** The running executable's absolute path, from /proc/self/exe, in @p buf ("" when unknown).
 * @return @p buf */
const char *nprb_own_exe(char *buf, size_t len);

/** True when @p exe lies in this build's own tree (NPRB_BUILD_TREE): run uninstalled. */
bool nprb_exe_in_build_tree(const char *exe);

/** True when @p arg is a config name, not a path: no '/', no .yaml or .yml suffix. */
bool nprb_config_is_name(const char *arg);

/**
 * The directories a name is looked up in, in order, for the executable at @p exe (an absolute
 * path without symbolic links, as /proc/self/exe gives it): NPRB_SITE_CONFDIR, then
 * EXEDIR/../share/numaprobe/configs (as installed). An executable in the build tree without
 * that directory (the build's own, not an installation into the build tree) skips the site's
 * directory, so that the machine's site configs never change what the tests run, and ends with
 * the source tree's configs/.
 */
void nprb_config_dirs(const char *exe, struct nprb_config_dirs *dirs);

/**
 * Resolves the -c argument @p arg for the running executable. @return @p arg itself when it is a
 * path or an existing file (a directory is not one), else @p buf holding DIR/NAME.yaml from the
 * first directory that has it, else @p arg (reading it then fails, and nprb_config_find_hint() says
 * where it looked).
 */
const char *nprb_config_find(const char *arg, char *buf, size_t len);

/** nprb_config_find() over the directories @p dirs instead of the running executable's. */
const char *nprb_config_find_in(const struct nprb_config_dirs *dirs, const char *arg, char *buf,
                                size_t len);

/**
 * For a name that was not found: "; no site config of that name in SITE (site: NAMES) and no
 * shipped config of that name in DIRS (shipped: NAMES)" in @p buf (the site's part only where
 * the executable searches it); an empty string for a path. @return @p buf.
 */
const char *nprb_config_find_hint(const char *arg, char *buf, size_t len);

#endif
