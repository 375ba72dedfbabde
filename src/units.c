#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct suffix {
    const char *name;
    unsigned shift;
};

/* Memory sizes are binary whatever the spelling: "1GB" of a NUMA node is 2^30 bytes to everybody
 * reading numactl or hwloc output, so accepting it as 10^9 would surprise more than it helps. */
static const struct suffix size_suffixes[] = {
    {"", 0},     {"b", 0},  {"k", 10},  {"kb", 10},  {"kib", 10}, {"m", 20},  {"mb", 20},
    {"mib", 20}, {"g", 30}, {"gb", 30}, {"gib", 30}, {"t", 40},   {"tb", 40}, {"tib", 40},
};

static const char *skip_blanks(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

/* Copies the suffix without trailing blanks; fails when it does not fit. */
static int trimmed_suffix(const char *s, char *out, size_t len)
{
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        n--;
    if (n >= len)
        return -1;
    memcpy(out, s, n);
    out[n] = '\0';
    return 0;
}

int nprb_parse_size(const char *text, uint64_t *bytes)
{
    const char *s = skip_blanks(text);
    if (!isdigit((unsigned char)*s)) {
        errno = EINVAL;
        return -1;
    }
    errno = 0;
    char *end;
    unsigned long long value = strtoull(s, &end, 10);
    if (errno == ERANGE)
        return -1;
    char suffix[8];
    if (trimmed_suffix(skip_blanks(end), suffix, sizeof suffix) != 0) {
        errno = EINVAL;
        return -1;
    }
    for (size_t i = 0; i < sizeof size_suffixes / sizeof size_suffixes[0]; i++) {
        if (strcasecmp(suffix, size_suffixes[i].name) != 0)
            continue;
        unsigned shift = size_suffixes[i].shift;
        if (shift > 0 && value > (UINT64_MAX >> shift)) {
            errno = ERANGE;
            return -1;
        }
        *bytes = (uint64_t)value << shift;
        return 0;
    }
    errno = EINVAL;
    return -1;
}

struct time_suffix {
    const char *name;
    double seconds;
};

static const struct time_suffix time_suffixes[] = {
    {"", 1.0}, {"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"min", 60.0},
};

int nprb_parse_duration(const char *text, double *seconds)
{
    const char *s = skip_blanks(text);
    if (!isdigit((unsigned char)*s) && *s != '.') {
        errno = EINVAL;
        return -1;
    }
    errno = 0;
    char *end;
    double value = strtod(s, &end);
    if (errno == ERANGE || !isfinite(value)) {
        errno = ERANGE;
        return -1;
    }
    char suffix[8];
    if (end == s || trimmed_suffix(skip_blanks(end), suffix, sizeof suffix) != 0) {
        errno = EINVAL;
        return -1;
    }
    for (size_t i = 0; i < sizeof time_suffixes / sizeof time_suffixes[0]; i++) {
        if (strcasecmp(suffix, time_suffixes[i].name) == 0) {
            *seconds = value * time_suffixes[i].seconds;
            return 0;
        }
    }
    errno = EINVAL;
    return -1;
}

void nprb_format_size(uint64_t bytes, char *buf, size_t len)
{
    static const char *const names[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    unsigned i = 0;
    while (i + 1 < sizeof names / sizeof names[0] && bytes >= 1024 && bytes % 1024 == 0) {
        bytes /= 1024;
        i++;
    }
    snprintf(buf, len, "%llu%s", (unsigned long long)bytes, names[i]);
}
