/* SPDX-License-Identifier: BSD-3-Clause */
#include "host/sole_node.h"

#include <errno.h>
#include <numaif.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int sole = -1;

/* The online nodes as sysfs lists them ("0", "0-1", "0,2"): the node when there is exactly one.
 * A kernel without NUMA has no node directory at all, and all its memory is node 0. */
static int one_online_node(void)
{
    FILE *f = fopen("/sys/devices/system/node/online", "r");
    if (f == NULL)
        return errno == ENOENT ? 0 : -1;
    char line[64] = "";
    char *got = fgets(line, sizeof line, f);
    fclose(f);
    if (got == NULL)
        return -1;
    char *end = NULL;
    long node = strtol(line, &end, 10);
    if (end == line || (*end != '\n' && *end != '\0') || node < 0)
        return -1;
    return (int)node;
}

static void ask(void)
{
    int mode = 0;
    if (get_mempolicy(&mode, NULL, 0, NULL, 0) == 0 || errno != ENOSYS)
        return;
    sole = one_online_node();
}

int nprb_sole_node(void)
{
    pthread_once(&once, ask);
    return sole;
}
