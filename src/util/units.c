/* SPDX-License-Identifier: BSD-3-Clause */
#include "util/units.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
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
    {"", 1.0}, {"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"min", 60.0}, {"h", 3600.0},
};

/* The one number grammar of every key: decimal digits, blanks around them, and for durations one
 * '.' with digits after it. No sign, '_', exponent, hex, inf or nan: strtoll and strtod take all
 * of those, so each is checked here first, and a value means the same in a size, a count and a
 * duration. @return the length of the number at @p s (0: none there). */
static size_t number_length(const char *s, bool fraction)
{
    size_t n = strspn(s, "0123456789");
    if (fraction && s[n] == '.' && isdigit((unsigned char)s[n + 1]))
        n += 1 + strspn(s + n + 1, "0123456789");
    return n;
}

int nprb_parse_integer(const char *text, int64_t *value)
{
    const char *s = skip_blanks(text);
    bool negative = *s == '-';
    const char *digits = s + (negative ? 1 : 0);
    size_t n = number_length(digits, false);
    if (n == 0 || *skip_blanks(digits + n) != '\0') {
        errno = EINVAL;
        return -1;
    }
    errno = 0;
    long long v = strtoll(s, NULL, 10);
    if (errno == ERANGE)
        return -1;
    *value = v;
    return 0;
}

int nprb_parse_duration(const char *text, double *seconds)
{
    const char *s = skip_blanks(text);
    size_t n = number_length(s, true);
    if (n == 0 && s[0] == '.')
        n = isdigit((unsigned char)s[1]) ? 1 + strspn(s + 1, "0123456789") : 0;
    char number[64], suffix[8];
    if (n == 0 || n >= sizeof number || trimmed_suffix(skip_blanks(s + n), suffix, sizeof suffix)) {
        errno = n >= sizeof number ? ERANGE : EINVAL;
        return -1;
    }
    memcpy(number, s, n);
    number[n] = '\0';
    for (size_t i = 0; i < sizeof time_suffixes / sizeof time_suffixes[0]; i++) {
        if (strcasecmp(suffix, time_suffixes[i].name) == 0) {
            /* At most 63 digits: finite, and strtod rounds it correctly, so the echo's decimal
             * form reads back as the very value. */
            *seconds = strtod(number, NULL) * time_suffixes[i].seconds;
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

void nprb_format_duration_words(double seconds, char *buf, size_t len)
{
    if (!(seconds >= 0.5)) { /* NaN too */
        snprintf(buf, len, "under 1 s");
        return;
    }
    if (seconds < 60) {
        snprintf(buf, len, "about %.0f s", seconds);
        return;
    }
    long s = (long)(seconds + 0.5);
    if (s < 3600)
        snprintf(buf, len, "about %ld min %ld s", s / 60, s % 60);
    else
        snprintf(buf, len, "about %ld h %ld min", (s + 30) / 3600, (s + 30) / 60 % 60);
}

void nprb_format_duration_range(double low_s, double high_s, char *buf, size_t len)
{
    char low[32], high[32];
    nprb_format_duration_words(low_s, low, sizeof low);
    nprb_format_duration_words(high_s, high, sizeof high);
    /* "about 2 min to 4 min", not "about 2 min to about 4 min". */
    const char *rest = strncmp(high, "about ", 6) == 0 ? high + 6 : high;
    if (strcmp(low, high) == 0)
        snprintf(buf, len, "%s", low);
    else
        snprintf(buf, len, "%s to %s", low, rest);
}
