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

static void value_text(const struct nprb_config *cfg, size_t index, char *buf, size_t len)
{
    char name[128];
    const struct config_key *key = nprb_config_key_at(cfg, index, name, sizeof name);
    const char *field = nprb_config_key_field(cfg, index);
    switch (key->kind->id) {
    case KIND_BOOL:
        snprintf(buf, len, "%s", *(const bool *)field ? "true" : "false");
        return;
    case KIND_INT:
        snprintf(buf, len, "%d", *(const int *)field);
        return;
    case KIND_U64:
        snprintf(buf, len, "%" PRIu64, *(const uint64_t *)field);
        return;
    case KIND_THREADS:
        if (*(const int *)field == 0)
            snprintf(buf, len, "all");
        else
            snprintf(buf, len, "%d", *(const int *)field);
        return;
    case KIND_SIZE:
        nprb_format_size(*(const uint64_t *)field, buf, len);
        return;
    case KIND_DURATION:
        duration_text(*(const double *)field, key->max > 0, buf, len);
        return;
    case KIND_NAME: {
        int value;
        memcpy(&value, field, sizeof value); /* an int-sized enum (config.h) */
        snprintf(buf, len, "%s", nprb_name_of(key->kind->names, value));
        return;
    }
    case KIND_COUNTS: {
        const struct nprb_sizes *list = (const struct nprb_sizes *)field;
        size_t used = 0;
        for (int i = 0; i < list->count && used + 1 < len; i++)
            used += (size_t)snprintf(buf + used, len - used, "%s%llu%s", i ? ", " : "[",
                                     (unsigned long long)list->bytes[i],
                                     i + 1 == list->count ? "]" : "");
        return;
    }
    case KIND_SIZES: {
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
    case KIND_NAMES: {
        struct nprb_name_list list;
        memcpy(&list, field, sizeof list); /* every list of names has its layout (config.h) */
        if (list.count == 0) {
            snprintf(buf, len, "none");
            return;
        }
        size_t used = 0;
        for (int i = 0; i < list.count && used + 1 < len; i++)
            used += (size_t)snprintf(buf + used, len - used, "%s%s%s", i ? ", " : "[",
                                     nprb_name_of(key->kind->names, list.value[i]),
                                     i + 1 == list.count ? "]" : "");
        return;
    }
    case KIND_PATTERNS: {
        const struct nprb_pattern_list *list = (const struct nprb_pattern_list *)field;
        size_t used = 0;
        for (int i = 0; i < list->count && used + 1 < len; i++)
            used += (size_t)snprintf(buf + used, len - used, "%s%s%s", i ? ", " : "[",
                                     list->item[i].name, i + 1 == list->count ? "]" : "");
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
    [KIND_BOOL] = "true | false (also yes/no, on/off)",
    [KIND_DURATION] =
        "duration (ns, us, ms, s, min; bare number: s; a fraction but no exponent), 1ns to 60min",
    [KIND_PATTERNS] =
        "list of: random, random_full, index_random, stride:SIZE (multiple of 8B, up to 1GiB)",
};

static void allowed_text(const struct config_key *key, char *buf, size_t len)
{
    char lo[32], hi[32];
    nprb_format_size((uint64_t)key->min, lo, sizeof lo);
    nprb_format_size((uint64_t)key->max, hi, sizeof hi);
    bool is_auto = strcmp(key->initial, "auto") == 0;
    size_t used;
    switch (key->kind->id) {
    case KIND_INT:
    case KIND_U64:
    case KIND_THREADS:
    case KIND_COUNTS:
        snprintf(buf, len, "%s%s, %s%" PRId64 " to %" PRId64,
                 key->kind->id == KIND_THREADS ? "all | " : "",
                 key->kind->id == KIND_COUNTS ? "list of whole numbers" : "whole number",
                 key->kind->id == KIND_COUNTS ? "each " : "", key->min, key->max);
        return;
    case KIND_SIZE:
    case KIND_SIZES:
        snprintf(buf, len, "%s%s (B, K/KiB, M/MiB, G/GiB, T/TiB; all binary), %s%s to %s",
                 is_auto ? "auto | " : "", key->kind->id == KIND_SIZES ? "list of sizes" : "size",
                 key->kind->id == KIND_SIZES ? "each " : "", lo, hi);
        return;
    case KIND_NAME:
    case KIND_NAMES: {
        /* One name: "a | b"; a list: "list of: a, b", "none | " first where it may be empty. */
        bool one = key->kind->id == KIND_NAME;
        const char *sep = one ? "" : " ";
        used = (size_t)snprintf(buf, len, "%s",
                                one             ? ""
                                : key->min == 0 ? "none | list of:"
                                                : "list of:");
        for (int v = 0; (size_t)v < key->kind->names->count && used < len; v++)
            if (nprb_name_allowed(key->kind->names, v)) {
                used += (size_t)snprintf(buf + used, len - used, "%s%s", sep,
                                         nprb_name_of(key->kind->names, v));
                sep = one ? " | " : ", ";
            }
        return;
    }
    case KIND_DURATION:
        if (key->max > 0) {
            snprintf(buf, len, "duration (s, min, h; bare number: s), %" PRId64 "s to %" PRId64 "h",
                     key->min, key->max / 3600);
            return;
        }
        snprintf(buf, len, "%s", fixed_allowed[key->kind->id]);
        return;
    default:
        snprintf(buf, len, "%s", fixed_allowed[key->kind->id]);
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
