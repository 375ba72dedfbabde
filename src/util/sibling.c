/* SPDX-License-Identifier: BSD-3-Clause */
/* Names beside an output, kept within NAME_MAX (sibling.h). */
#include "util/sibling.h"

#include "util/hash.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The file name part of @p path (after the last '/'). */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash != NULL ? slash + 1 : path;
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
                     path, nprb_fnv1a_text(path), suffix);
    }
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

int nprb_output_temporary(const char *path, char *buf, size_t len)
{
    char suffix[32];
    snprintf(suffix, sizeof suffix, ".tmp-%ld", (long)getpid());
    return nprb_output_sibling(path, suffix, buf, len);
}

int nprb_output_replace(const char *path, int (*fill)(FILE *out, void *arg), void *arg,
                        unsigned mode)
{
    char tmp[PATH_MAX];
    if (nprb_output_temporary(path, tmp, sizeof tmp) != 0) {
        errno = ENAMETOOLONG;
        return -1;
    }
    FILE *f = fopen(tmp, "w");
    if (f == NULL)
        return -1;
    errno = 0;
    int rc = (mode == 0 || fchmod(fileno(f), (mode_t)mode) == 0) && fill(f, arg) == 0 &&
                     fflush(f) == 0 && fsync(fileno(f)) == 0
                 ? 0
                 : -1;
    int e = errno != 0 ? errno : EIO;
    if (fclose(f) != 0 && rc == 0) {
        rc = -1;
        e = errno != 0 ? errno : EIO;
    }
    if (rc == 0 && rename(tmp, path) != 0) {
        rc = -1;
        e = errno;
    }
    if (rc != 0) {
        unlink(tmp);
        errno = e;
    }
    return rc;
}
