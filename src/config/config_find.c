/* SPDX-License-Identifier: BSD-3-Clause */
/* Configs by name (config_find.h): where the shipped configs of this executable are. The
 * directories come from the executable's own path, so an installation can be moved (a prefix
 * copied elsewhere, a package installed under /usr) and still finds its configs. */
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

void nprb_config_dirs(const char *exe, struct nprb_config_dirs *dirs)
{
    dirs->count = 0;
    const char *slash = strrchr(exe, '/');
    if (slash != NULL) {
        int n = snprintf(dirs->path[dirs->count], sizeof dirs->path[0], "%.*s/%s",
                         (int)(slash - exe), exe, NPRB_CONFIGS_FROM_BINDIR);
        if (n > 0 && (size_t)n < sizeof dirs->path[0])
            dirs->count++;
    }
    /* Running from a build: the configs are the source tree's, not yet installed anywhere. */
    size_t tree = strlen(NPRB_BUILD_TREE);
    if (strncmp(exe, NPRB_BUILD_TREE, tree) == 0 && exe[tree] == '/')
        snprintf(dirs->path[dirs->count++], sizeof dirs->path[0], "%s", NPRB_SOURCE_CONFIGS);
}

static void own_dirs(struct nprb_config_dirs *dirs)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    nprb_config_dirs(exe, dirs);
}

/* Whether @p path is there and could be a config: a directory never is, so a directory that
 * happens to share a shipped config's name does not hide that config. */
static bool maybe_config(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

const char *nprb_config_find(const char *arg, char *buf, size_t len)
{
    if (!nprb_config_is_name(arg) || maybe_config(arg))
        return arg;
    struct nprb_config_dirs dirs;
    own_dirs(&dirs);
    for (size_t i = 0; i < dirs.count; i++) {
        int n = snprintf(buf, len, "%s/%s.yaml", dirs.path[i], arg);
        if (n > 0 && (size_t)n < len && maybe_config(buf) && access(buf, R_OK) == 0)
            return buf;
    }
    return arg;
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

const char *nprb_config_find_hint(const char *arg, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!nprb_config_is_name(arg) || len == 0)
        return buf;
    struct nprb_config_dirs dirs;
    own_dirs(&dirs);
    char where[2 * PATH_MAX + 8] = "", names[512] = "";
    size_t used = 0;
    /* The directories that exist; all of them when none does (a broken installation). */
    bool any = false;
    for (size_t i = 0; i < dirs.count; i++)
        any = any || access(dirs.path[i], F_OK) == 0;
    for (size_t i = 0; i < dirs.count; i++) {
        if (any && access(dirs.path[i], F_OK) != 0)
            continue;
        snprintf(where + strlen(where), sizeof where - strlen(where), "%s%s", where[0] ? ", " : "",
                 dirs.path[i]);
        used = list_names(dirs.path[i], names, sizeof names, used);
    }
    snprintf(buf, len, "; no shipped config of that name in %s (shipped: %s)",
             dirs.count ? where : "(none found)", used ? names : "none");
    return buf;
}
