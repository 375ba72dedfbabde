/* SPDX-License-Identifier: BSD-3-Clause */
/* Names beside an output, kept within NAME_MAX (sibling.h). */
#include "util/sibling.h"

#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The file name part of @p path (after the last '/'). */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash != NULL ? slash + 1 : path;
}

/* FNV-1a: a short, stable mark of a whole path for names cut to NAME_MAX. */
static uint64_t path_hash(const char *s)
{
    uint64_t h = UINT64_C(14695981039346656037);
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
    return h;
}

int nprb_output_sibling(const char *path, const char *suffix, char *buf, size_t len)
{
    size_t base = strlen(base_name(path)), extra = strlen(suffix);
    int n;
    if (base + extra <= NAME_MAX) {
        n = snprintf(buf, len, "%s%s", path, suffix);
    } else {
        /* "NAME-CUT~HASH16SUFFIX": unique per full name, and still NAME_MAX at most. */
        size_t keep = NAME_MAX > extra + 17 ? NAME_MAX - extra - 17 : 0;
        size_t dir = strlen(path) - base;
        n = snprintf(buf, len, "%.*s~%016" PRIx64 "%s", (int)(dir + (keep < base ? keep : base)),
                     path, path_hash(path), suffix);
    }
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

int nprb_output_temporary(const char *path, char *buf, size_t len)
{
    char suffix[32];
    snprintf(suffix, sizeof suffix, ".tmp-%ld", (long)getpid());
    return nprb_output_sibling(path, suffix, buf, len);
}
