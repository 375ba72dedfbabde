/* SPDX-License-Identifier: BSD-3-Clause */
/* Configs by name (config_find.h): what is a name, where names are looked up for an installed
 * and a build-tree executable, and the resolution of this test program (in the build tree). */
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

    /* Installed: beside the executable only, whatever the prefix. */
    struct nprb_config_dirs dirs;
    nprb_config_dirs("/opt/numaprobe/0.2.0/bin/numaprobe", &dirs);
    CHECK(dirs.count == 1);
    CHECK(strcmp(dirs.path[0], "/opt/numaprobe/0.2.0/bin/" NPRB_CONFIGS_FROM_BINDIR) == 0);
    CHECK(strcmp(NPRB_CONFIGS_FROM_BINDIR, "../share/numaprobe/configs") == 0);

    /* In the build tree: the source tree's configs too; a sibling directory that merely starts
     * with the build tree's name is not in it. */
    nprb_config_dirs(NPRB_BUILD_TREE "/src/numaprobe", &dirs);
    CHECK(dirs.count == 2);
    CHECK(strcmp(dirs.path[1], NPRB_SOURCE_CONFIGS) == 0);
    nprb_config_dirs(NPRB_BUILD_TREE "-other/src/numaprobe", &dirs);
    CHECK(dirs.count == 1);

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

    char hint[1024];
    CHECK_STR_CONTAINS(nprb_config_find_hint(missing, hint, sizeof hint),
                       "no shipped config of that name in " NPRB_SOURCE_CONFIGS);
    CHECK_STR_CONTAINS(hint, "(shipped: default, full, quick, textbook)");
    CHECK(strcmp(nprb_config_find_hint("/no/such.yaml", hint, sizeof hint), "") == 0);
    return CHECK_DONE();
}
