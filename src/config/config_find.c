/* SPDX-License-Identifier: BSD-3-Clause */
/* Configs by name (config_find.h): the site's directory, then the shipped configs of this
 * executable. The shipped directories come from the executable's own path, so an installation
 * can be moved (a prefix copied elsewhere, a package installed under /usr) and still finds its
 * configs; the site's is one fixed place, shared by every installation on the machine. */
#include "config/config_find.h"

#include "build_facts.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

bool nprb_config_is_name(const char *arg)
{
    return arg[0] != '\0' && strchr(arg, '/') == NULL && !ends_with(arg, ".yaml") &&
           !ends_with(arg, ".yml");
}

const char *nprb_own_exe(char *buf, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    buf[n > 0 ? n : 0] = '\0';
    return buf;
}

bool nprb_exe_in_build_tree(const char *exe)
{
    size_t tree = strlen(NPRB_BUILD_TREE);
    return strncmp(exe, NPRB_BUILD_TREE, tree) == 0 && exe[tree] == '/';
}

void nprb_config_dirs(const char *exe, struct nprb_config_dirs *dirs)
{
    /* The shipped configs beside the executable, as installed. */
    char beside[PATH_MAX] = "";
    const char *slash = strrchr(exe, '/');
    if (slash != NULL) {
        int n = snprintf(beside, sizeof beside, "%.*s/%s", (int)(slash - exe), exe,
                         NPRB_CONFIGS_FROM_BINDIR);
        if (n <= 0 || (size_t)n >= sizeof beside)
            beside[0] = '\0';
    }
    /* Running from a build: the configs are the source tree's, not yet installed anywhere. An
     * installation into a directory of the build tree (the install tests' prefix) has its own. */
    bool in_build = nprb_exe_in_build_tree(exe) && (beside[0] == '\0' || access(beside, F_OK) != 0);
    dirs->count = 0;
    if (!in_build)
        snprintf(dirs->path[dirs->count++], sizeof dirs->path[0], "%s", NPRB_SITE_CONFDIR);
    dirs->site = dirs->count;
    if (beside[0] != '\0')
        snprintf(dirs->path[dirs->count++], sizeof dirs->path[0], "%s", beside);
    if (in_build)
        snprintf(dirs->path[dirs->count++], sizeof dirs->path[0], "%s", NPRB_SOURCE_CONFIGS);
}

static void own_dirs(struct nprb_config_dirs *dirs)
{
    char exe[PATH_MAX];
    nprb_config_dirs(nprb_own_exe(exe, sizeof exe), dirs);
}

/* Whether @p path is there and could be a config: a directory never is, so a directory that
 * happens to share a shipped config's name does not hide that config. */
static bool maybe_config(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

const char *nprb_config_find_in(const struct nprb_config_dirs *dirs, const char *arg, char *buf,
                                size_t len)
{
    if (!nprb_config_is_name(arg) || maybe_config(arg))
        return arg;
    for (size_t i = 0; i < dirs->count; i++) {
        int n = snprintf(buf, len, "%s/%s.yaml", dirs->path[i], arg);
        if (n > 0 && (size_t)n < len && maybe_config(buf) && access(buf, R_OK) == 0)
            return buf;
    }
    return arg;
}

const char *nprb_config_find(const char *arg, char *buf, size_t len)
{
    struct nprb_config_dirs dirs;
    own_dirs(&dirs);
    return nprb_config_find_in(&dirs, arg, buf, len);
}

static int is_yaml(const struct dirent *e)
{
    return e->d_name[0] != '.' && ends_with(e->d_name, ".yaml");
}

/* Appends the NAME of every NAME.yaml in @p dir, sorted, to @p buf (at @p used). */
static size_t list_names(const char *dir, char *buf, size_t len, size_t used)
{
    struct dirent **entries;
    int count = scandir(dir, &entries, is_yaml, alphasort);
    for (int i = 0; i < count; i++) {
        const char *name = entries[i]->d_name;
        int n = used < len ? snprintf(buf + used, len - used, "%s%.*s", used ? ", " : "",
                                      (int)(strlen(name) - strlen(".yaml")), name)
                           : 0;
        if (n > 0)
            used += (size_t)n;
        free(entries[i]);
    }
    if (count >= 0)
        free(entries);
    return used;
}

/* Writes "DIR, DIR" (the directories of @p dirs from @p from to @p to that exist; all of them
 * when none does: a broken installation) to @p where, and their NAMEs to @p names. @return the
 * length of the names. */
static size_t describe(const struct nprb_config_dirs *dirs, size_t from, size_t to, char *where,
                       size_t wherelen, char *names, size_t nameslen)
{
    bool any = false;
    for (size_t i = from; i < to; i++)
        any = any || access(dirs->path[i], F_OK) == 0;
    size_t used = 0;
    where[0] = names[0] = '\0';
    for (size_t i = from; i < to; i++) {
        if (any && access(dirs->path[i], F_OK) != 0)
            continue;
        snprintf(where + strlen(where), wherelen - strlen(where), "%s%s", where[0] ? ", " : "",
                 dirs->path[i]);
        used = list_names(dirs->path[i], names, nameslen, used);
    }
    return used;
}

const char *nprb_config_find_hint(const char *arg, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!nprb_config_is_name(arg) || len == 0)
        return buf;
    struct nprb_config_dirs dirs;
    own_dirs(&dirs);
    char where[2 * PATH_MAX + 8], names[512], site[PATH_MAX + 8] = "", site_names[512];
    if (dirs.site > 0 &&
        describe(&dirs, 0, dirs.site, where, sizeof where, site_names, sizeof site_names) == 0)
        snprintf(site_names, sizeof site_names, "none");
    if (dirs.site > 0)
        snprintf(site, sizeof site, "%s", where);
    size_t shipped =
        describe(&dirs, dirs.site, dirs.count, where, sizeof where, names, sizeof names);
    int n = 0;
    if (dirs.site > 0)
        n = snprintf(buf, len, "; no site config of that name in %s (site: %s)", site, site_names);
    if (n >= 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, "%sno shipped config of that name in %s (shipped: %s)",
                 n > 0 ? " and " : "; ", dirs.count > dirs.site ? where : "(none found)",
                 shipped ? names : "none");
    return buf;
}
