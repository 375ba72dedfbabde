/* SPDX-License-Identifier: BSD-3-Clause */
/* Comma-separated lists, read in place (list.h). */
#include "util/list.h"

#include <string.h>

bool nprb_list_next(const char **cursor, const char **item, size_t *len)
{
    const char *p = *cursor;
    if (p == NULL)
        return false;
    const char *comma = strchr(p, ',');
    size_t n = comma != NULL ? (size_t)(comma - p) : strlen(p);
    while (n > 0 && *p == ' ') {
        p++;
        n--;
    }
    while (n > 0 && p[n - 1] == ' ')
        n--;
    *item = p;
    *len = n;
    *cursor = comma != NULL ? comma + 1 : NULL;
    return true;
}

bool nprb_list_has(const char *list, const char *name)
{
    const char *item;
    size_t n;
    for (const char *cursor = list; nprb_list_next(&cursor, &item, &n);)
        if (n == strlen(name) && strncmp(item, name, n) == 0)
            return true;
    return false;
}
