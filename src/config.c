#include "config.h"

#include "units.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

enum key_kind { KEY_BOOL, KEY_INT, KEY_U64, KEY_SIZE, KEY_DURATION, KEY_THREADS, KEY_THP };

struct config_key {
    const char *key; /* dotted name, as in YAML nesting and --set */
    enum key_kind kind;
    size_t offset;       /* into struct nprb_config */
    const char *initial; /* built-in default, parsed like user input */
    int64_t min, max;    /* bounds for KEY_INT, KEY_SIZE (bytes), KEY_THREADS */
    const char *help;
};

#define OFF(field) offsetof(struct nprb_config, field)
#define KIB(n) ((int64_t)(n) << 10)
#define TIB(n) ((int64_t)(n) << 40)

/* The one table of configuration keys. Order is the order of the echo and the reference. */
static const struct config_key keys[] = {
    {"seed", KEY_U64, OFF(seed), "42", 0, INT64_MAX, "seed of the random chains"},
    {"huge_pages", KEY_THP, OFF(huge_pages), "system", 0, 0,
     "transparent huge pages for buffers: system (leave alone) | on | off"},
    {"latency_matrix.enabled", KEY_BOOL, OFF(latency_matrix.enabled), "true", 0, 0,
     "measure idle latency with a dependent pointer chase"},
    {"latency_matrix.size", KEY_SIZE, OFF(latency_matrix.size_bytes), "1GiB", KIB(4), TIB(64),
     "chase working set per memory node (K/M/G/T or KiB/MiB/GiB/TiB)"},
    {"latency_matrix.tlb_window", KEY_SIZE, OFF(latency_matrix.tlb_window_bytes), "256KiB", 0,
     TIB(64), "chain random within windows of this size, visited in random order (0: whole set)"},
    {"latency_matrix.samples", KEY_INT, OFF(latency_matrix.samples), "31", 3, 100000,
     "timed samples kept per measurement"},
    {"latency_matrix.sample_time", KEY_DURATION, OFF(latency_matrix.sample_s), "10ms", 0, 0,
     "minimum length of one sample (ns/us/ms/s)"},
    {"bandwidth_matrix.enabled", KEY_BOOL, OFF(bandwidth_matrix.enabled), "true", 0, 0,
     "measure multi-threaded read bandwidth"},
    {"bandwidth_matrix.size", KEY_SIZE, OFF(bandwidth_matrix.size_bytes), "512MiB", KIB(64),
     TIB(64), "streamed array per memory node"},
    {"bandwidth_matrix.threads", KEY_THREADS, OFF(bandwidth_matrix.threads), "all", 1, 4096,
     "threads per CPU node: all (one per usable core) or a number"},
    {"bandwidth_matrix.repetitions", KEY_INT, OFF(bandwidth_matrix.repetitions), "10", 2, 100000,
     "timed repetitions kept per measurement"},
};

#define N_KEYS (sizeof keys / sizeof keys[0])

static const struct config_key *find_key(const char *name)
{
    for (size_t i = 0; i < N_KEYS; i++)
        if (strcmp(keys[i].key, name) == 0)
            return &keys[i];
    return NULL;
}

static void fmt_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void fmt_err(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static const char *const thp_names[] = {"system", "on", "off"};

/* Parses @p text for @p key into the config. On failure writes what was expected into err. */
static int assign(struct nprb_config *cfg, const struct config_key *key, const char *text,
                  char *err, size_t errlen)
{
    char *field = (char *)cfg + key->offset;
    switch (key->kind) {
    case KEY_BOOL:
        if (strcasecmp(text, "true") == 0 || strcasecmp(text, "yes") == 0 ||
            strcasecmp(text, "on") == 0) {
            *(bool *)field = true;
            return 0;
        }
        if (strcasecmp(text, "false") == 0 || strcasecmp(text, "no") == 0 ||
            strcasecmp(text, "off") == 0) {
            *(bool *)field = false;
            return 0;
        }
        fmt_err(err, errlen, "expected true or false, got '%s'", text);
        return -1;
    case KEY_INT:
    case KEY_U64:
    case KEY_THREADS: {
        if (key->kind == KEY_THREADS && strcasecmp(text, "all") == 0) {
            *(int *)field = 0;
            return 0;
        }
        char *end;
        errno = 0;
        long long v = strtoll(text, &end, 10);
        if (end == text || *end != '\0' || errno == ERANGE) {
            fmt_err(err, errlen, "expected a whole number%s, got '%s'",
                    key->kind == KEY_THREADS ? " or 'all'" : "", text);
            return -1;
        }
        if (v < key->min || v > key->max) {
            fmt_err(err, errlen, "expected a number from %" PRId64 " to %" PRId64 ", got %lld",
                    key->min, key->max, v);
            return -1;
        }
        if (key->kind == KEY_U64)
            *(uint64_t *)field = (uint64_t)v;
        else
            *(int *)field = (int)v;
        return 0;
    }
    case KEY_SIZE: {
        uint64_t bytes;
        if (nprb_parse_size(text, &bytes) != 0) {
            fmt_err(err, errlen, "expected a size like 512MiB or 2G, got '%s'", text);
            return -1;
        }
        if (bytes < (uint64_t)key->min || bytes > (uint64_t)key->max) {
            char lo[32], hi[32];
            nprb_format_size((uint64_t)key->min, lo, sizeof lo);
            nprb_format_size((uint64_t)key->max, hi, sizeof hi);
            fmt_err(err, errlen, "size %s is out of range (%s to %s)", text, lo, hi);
            return -1;
        }
        *(uint64_t *)field = bytes;
        return 0;
    }
    case KEY_DURATION: {
        double s;
        if (nprb_parse_duration(text, &s) != 0 || s <= 0 || s > 3600) {
            fmt_err(err, errlen, "expected a duration above 0 and up to 1h like 10ms, got '%s'",
                    text);
            return -1;
        }
        *(double *)field = s;
        return 0;
    }
    case KEY_THP:
        for (size_t i = 0; i < sizeof thp_names / sizeof thp_names[0]; i++) {
            if (strcasecmp(text, thp_names[i]) == 0) {
                *(enum nprb_thp_mode *)field = (enum nprb_thp_mode)i;
                return 0;
            }
        }
        fmt_err(err, errlen, "expected one of system, on, off, got '%s'", text);
        return -1;
    }
    fmt_err(err, errlen, "internal: key kind not handled");
    return -1;
}

void nprb_config_defaults(struct nprb_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    char err[256];
    for (size_t i = 0; i < N_KEYS; i++)
        (void)assign(cfg, &keys[i], keys[i].initial, err, sizeof err);
}

int nprb_config_set(struct nprb_config *cfg, const char *assignment, char *err, size_t errlen)
{
    const char *eq = strchr(assignment, '=');
    if (eq == NULL || eq == assignment) {
        fmt_err(err, errlen, "--set '%s': expected KEY=VALUE, e.g. bandwidth_matrix.size=256MiB",
                assignment);
        return -1;
    }
    char name[128];
    size_t n = (size_t)(eq - assignment);
    if (n >= sizeof name) {
        fmt_err(err, errlen, "--set: key too long");
        return -1;
    }
    memcpy(name, assignment, n);
    name[n] = '\0';
    const struct config_key *key = find_key(name);
    if (key == NULL) {
        fmt_err(err, errlen, "--set: unknown key '%s' (see numaprobe --config-reference)", name);
        return -1;
    }
    char why[192];
    if (assign(cfg, key, eq + 1, why, sizeof why) != 0) {
        fmt_err(err, errlen, "--set %s: %s", name, why);
        return -1;
    }
    return 0;
}

/* ---- YAML ---------------------------------------------------------------------------------- */

struct yaml_walk {
    struct nprb_config *cfg;
    yaml_document_t *doc;
    const char *path;
    char *err;
    size_t errlen;
};

static int walk_mapping(struct yaml_walk *w, yaml_node_t *map, const char *prefix);

static int walk_value(struct yaml_walk *w, const char *name, yaml_node_t *value, size_t line)
{
    if (value->type == YAML_MAPPING_NODE)
        return walk_mapping(w, value, name);
    const struct config_key *key = find_key(name);
    if (key == NULL) {
        fmt_err(w->err, w->errlen, "%s:%zu: %s: unknown key (see numaprobe --config-reference)",
                w->path, line, name);
        return -1;
    }
    if (value->type != YAML_SCALAR_NODE) {
        fmt_err(w->err, w->errlen, "%s:%zu: %s: expected a single value, got a list", w->path, line,
                name);
        return -1;
    }
    char why[192];
    if (assign(w->cfg, key, (const char *)value->data.scalar.value, why, sizeof why) != 0) {
        fmt_err(w->err, w->errlen, "%s:%zu: %s: %s", w->path, value->start_mark.line + 1, name,
                why);
        return -1;
    }
    return 0;
}

static int walk_mapping(struct yaml_walk *w, yaml_node_t *map, const char *prefix)
{
    for (yaml_node_pair_t *pair = map->data.mapping.pairs.start; pair < map->data.mapping.pairs.top;
         pair++) {
        yaml_node_t *k = yaml_document_get_node(w->doc, pair->key);
        yaml_node_t *v = yaml_document_get_node(w->doc, pair->value);
        size_t line = k->start_mark.line + 1;
        if (k->type != YAML_SCALAR_NODE) {
            fmt_err(w->err, w->errlen, "%s:%zu: keys must be plain names", w->path, line);
            return -1;
        }
        char name[128];
        int n = snprintf(name, sizeof name, "%s%s%s", prefix, *prefix ? "." : "",
                         (const char *)k->data.scalar.value);
        if (n < 0 || (size_t)n >= sizeof name) {
            fmt_err(w->err, w->errlen, "%s:%zu: key too long", w->path, line);
            return -1;
        }
        if (walk_value(w, name, v, line) != 0)
            return -1;
    }
    return 0;
}

int nprb_config_load_text(struct nprb_config *cfg, const char *text, const char *source, char *err,
                          size_t errlen)
{
    yaml_parser_t parser;
    yaml_document_t doc;
    int rc = -1;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
    if (!yaml_parser_load(&parser, &doc)) {
        fmt_err(err, errlen, "%s:%zu: YAML syntax error: %s", source, parser.problem_mark.line + 1,
                parser.problem ? parser.problem : "unknown");
        yaml_parser_delete(&parser);
        return -1;
    }
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (root == NULL) {
        rc = 0; /* an empty file means "all defaults" */
    } else if (root->type != YAML_MAPPING_NODE) {
        fmt_err(err, errlen, "%s:%zu: expected a mapping of keys (key: value) at the top", source,
                root->start_mark.line + 1);
    } else {
        struct yaml_walk w = {cfg, &doc, source, err, errlen};
        rc = walk_mapping(&w, root, "");
    }
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    return rc;
}

int nprb_config_read_file(const char *path, char **text, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fmt_err(err, errlen, "cannot read config %s: %s", path, strerror(errno));
        return -1;
    }
    char *buf = malloc(NPRB_CONFIG_FILE_MAX + 1);
    size_t n = buf != NULL ? fread(buf, 1, NPRB_CONFIG_FILE_MAX + 1, f) : 0;
    int failed = buf == NULL || ferror(f);
    fclose(f);
    if (failed || n > NPRB_CONFIG_FILE_MAX) {
        fmt_err(err, errlen, "cannot read config %s: %s", path,
                failed ? "read error" : "larger than 1 MiB");
        free(buf);
        return -1;
    }
    buf[n] = '\0';
    if (strlen(buf) != n) {
        fmt_err(err, errlen, "config %s is not a text file (it holds NUL bytes)", path);
        free(buf);
        return -1;
    }
    *text = buf;
    return 0;
}

int nprb_config_load_file(struct nprb_config *cfg, const char *path, char *err, size_t errlen)
{
    char *text;
    if (nprb_config_read_file(path, &text, err, errlen) != 0)
        return -1;
    int rc = nprb_config_load_text(cfg, text, path, err, errlen);
    free(text);
    return rc;
}

/* ---- echo and reference -------------------------------------------------------------------- */

static void value_text(const struct nprb_config *cfg, const struct config_key *key, char *buf,
                       size_t len)
{
    const char *field = (const char *)cfg + key->offset;
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
        snprintf(buf, len, "%gms", *(const double *)field * 1e3);
        return;
    case KEY_THP:
        snprintf(buf, len, "%s", thp_names[*(const enum nprb_thp_mode *)field]);
        return;
    }
}

void nprb_config_to_yaml(const struct nprb_config *cfg, char *buf, size_t len)
{
    size_t used = 0;
    char section[64] = "";
    buf[0] = '\0';
    for (size_t i = 0; i < N_KEYS && used < len; i++) {
        const char *dot = strchr(keys[i].key, '.');
        char value[64];
        value_text(cfg, &keys[i], value, sizeof value);
        int n;
        if (dot == NULL) {
            section[0] = '\0';
            n = snprintf(buf + used, len - used, "%s: %s\n", keys[i].key, value);
        } else {
            size_t slen = (size_t)(dot - keys[i].key);
            if (strlen(section) != slen || strncmp(section, keys[i].key, slen) != 0) {
                snprintf(section, sizeof section, "%.*s", (int)slen, keys[i].key);
                n = snprintf(buf + used, len - used, "%s:\n", section);
                if (n < 0)
                    return;
                used += (size_t)n;
                if (used >= len)
                    return;
            }
            n = snprintf(buf + used, len - used, "  %s: %s\n", dot + 1, value);
        }
        if (n < 0)
            return;
        used += (size_t)n;
    }
}

void nprb_config_print_reference(FILE *out)
{
    fprintf(out, "%-32s %-10s %s\n", "KEY", "DEFAULT", "MEANING");
    for (size_t i = 0; i < N_KEYS; i++)
        fprintf(out, "%-32s %-10s %s\n", keys[i].key, keys[i].initial, keys[i].help);
}
