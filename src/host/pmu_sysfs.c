/* SPDX-License-Identifier: BSD-3-Clause */
#include "host/pmu_sysfs.h"

#include "util/list.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_MAX 512   /* the longest file read: an event's terms run to ~100 characters */
#define CONFIG_WORDS 3 /* config, config1, config2 */

/* A format field: the config word it lives in and its bit ranges, low bits of a value first. */
struct field {
    int word;
    int ranges;
    int lo[64], hi[64];
};

static int fail(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(char *why, size_t len, const char *fmt, ...)
{
    if (why != NULL && len > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, len, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* One file of its directory: not empty, no '/', no leading '.' (no "..", no hidden file). */
static int plain_name(const char *name)
{
    return name != NULL && name[0] != '\0' && name[0] != '.' && strchr(name, '/') == NULL;
}

/* File DIR/NAME SUFFIX into TEXT, trailing whitespace trimmed. @return 1 read, 0 absent, -1 not
 * readable, longer than TEXT or holding a NUL. */
static int read_in(char *text, size_t len, const char *dir, const char *name, const char *suffix)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s%s", dir, name, suffix) >= (int)sizeof path)
        return -1;
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return errno == ENOENT || errno == ENOTDIR ? 0 : -1;
    size_t n = fread(text, 1, len - 1, f);
    int bad = fgetc(f) != EOF || ferror(f);
    fclose(f);
    text[n] = '\0';
    if (bad || strlen(text) != n)
        return -1;
    while (n > 0 && isspace((unsigned char)text[n - 1]))
        text[--n] = '\0';
    return 1;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* A whole number, hex after 0x or decimal, and nothing else. */
static int parse_u64(const char *s, uint64_t *out)
{
    int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char *digits = hex ? s + 2 : s;
    size_t n = strspn(digits, hex ? "0123456789abcdefABCDEF" : "0123456789");
    if (n == 0 || digits[n] != '\0')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(digits, NULL, hex ? 16 : 10);
    if (errno != 0)
        return -1;
    *out = v;
    return 0;
}

/* A bit number (0-63) at *S, leaving *S past it. */
static int bit_at(const char **s, int *bit)
{
    size_t n = strspn(*s, "0123456789");
    *bit = n == 0 || n > 2 ? 64 : (int)strtol(*s, NULL, 10);
    *s += n;
    return *bit <= 63 ? 0 : -1;
}

/* "config:0-7,32-35", "config1:0-63", "config:63". @return 0, -1 garbage, -2 a word past
 * config2. Ranges may not overlap, so a field is at most 64 bits wide. */
static int parse_field(const char *text, struct field *f)
{
    const char *colon = strchr(text, ':');
    if (colon == NULL || colon - text < 6 || strncmp(text, "config", 6) != 0)
        return -1;
    size_t n = (size_t)(colon - text) - 6;
    if (strspn(text + 6, "0123456789") != n || (n > 0 && text[6] == '0'))
        return -1; /* "configX", "config01" */
    f->word = n == 0 ? 0 : n > 1 ? CONFIG_WORDS : text[6] - '0';
    if (f->word >= CONFIG_WORDS)
        return -2;
    f->ranges = 0;
    uint64_t taken = 0;
    const char *s = colon + 1;
    for (;;) {
        int lo, hi;
        if (bit_at(&s, &lo) != 0)
            return -1;
        hi = lo;
        if (*s == '-') {
            s++;
            if (bit_at(&s, &hi) != 0)
                return -1;
        }
        uint64_t bits = (hi == 63 ? ~0ULL : (1ULL << (hi + 1)) - 1) & ~((1ULL << lo) - 1);
        if (hi < lo || (taken & bits) != 0)
            return -1;
        taken |= bits;
        f->lo[f->ranges] = lo;
        f->hi[f->ranges++] = hi;
        if (*s == '\0')
            return 0;
        if (*s++ != ',')
            return -1;
    }
}

/* VALUE's bits over the field's ranges of WORD, low bits first; -1 when they do not fit. */
static int put_field(const struct field *f, uint64_t value, uint64_t *word)
{
    uint64_t rest = value, out = *word;
    for (int i = 0; i < f->ranges; i++) {
        int width = f->hi[i] - f->lo[i] + 1;
        uint64_t mask = width == 64 ? ~0ULL : (1ULL << width) - 1;
        out = (out & ~(mask << f->lo[i])) | ((rest & mask) << f->lo[i]);
        rest = width == 64 ? 0 : rest >> width;
    }
    if (rest != 0)
        return -1;
    *word = out;
    return 0;
}

/* The PMU a format directory belongs to, for messages: "ROOT/PMU/format" gives "PMU". */
static void owner_of(const char *format_dir, char *owner, size_t len)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", format_dir);
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        dir[--n] = '\0';
    if (n > 7 && strcmp(dir + n - 7, "/format") == 0)
        dir[n - 7] = '\0';
    const char *slash = strrchr(dir, '/');
    snprintf(owner, len, "%s", slash != NULL && slash[1] != '\0' ? slash + 1 : dir);
}

int nprb_pmu_encode(const char *format_dir, const char *terms, struct nprb_pmu_event *ev, char *why,
                    size_t len)
{
    char term[TEXT_MAX], text[TEXT_MAX], pmu[NPRB_PMU_NAME_MAX * 2];
    owner_of(format_dir, pmu, sizeof pmu);
    if (strlen(terms) >= sizeof term)
        return fail(why, len, "terms for %s longer than %d characters", pmu, TEXT_MAX - 1);
    uint64_t words[CONFIG_WORDS] = {ev->config, ev->config1, ev->config2};
    const char *item;
    size_t n;
    for (const char *cursor = terms; nprb_list_next(&cursor, &item, &n);) {
        if (n == 0)
            continue; /* "a,,b": perf skips the empty term */
        snprintf(term, sizeof term, "%.*s", (int)n, item);
        char *eq = strchr(term, '=');
        const char *value_text = "1"; /* a bare term ("edge") means =1 */
        if (eq != NULL) {
            *eq = '\0';
            value_text = trim(eq + 1);
        }
        const char *name = trim(term);
        uint64_t value;
        struct field field;
        if (!plain_name(name))
            return fail(why, len, "bad term '%s' for %s", name, pmu);
        if (strcmp(value_text, "?") == 0)
            return fail(why, len, "term '%s' of %s wants a value from the user ('?')", name, pmu);
        if (parse_u64(value_text, &value) != 0)
            return fail(why, len, "term '%s' of %s has a bad value '%s'", name, pmu, value_text);
        int got = read_in(text, sizeof text, format_dir, name, "");
        if (got == 0) {
            static const char *const raw[CONFIG_WORDS] = {"config", "config1", "config2"};
            int w = 0;
            while (w < CONFIG_WORDS && strcmp(name, raw[w]) != 0)
                w++;
            if (w == CONFIG_WORDS)
                return fail(why, len, "format term '%s' unknown to %s", name, pmu);
            words[w] = value;
            continue;
        }
        if (got < 0)
            return fail(why, len, "cannot read format term '%s' of %s", name, pmu);
        int parsed = parse_field(text, &field);
        if (parsed == -2)
            return fail(why, len, "format term '%s' of %s is '%s': more than 3 config words", name,
                        pmu, text);
        if (parsed != 0)
            return fail(why, len, "format term '%s' of %s is '%s', not a field", name, pmu, text);
        if (put_field(&field, value, &words[field.word]) != 0)
            return fail(why, len, "value %s of term '%s' is wider than its field %s of %s",
                        value_text, name, text, pmu);
    }
    ev->config = words[0];
    ev->config1 = words[1];
    ev->config2 = words[2];
    return 0;
}

/* A cpulist ("0,28", "0-3,8-11"); -1 garbage or a hex mask's "00000000,...", -2 too many. */
static int parse_cpus(const char *s, struct nprb_pmu_event *ev)
{
    while (*s != '\0') {
        char *end;
        if (!isdigit((unsigned char)*s) || (s[0] == '0' && isdigit((unsigned char)s[1])))
            return -1;
        unsigned long lo = strtoul(s, &end, 10), hi = lo;
        if (*end == '-') {
            if (!isdigit((unsigned char)end[1]))
                return -1;
            hi = strtoul(end + 1, &end, 10);
        }
        if (hi < lo || hi > INT_MAX)
            return -1;
        for (unsigned long cpu = lo; cpu <= hi; cpu++) {
            if (ev->cpu_count == NPRB_PMU_MAX_CPUS)
                return -2;
            ev->cpus[ev->cpu_count++] = (int)cpu;
        }
        s = end;
        if (*s == ',' && s[1] != '\0')
            s++;
        else if (*s != '\0')
            return -1;
    }
    return 0;
}

int nprb_pmu_event_read(const char *root, const char *pmu, const char *event,
                        struct nprb_pmu_event *ev, char *why, size_t len)
{
    char dir[PATH_MAX], sub[PATH_MAX], text[TEXT_MAX];
    uint64_t type;
    memset(ev, 0, sizeof *ev);
    ev->scale = 1;
    if (!plain_name(pmu) || !plain_name(event))
        return fail(why, len, "bad PMU or event name '%s/%s'", pmu ? pmu : "", event ? event : "");
    if (snprintf(dir, sizeof dir, "%s/%s", root, pmu) >= (int)sizeof dir)
        return fail(why, len, "path of %s too long", pmu);
    int got = read_in(text, sizeof text, dir, "type", "");
    if (got == 0)
        return fail(why, len, "no PMU %s under %s", pmu, root);
    if (got < 0 || parse_u64(text, &type) != 0 || type > UINT32_MAX)
        return fail(why, len, "bad type of PMU %s", pmu);
    ev->type = (uint32_t)type;
    got = read_in(text, sizeof text, dir, "cpumask", "");
    int cpus = got > 0 ? parse_cpus(text, ev) : got;
    if (cpus == -2)
        return fail(why, len, "cpumask of %s lists more than %d CPUs", pmu, NPRB_PMU_MAX_CPUS);
    if (cpus < 0)
        return fail(why, len, "bad cpumask of %s", pmu);

    snprintf(sub, sizeof sub, "%s/events", dir);
    got = read_in(text, sizeof text, sub, event, "");
    if (got == 0)
        return fail(why, len, "no event %s in %s", event, pmu);
    if (got < 0 || text[0] == '\0')
        return fail(why, len, "cannot read event %s of %s, or it is empty", event, pmu);
    snprintf(sub, sizeof sub, "%s/format", dir);
    if (nprb_pmu_encode(sub, text, ev, why, len) != 0)
        return -1;

    snprintf(sub, sizeof sub, "%s/events", dir);
    got = read_in(text, sizeof text, sub, event, ".scale");
    if (got != 0) {
        char *end = text;
        errno = 0;
        ev->scale = got > 0 ? strtod(text, &end) : 0;
        if (got < 0 || end == text || *end != '\0' || errno != 0 || !isfinite(ev->scale) ||
            ev->scale <= 0)
            return fail(why, len, "bad scale '%s' of event %s in %s", got > 0 ? text : "", event,
                        pmu);
    }
    got = read_in(text, sizeof text, sub, event, ".unit");
    if (got < 0 || (got > 0 && strlen(text) >= sizeof ev->unit))
        return fail(why, len, "bad unit of event %s in %s", event, pmu);
    if (got > 0)
        memcpy(ev->unit, text, strlen(text) + 1);
    return 0;
}

/* uncore_imc_2 before uncore_imc_10: runs of digits compare as numbers. */
static int natural_cmp(const char *a, const char *b)
{
    const char *a0 = a, *b0 = b;
    while (*a != '\0' && *b != '\0') {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            while (*a == '0' && isdigit((unsigned char)a[1]))
                a++;
            while (*b == '0' && isdigit((unsigned char)b[1]))
                b++;
            size_t na = strspn(a, "0123456789"), nb = strspn(b, "0123456789");
            int c = na != nb ? (na < nb ? -1 : 1) : strncmp(a, b, na);
            if (c != 0)
                return c;
            a += na;
            b += nb;
        } else if (*a != *b) {
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        } else {
            a++;
            b++;
        }
    }
    if (*a != *b)
        return *a == '\0' ? -1 : 1;
    return strcmp(a0, b0); /* "x01" and "x1": still one order */
}

int nprb_pmu_list(const char *root, const char *prefix, char names[][NPRB_PMU_NAME_MAX], int max)
{
    DIR *dir = max > 0 ? opendir(root) : NULL;
    if (dir == NULL)
        return 0;
    size_t prefix_len = strlen(prefix);
    int count = 0;
    const struct dirent *de;
    while ((de = readdir(dir)) != NULL) {
        const char *name = de->d_name;
        size_t name_len = strlen(name);
        if (name[0] == '.' || strncmp(name, prefix, prefix_len) != 0 ||
            name_len >= NPRB_PMU_NAME_MAX)
            continue;
        int at = count;
        while (at > 0 && natural_cmp(name, names[at - 1]) < 0)
            at--;
        if (at == max)
            continue; /* after the first MAX */
        int last = count < max ? count : max - 1;
        memmove(names[at + 1], names[at], (size_t)(last - at) * sizeof names[0]);
        memcpy(names[at], name, name_len + 1);
        if (count < max)
            count++;
    }
    closedir(dir);
    return count;
}

double nprb_pmu_bytes(double count, const struct nprb_pmu_event *ev)
{
    static const struct {
        const char *unit;
        double bytes;
    } units[] = {
        {"B", 1},        {"Bytes", 1},       {"bytes", 1},
        {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcmp(ev->unit, units[i].unit) == 0)
            return count * ev->scale * units[i].bytes;
    }
    return NAN;
}
