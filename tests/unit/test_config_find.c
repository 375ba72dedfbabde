/* SPDX-License-Identifier: BSD-3-Clause */
/* Configs by name (config_find.h): what is a name, where names are looked up for an installed
 * and a build-tree executable, the site's directory before the shipped one, and the resolution
 * of this test program (in the build tree). */
#include "build_facts.h"
#include "check.h"
#include "config/config_find.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void)
{
    CHECK(nprb_config_is_name("default"));
    CHECK(nprb_config_is_name("site-large"));
    CHECK(!nprb_config_is_name("configs/default.yaml"));
    CHECK(!nprb_config_is_name("./default"));
    CHECK(!nprb_config_is_name("/etc/numaprobe/default"));
    CHECK(!nprb_config_is_name("default.yaml"));
    CHECK(!nprb_config_is_name("mine.yml"));
    CHECK(!nprb_config_is_name(""));

    /* Installed: the site's directory first, then beside the executable, whatever the prefix. */
    struct nprb_config_dirs dirs;
    nprb_config_dirs("/opt/numaprobe/0.2.0/bin/numaprobe", &dirs);
    CHECK(dirs.count == 2 && dirs.site == 1);
    CHECK(strcmp(dirs.path[0], "/etc/numaprobe") == 0);
    CHECK(strcmp(dirs.path[1], "/opt/numaprobe/0.2.0/bin/" NPRB_CONFIGS_FROM_BINDIR) == 0);
    CHECK(strcmp(NPRB_CONFIGS_FROM_BINDIR, "../share/numaprobe/configs") == 0);

    /* In the build tree: no site directory (the machine's site configs must not change what the
     * tests run), the source tree's configs last; a sibling directory that merely starts with
     * the build tree's name is not in it. */
    nprb_config_dirs(NPRB_BUILD_TREE "/src/numaprobe", &dirs);
    CHECK(dirs.count == 2 && dirs.site == 0);
    CHECK(strcmp(dirs.path[1], NPRB_SOURCE_CONFIGS) == 0);
    nprb_config_dirs(NPRB_BUILD_TREE "-other/src/numaprobe", &dirs);
    CHECK(dirs.count == 2 && dirs.site == 1 && strcmp(dirs.path[0], NPRB_SITE_CONFDIR) == 0);

    /* This program runs from the build tree: names resolve to the source tree's files. */
    char buf[PATH_MAX];
    const char *found = nprb_config_find("textbook", buf, sizeof buf);
    CHECK(found == buf);
    CHECK(strcmp(found, NPRB_SOURCE_CONFIGS "/textbook.yaml") == 0);
    const char *path = "configs/textbook.yaml"; /* a path stays the path, found or not */
    CHECK(nprb_config_find(path, buf, sizeof buf) == path);
    const char *missing = "no-such-config";
    CHECK(nprb_config_find(missing, buf, sizeof buf) == missing);

    /* A file of that name here is taken as the config; a directory is not a config and never
     * hides the shipped one. */
    char here[PATH_MAX], dir[] = "/tmp/nprb-config-find-XXXXXX";
    CHECK(getcwd(here, sizeof here) != NULL && mkdtemp(dir) != NULL && chdir(dir) == 0);
    CHECK(mkdir("textbook", 0700) == 0);
    found = nprb_config_find("textbook", buf, sizeof buf);
    CHECK(found == buf && strcmp(found, NPRB_SOURCE_CONFIGS "/textbook.yaml") == 0);
    FILE *f = fopen("quick", "w");
    CHECK(f != NULL && fclose(f) == 0);
    CHECK(strcmp(nprb_config_find("quick", buf, sizeof buf), "quick") == 0);
    CHECK(unlink("quick") == 0 && rmdir("textbook") == 0 && chdir(here) == 0 && rmdir(dir) == 0);

    /* A site's directory comes before the shipped configs: its quick.yaml wins, and a name it
     * lacks is still found among the shipped ones. */
    char site[] = "/tmp/nprb-config-site-XXXXXX", site_quick[PATH_MAX];
    CHECK(mkdtemp(site) != NULL);
    snprintf(site_quick, sizeof site_quick, "%s/quick.yaml", site);
    f = fopen(site_quick, "w");
    CHECK(f != NULL && fputs("seed: 7\n", f) >= 0 && fclose(f) == 0);
    struct nprb_config_dirs with_site = {.count = 2, .site = 1};
    snprintf(with_site.path[0], sizeof with_site.path[0], "%s", site);
    snprintf(with_site.path[1], sizeof with_site.path[1], "%s", NPRB_SOURCE_CONFIGS);
    CHECK(strcmp(nprb_config_find_in(&with_site, "quick", buf, sizeof buf), site_quick) == 0);
    CHECK(strcmp(nprb_config_find_in(&with_site, "textbook", buf, sizeof buf),
                 NPRB_SOURCE_CONFIGS "/textbook.yaml") == 0);
    CHECK(unlink(site_quick) == 0);
    CHECK(strcmp(nprb_config_find_in(&with_site, "quick", buf, sizeof buf),
                 NPRB_SOURCE_CONFIGS "/quick.yaml") == 0);
    CHECK(rmdir(site) == 0);

    char hint[1024];
    CHECK_STR_CONTAINS(nprb_config_find_hint(missing, hint, sizeof hint),
                       "no shipped config of that name in " NPRB_SOURCE_CONFIGS);
    CHECK_STR_CONTAINS(hint, "(shipped: default, full, health, quick, textbook)");
    CHECK(strstr(hint, NPRB_SITE_CONFDIR) == NULL); /* a build-tree executable never looks there */
    CHECK(strcmp(nprb_config_find_hint("/no/such.yaml", hint, sizeof hint), "") == 0);
    return CHECK_DONE();
}
