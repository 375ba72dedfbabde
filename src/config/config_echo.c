/* SPDX-License-Identifier: BSD-3-Clause */
/* The config module's echo and reference: the effective configuration as YAML that loads back
 * as the very values (stored in every results file), the shorter echo of the keys that differ
 * from their defaults (stderr at job start), and the key reference of
 * --config-reference (docs/CONFIG.md). */
#include "config/config.h"

#include "config/config_keys.h"
#include "results/contract.h"
#include "util/hash.h"
#include "kernels/stream.h"
#include "util/units.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Writes @p value (in @p unit_s seconds) with the fewest digits, up to @p max_digits significant
 * ones, that nprb_parse_duration() reads back as exactly @p seconds. @return true on success. */
static bool exact_duration(double seconds, const char *unit, double unit_s, int max_digits,
                           char *buf, size_t len)
{
    for (int digits = 1; digits <= max_digits; digits++) {
        double back;
        snprintf(buf, len, "%.*g%s", digits, seconds / unit_s, unit);
        if (strchr(buf, 'e') == NULL && nprb_parse_duration(buf, &back) == 0 && back == seconds)
            return true;
    }
    return false;
}

/* A duration as people write it (10ms, 4s, 10min), and exact: the echo stored in the results
 * file must load as the very value the run used. Prefers the largest unit that gives a whole
 * number, then the largest that needs at most 6 digits, then any exact form (values below 1ns
 * included). Hours only where @p hours (a run's length): a measurement's 60min stays "60min",
 * as the earlier versions echoed and fingerprinted it. */
static void duration_text(double seconds, bool hours, char *buf, size_t len)
{
    static const struct {
        const char *name;
        double seconds;
    } units[] = {{"h", 3600.0}, {"min", 60.0}, {"s", 1.0},
                 {"ms", 1e-3},  {"us", 1e-6},  {"ns", 1e-9}};
    const size_t n = sizeof units / sizeof units[0], first = hours ? 0 : 1;
    for (size_t u = first; u < n; u++)
        if (exact_duration(seconds, units[u].name, units[u].seconds, 17, buf, len) &&
            strchr(buf, '.') == NULL && seconds >= units[u].seconds)
            return;
    for (size_t u = first; u < n; u++)
        if (seconds >= units[u].seconds &&
            exact_duration(seconds, units[u].name, units[u].seconds, 6, buf, len))
            return;
    for (size_t u = first; u < n; u++)
        if (seconds >= units[u].seconds &&
            exact_duration(seconds, units[u].name, units[u].seconds, 17, buf, len))
            return;
    /* Every double has a finite decimal expansion, and the parser rounds decimals correctly:
     * enough fixed-point digits in seconds always read back as the very value. */
    for (int decimals = 0; decimals <= 40; decimals++) {
        double back;
        snprintf(buf, len, "%.*fs", decimals, seconds);
        if (nprb_parse_duration(buf, &back) == 0 && back == seconds)
            return;
    }
}

/* Entry @p i of a typed name list (config.h) of key kind @p kind, by its enum's name function. */
static const char *list_name(enum key_kind kind, const void *field, int i)
{
    switch (kind) {
    case KEY_PATTERNS:
        return ((const struct nprb_pattern_list *)field)->item[i].name;
    case KEY_MODES:
        return nprb_touch_mode_name(((const struct nprb_touch_list *)field)->mode[i]);
    case KEY_POLICIES:
        return nprb_mem_policy_name(((const struct nprb_policy_list *)field)->policy[i]);
    case KEY_GROUPS:
        return nprb_counter_group_name(((const struct nprb_counter_group_list *)field)->group[i]);
    default:
        return nprb_kernel_get(((const struct nprb_kernel_list *)field)->id[i])->name;
    }
}

static void value_text(const struct nprb_config *cfg, size_t index, char *buf, size_t len)
{
    char name[128];
    const struct config_key *key = nprb_config_key_at(cfg, index, name, sizeof name);
    const char *field = nprb_config_key_field(cfg, index);
    switch (key->kind) {
    case KEY_BOOL:
        snprintf(buf, len, "%s", *(const bool *)field ? "true" : "false");
        return;
    case KEY_INT:
        snprintf(buf, len, "%d", *(const int *)field);
        return;
    case KEY_U64:
        snprintf(buf, len, "%" PRIu64, *(const uint64_t *)field);
        return;
    case KEY_THREADS:
        if (*(const int *)field == 0)
            snprintf(buf, len, "all");
        else
            snprintf(buf, len, "%d", *(const int *)field);
        return;
    case KEY_SIZE:
        nprb_format_size(*(const uint64_t *)field, buf, len);
        return;
    case KEY_DURATION:
        duration_text(*(const double *)field, key->max > 0, buf, len);
        return;
    case KEY_THP:
        snprintf(buf, len, "%s", nprb_thp_name(*(const enum nprb_thp_mode *)field));
        return;
    case KEY_COUNTS: {
        const struct nprb_sizes *list = (const struct nprb_sizes *)field;
        size_t used = 0;
        for (int i = 0; i < list->count && used + 1 < len; i++)
            used += (size_t)snprintf(buf + used, len - used, "%s%llu%s", i ? ", " : "[",
                                     (unsigned long long)list->bytes[i],
                                     i + 1 == list->count ? "]" : "");
        return;
    }
    case KEY_SIZES: {
        const struct nprb_sizes *list = (const struct nprb_sizes *)field;
        if (list->count == 0) {
            snprintf(buf, len, "auto");
            return;
        }
        size_t used = 0;
        for (int i = 0; i < list->count && used + 1 < len; i++) {
            char one[32];
            nprb_format_size(list->bytes[i], one, sizeof one);
            used += (size_t)snprintf(buf + used, len - used, "%s%s%s", i ? ", " : "[", one,
                                     i + 1 == list->count ? "]" : "");
        }
        return;
    }
    case KEY_PAIRS:
        snprintf(buf, len, "%s",
                 *(const enum nprb_pairs *)field == NPRB_PAIRS_ALL ? "all" : "local");
        return;
    case KEY_CORE_PAIRS:
        snprintf(buf, len, "%s", nprb_core_pairs_name(*(const enum nprb_core_pairs *)field));
        return;
    case KEY_FROM:
        snprintf(buf, len, "%s",
                 *(const enum nprb_sweep_from *)field == NPRB_SWEEP_FROM_EVERY ? "every" : "first");
        return;
    case KEY_GROUPS:
    case KEY_POLICIES:
        if (*(const int *)field == 0) { /* every typed list starts with its count */
            snprintf(buf, len, "none");
            return;
        }
        __attribute__((fallthrough)); /* a list like the others */
    case KEY_MODES:
    case KEY_PATTERNS:
    case KEY_KERNELS: {
        int count = *(const int *)field; /* every typed list starts with its count */
        size_t used = 0;
        for (int i = 0; i < count && used + 1 < len; i++)
            used += (size_t)snprintf(buf + used, len - used, "%s%s%s", i ? ", " : "[",
                                     list_name(key->kind, field, i), i + 1 == count ? "]" : "");
        return;
    }
    }
}

/* The echo of @p cfg's keys, or, with @p defaults, of those whose value reads differently there:
 * compared as the echo writes them, so every kind of key, and every section's, is compared the
 * same way. A section's heading comes before its first key written. @return keys written. */
static size_t echo(const struct nprb_config *cfg, const struct nprb_config *defaults, char *buf,
                   size_t len)
{
    size_t used = 0, written = 0;
    char section[64] = "";
    buf[0] = '\0';
    size_t total = nprb_config_key_total(cfg);
    for (size_t i = 0; i < total && used < len; i++) {
        char name[128];
        nprb_config_key_at(cfg, i, name, sizeof name);
        const char *dot = strchr(name, '.');
        char value[1024];
        value_text(cfg, i, value, sizeof value);
        if (defaults != NULL) {
            char initial[1024], other[128];
            nprb_config_key_at(defaults, i, other, sizeof other);
            value_text(defaults, i, initial, sizeof initial);
            if (strcmp(other, name) == 0 && strcmp(initial, value) == 0)
                continue;
        }
        written++;
        int n;
        if (dot == NULL) {
            section[0] = '\0';
            n = snprintf(buf + used, len - used, "%s: %s\n", name, value);
        } else {
            size_t slen = (size_t)(dot - name);
            if (strlen(section) != slen || strncmp(section, name, slen) != 0) {
                snprintf(section, sizeof section, "%.*s", (int)slen, name);
                n = snprintf(buf + used, len - used, "%s:\n", section);
                if (n < 0)
                    return written;
                used += (size_t)n;
                if (used >= len)
                    return written;
            }
            n = snprintf(buf + used, len - used, "  %s: %s\n", dot + 1, value);
        }
        if (n < 0)
            return written;
        used += (size_t)n;
    }
    return written;
}

void nprb_config_to_yaml(const struct nprb_config *cfg, char *buf, size_t len)
{
    echo(cfg, NULL, buf, len);
}

long nprb_config_changed_yaml(const struct nprb_config *cfg, char *buf, size_t len)
{
    /* The defaults of the very keys @p cfg has: the global table's, and the same sections added
     * in the same order, so key number i is the same key in both. */
    struct nprb_config *defaults = malloc(sizeof *defaults);
    if (defaults == NULL)
        return -1;
    nprb_config_defaults(defaults);
    char err[256];
    for (int s = 0; s < cfg->section_count; s++)
        if (nprb_config_add_section(defaults, cfg->section[s], err, sizeof err) != 0) {
            free(defaults);
            return -1;
        }
    long written = (long)echo(cfg, defaults, buf, len);
    free(defaults);
    return written;
}

/* What a key accepts, in words: the reference's "allowed" line. Kinds without bounds say it in
 * fixed words; names come from their enums' tables; the others add their key's range. */
static const char *const fixed_allowed[] = {
    [KEY_BOOL] = "true | false (also yes/no, on/off)",
    [KEY_DURATION] =
        "duration (ns, us, ms, s, min; bare number: s; a fraction but no exponent), 1ns to 60min",
    [KEY_PAIRS] = "all | local",
    [KEY_FROM] = "first | every",
    [KEY_CORE_PAIRS] = "per_node | per_cache | all",
    [KEY_PATTERNS] =
        "list of: random, random_full, index_random, stride:SIZE (multiple of 8B, up to 1GiB)",
};

static void allowed_text(const struct config_key *key, char *buf, size_t len)
{
    char lo[32], hi[32];
    nprb_format_size((uint64_t)key->min, lo, sizeof lo);
    nprb_format_size((uint64_t)key->max, hi, sizeof hi);
    bool is_auto = strcmp(key->initial, "auto") == 0;
    size_t used;
    switch (key->kind) {
    case KEY_INT:
    case KEY_U64:
    case KEY_THREADS:
    case KEY_COUNTS:
        snprintf(buf, len, "%s%s, %s%" PRId64 " to %" PRId64,
                 key->kind == KEY_THREADS ? "all | " : "",
                 key->kind == KEY_COUNTS ? "list of whole numbers" : "whole number",
                 key->kind == KEY_COUNTS ? "each " : "", key->min, key->max);
        return;
    case KEY_SIZE:
    case KEY_SIZES:
        snprintf(buf, len, "%s%s (B, K/KiB, M/MiB, G/GiB, T/TiB; all binary), %s%s to %s",
                 is_auto ? "auto | " : "", key->kind == KEY_SIZES ? "list of sizes" : "size",
                 key->kind == KEY_SIZES ? "each " : "", lo, hi);
        return;
    case KEY_KERNELS:
        used = (size_t)snprintf(buf, len, "list of:");
        for (int id = 0; id < NPRB_N_KERNELS && used < len; id++)
            used += (size_t)snprintf(buf + used, len - used, "%s %s", id ? "," : "",
                                     nprb_kernel_get((enum nprb_kernel_id)id)->name);
        return;
    case KEY_MODES:
        used = (size_t)snprintf(buf, len, "list of:");
        for (int m = 0; m < NPRB_N_TOUCH_MODES && used < len; m++)
            used += (size_t)snprintf(buf + used, len - used, "%s %s", m ? "," : "",
                                     nprb_touch_mode_name((enum nprb_touch_mode)m));
        return;
    case KEY_POLICIES:
        used = (size_t)snprintf(buf, len, "none | list of:");
        for (int p = 0, n = 0; p <= NPRB_MEM_FIRST_TOUCH && used < len; p++)
            if (NPRB_EXTRA_POLICIES & NPRB_MEM_POLICY_BIT(p))
                used += (size_t)snprintf(buf + used, len - used, "%s %s", n++ ? "," : "",
                                         nprb_mem_policy_name((enum nprb_mem_policy)p));
        return;
    case KEY_GROUPS:
        used = (size_t)snprintf(buf, len, "none | list of:");
        for (int g = 0; g < NPRB_N_COUNTER_GROUPS && used < len; g++)
            used += (size_t)snprintf(buf + used, len - used, "%s %s", g ? "," : "",
                                     nprb_counter_group_name((enum nprb_counter_group)g));
        return;
    case KEY_THP:
        used = 0;
        for (int m = 0; m <= NPRB_THP_HUGETLB && used < len; m++)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", m ? " | " : "",
                                     nprb_thp_name((enum nprb_thp_mode)m));
        return;
    case KEY_DURATION:
        if (key->max > 0) {
            snprintf(buf, len, "duration (s, min, h; bare number: s), %" PRId64 "s to %" PRId64 "h",
                     key->min, key->max / 3600);
            return;
        }
        snprintf(buf, len, "%s", fixed_allowed[key->kind]);
        return;
    default:
        snprintf(buf, len, "%s", fixed_allowed[key->kind]);
        return;
    }
}

void nprb_config_print_reference(FILE *out, const struct nprb_config *cfg)
{
    fprintf(out, "%-32s %-10s %s\n", "KEY", "DEFAULT", "MEANING");
    size_t total = nprb_config_key_total(cfg);
    for (size_t i = 0; i < total; i++) {
        char name[128], allowed[256];
        const struct config_key *key = nprb_config_key_at(cfg, i, name, sizeof name);
        allowed_text(key, allowed, sizeof allowed);
        fprintf(out, "%-32s %-10s %s\n%-43s allowed: %s\n", name, key->initial, key->help, "",
                allowed);
    }
}

/* Whether the fingerprint hashes @p line, key @p name's: not when the key changes nothing
 * measured, nor when it is at the one value that changes nothing (the contract's lists). */
static bool measured(const char *name, const char *line)
{
    size_t n = strcspn(name, "."), count;
    const char *const *keys = nprb_fingerprint_unmeasured_keys(&count);
    for (size_t i = 0; i < count; i++)
        if (strlen(keys[i]) == n && strncmp(name, keys[i], n) == 0)
            return false;
    const char *const *lines = nprb_fingerprint_neutral_lines(&count);
    for (size_t i = 0; i < count; i++)
        if (strcmp(line, lines[i]) == 0)
            return false;
    return true;
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void nprb_config_fingerprint(const struct nprb_config *cfg, char *out, size_t len)
{
    size_t total = nprb_config_key_total(cfg), n = 0;
    char **lines = calloc(total + 1, sizeof *lines);
    uint64_t h = NPRB_FNV1A_BASIS;
    bool complete = true;
    if (lines == NULL) { /* no fingerprint rather than a wrong one: the analysis computes it */
        snprintf(out, len, "%s", "");
        return;
    }
    for (size_t i = 0; i < total; i++) {
        char name[128], value[1024], line[1200];
        nprb_config_key_at(cfg, i, name, sizeof name);
        value_text(cfg, i, value, sizeof value);
        snprintf(line, sizeof line, "%s: %s\n", name, value);
        if (measured(name, line) && (lines[n++] = strdup(line)) == NULL)
            complete = false;
    }
    if (complete)
        qsort(lines, n, sizeof *lines, by_text);
    for (size_t i = 0; i < n; i++) {
        if (complete)
            h = nprb_fnv1a(h, lines[i], strlen(lines[i]));
        free(lines[i]);
    }
    free(lines);
    if (complete)
        snprintf(out, len, "%016" PRIx64, h);
    else
        snprintf(out, len, "%s", "");
}
