/* SPDX-License-Identifier: BSD-3-Clause */
/* The config module's YAML walk: reads a config file, parses it with libyaml and hands every
 * value to the key engine (config.c) under its dotted name, with file and line for messages. */
#include "build_facts.h"
#include "config/config.h"

#include "config/config_find.h"
#include "config/config_keys.h"
#include "util/file_kind.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

/* A config is three levels deep (section, key, list); libyaml's time grows with the square of
 * the nesting (100,000 '[' take minutes, on every rank), so deeper input is refused before the
 * document is built. */
#define MAX_DEPTH 64

struct yaml_walk {
    struct nprb_config *cfg;
    yaml_document_t *doc;
    const char *path;
    char *err;
    size_t errlen;
    uint32_t line_of[NPRB_CONFIG_MAX_KEYS]; /* where each key was set in this text, 0: not yet */
};

static void syntax_error(const yaml_parser_t *parser, const char *source, char *err, size_t errlen)
{
    nprb_config_fmt_err(err, errlen, "%s:%zu: YAML syntax error: %s", source,
                        parser->problem_mark.line + 1,
                        parser->problem ? parser->problem : "unknown");
}

/* The explicit tag and anchor of a node event (NULL when it has none). */
static void event_tag_anchor(const yaml_event_t *e, const char **tag, const char **anchor)
{
    *tag = *anchor = NULL;
    if (e->type == YAML_SCALAR_EVENT) {
        *tag = (const char *)e->data.scalar.tag;
        *anchor = (const char *)e->data.scalar.anchor;
    } else if (e->type == YAML_SEQUENCE_START_EVENT) {
        *tag = (const char *)e->data.sequence_start.tag;
        *anchor = (const char *)e->data.sequence_start.anchor;
    } else if (e->type == YAML_MAPPING_START_EVENT) {
        *tag = (const char *)e->data.mapping_start.tag;
        *anchor = (const char *)e->data.mapping_start.anchor;
    }
}

/* What a config never needs and a hostile file can abuse, refused from libyaml's event stream
 * before any document is built: nesting beyond MAX_DEPTH, anchors and aliases (a "billion
 * laughs" file expands aliases of aliases; a config that reuses a section by alias is clearer
 * written out) and tags (!!binary, !!python/object: a config holds plain values). */
static int check_shape(const char *text, const char *source, char *err, size_t errlen)
{
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
    int depth = 0, rc = 0;
    for (bool done = false; !done && rc == 0;) {
        yaml_event_t e;
        if (!yaml_parser_parse(&parser, &e)) {
            syntax_error(&parser, source, err, errlen);
            rc = -1;
            break;
        }
        size_t line = e.start_mark.line + 1;
        const char *tag, *anchor;
        event_tag_anchor(&e, &tag, &anchor);
        if (e.type == YAML_SEQUENCE_START_EVENT || e.type == YAML_MAPPING_START_EVENT)
            depth++;
        else if (e.type == YAML_SEQUENCE_END_EVENT || e.type == YAML_MAPPING_END_EVENT)
            depth--;
        if (depth > MAX_DEPTH) {
            nprb_config_fmt_err(
                err, errlen,
                "%s:%zu: nested deeper than %d levels (a config needs 3: section, key, list)",
                source, line, MAX_DEPTH);
            rc = -1;
        } else if (e.type == YAML_ALIAS_EVENT || anchor != NULL) {
            nprb_config_fmt_err(
                err, errlen,
                "%s:%zu: YAML %s '%.64s': anchors and aliases are not accepted in a config "
                "(write each value out)",
                source, line, anchor != NULL ? "anchor" : "alias",
                anchor != NULL ? anchor : (const char *)e.data.alias.anchor);
            rc = -1;
        } else if (tag != NULL) {
            nprb_config_fmt_err(
                err, errlen,
                "%s:%zu: YAML tag '%.64s': tags are not accepted in a config (write the value "
                "plainly)",
                source, line, tag);
            rc = -1;
        }
        done = e.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&e);
    }
    yaml_parser_delete(&parser);
    return rc;
}

static int walk_mapping(struct yaml_walk *w, yaml_node_t *map, const char *prefix);

/* True when @p name is a section: some key is "<name>.something". */
static bool is_section(const struct nprb_config *cfg, const char *name)
{
    size_t n = strlen(name), total = nprb_config_key_total(cfg);
    char full[128];
    for (size_t i = 0; i < total; i++) {
        nprb_config_key_at(cfg, i, full, sizeof full);
        if (strncmp(full, name, n) == 0 && full[n] == '.')
            return true;
    }
    return false;
}

/* Writes every section (experiment) name, in key order, as "a, b, ... or z". */
static void section_list(const struct nprb_config *cfg, char *buf, size_t len)
{
    size_t used = 0, count = 0, total = nprb_config_key_total(cfg);
    char names[NPRB_CONFIG_MAX_KEYS][64];
    for (size_t i = 0; i < total; i++) {
        char full[128];
        nprb_config_key_at(cfg, i, full, sizeof full);
        const char *dot = strchr(full, '.');
        if (dot == NULL)
            continue;
        int head = (int)(dot - full);
        if (count > 0 && strlen(names[count - 1]) == (size_t)head &&
            strncmp(names[count - 1], full, (size_t)head) == 0)
            continue;
        snprintf(names[count++], sizeof names[0], "%.*s", head, full);
    }
    buf[0] = '\0';
    for (size_t i = 0; i < count && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%s",
                         i == 0           ? ""
                         : i + 1 == count ? " or "
                                          : ", ",
                         names[i]);
        if (n < 0)
            return;
        used += (size_t)n;
    }
}

/* Says what is wrong with @p name, which is not a key: a misspelt experiment, a section given a
 * value, or an unknown key of a known section. */
static void unknown_name(struct yaml_walk *w, const char *name, size_t line)
{
    char sections[256];
    const char *dot = strchr(name, '.');
    size_t head = dot != NULL ? (size_t)(dot - name) : strlen(name);
    char first[128];
    snprintf(first, sizeof first, "%.*s", (int)head, name);
    if (dot != NULL && !is_section(w->cfg, first)) {
        section_list(w->cfg, sections, sizeof sections);
        nprb_config_fmt_err(w->err, w->errlen, "%s:%zu: %s: unknown experiment '%s' (expected %s)",
                            w->path, line, name, first, sections);
    } else if (is_section(w->cfg, name)) {
        nprb_config_fmt_err(
            w->err, w->errlen,
            "%s:%zu: %s: expected a section of keys (e.g. '%s:' then indented 'enabled: "
            "true'), got a single value",
            w->path, line, name, name);
    } else {
        /* A quoted key keeps its blanks ("size ": 1), which the message alone would hide. */
        nprb_config_fmt_err(w->err, w->errlen,
                            "%s:%zu: %s: unknown key (%ssee numaprobe --config-reference)", w->path,
                            line, name,
                            strpbrk(name, " \t") != NULL ? "a key name holds no blanks; " : "");
    }
}

static int walk_value(struct yaml_walk *w, const char *name, yaml_node_t *value, size_t line)
{
    long index = nprb_config_key_index(w->cfg, name);
    char full[128];
    const struct config_key *key =
        index >= 0 ? nprb_config_key_at(w->cfg, (size_t)index, full, sizeof full) : NULL;
    if (value->type == YAML_MAPPING_NODE) {
        if (key != NULL) {
            nprb_config_fmt_err(
                w->err, w->errlen, "%s:%zu: %s: expected %s, got a mapping", w->path, line, name,
                nprb_config_key_is_list(key) ? "a list (e.g. [a, b]) or a single value"
                                             : "a single value");
            return -1;
        }
        if (strchr(name, '.') == NULL && !is_section(w->cfg, name)) {
            char sections[256];
            section_list(w->cfg, sections, sizeof sections);
            nprb_config_fmt_err(w->err, w->errlen, "%s:%zu: %s: unknown experiment (expected %s)",
                                w->path, line, name, sections);
            return -1;
        }
        if (!is_section(w->cfg, name)) {
            unknown_name(w, name, line);
            return -1;
        }
        return walk_mapping(w, value, name);
    }
    if (key == NULL) {
        /* "latency_matrix:" with nothing under it: an empty section changes nothing. */
        if (is_section(w->cfg, name) && value->type == YAML_SCALAR_NODE &&
            value->data.scalar.length == 0 && value->data.scalar.style == YAML_PLAIN_SCALAR_STYLE)
            return 0;
        unknown_name(w, name, line);
        return -1;
    }
    /* The same key through a dotted name and a section ("latency_matrix.size:" beside
     * "latency_matrix: {size: ...}") is given twice as surely as twice in one mapping. */
    if (w->line_of[index] != 0) {
        nprb_config_fmt_err(w->err, w->errlen, "%s:%zu: %s: given twice (first on line %u)",
                            w->path, line, name, (unsigned)w->line_of[index]);
        return -1;
    }
    w->line_of[index] = (uint32_t)line;
    bool is_list = nprb_config_key_is_list(key);
    char joined[1024] = "";
    const char *text = joined;
    if (value->type == YAML_SEQUENCE_NODE && is_list) {
        /* A YAML list means the same as the comma list --set takes. */
        size_t used = 0;
        for (yaml_node_item_t *it = value->data.sequence.items.start;
             it < value->data.sequence.items.top; it++) {
            yaml_node_t *item = yaml_document_get_node(w->doc, *it);
            if (item->type != YAML_SCALAR_NODE) {
                nprb_config_fmt_err(w->err, w->errlen,
                                    "%s:%zu: %s: list items must be plain values", w->path,
                                    item->start_mark.line + 1, name);
                return -1;
            }
            int n = snprintf(joined + used, sizeof joined - used, "%s%s", used ? "," : "",
                             (const char *)item->data.scalar.value);
            if (n < 0 || (size_t)n >= sizeof joined - used) {
                nprb_config_fmt_err(w->err, w->errlen, "%s:%zu: %s: list too long", w->path, line,
                                    name);
                return -1;
            }
            used += (size_t)n;
        }
    } else if (value->type != YAML_SCALAR_NODE) {
        nprb_config_fmt_err(w->err, w->errlen, "%s:%zu: %s: expected a single value, got a list",
                            w->path, line, name);
        return -1;
    } else {
        text = (const char *)value->data.scalar.value;
    }
    char why[192];
    if (nprb_config_key_assign(w->cfg, (size_t)index, text, why, sizeof why) != 0) {
        nprb_config_fmt_err(w->err, w->errlen, "%s:%zu: %s: %s", w->path,
                            value->start_mark.line + 1, name, why);
        return -1;
    }
    w->cfg->key_line[index] = (uint32_t)value->start_mark.line + 1;
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
            nprb_config_fmt_err(w->err, w->errlen, "%s:%zu: keys must be plain names", w->path,
                                line);
            return -1;
        }
        char name[128];
        int n = snprintf(name, sizeof name, "%s%s%s", prefix, *prefix ? "." : "",
                         (const char *)k->data.scalar.value);
        if (n < 0 || (size_t)n >= sizeof name) {
            nprb_config_fmt_err(w->err, w->errlen, "%s:%zu: key too long", w->path, line);
            return -1;
        }
        for (yaml_node_pair_t *before = map->data.mapping.pairs.start; before < pair; before++) {
            yaml_node_t *b = yaml_document_get_node(w->doc, before->key);
            if (b->type == YAML_SCALAR_NODE && strcmp((const char *)b->data.scalar.value,
                                                      (const char *)k->data.scalar.value) == 0) {
                nprb_config_fmt_err(w->err, w->errlen,
                                    "%s:%zu: %s: given twice (first on line %zu)", w->path, line,
                                    name, b->start_mark.line + 1);
                return -1;
            }
        }
        if (walk_value(w, name, v, line) != 0)
            return -1;
    }
    return 0;
}

int nprb_config_load_text(struct nprb_config *cfg, const char *text, const char *source, char *err,
                          size_t errlen)
{
    if (check_shape(text, source, err, errlen) != 0) {
        nprb_config_escape(err, errlen);
        return -1;
    }
    yaml_parser_t parser;
    yaml_document_t doc;
    int rc = -1;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
    if (!yaml_parser_load(&parser, &doc)) {
        syntax_error(&parser, source, err, errlen);
        nprb_config_escape(err, errlen);
        yaml_parser_delete(&parser);
        return -1;
    }
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (root == NULL) {
        rc = 0; /* an empty file means "all defaults" */
    } else if (root->type != YAML_MAPPING_NODE) {
        nprb_config_fmt_err(err, errlen,
                            "%s:%zu: expected a mapping of keys (key: value) at the top", source,
                            root->start_mark.line + 1);
    } else {
        struct yaml_walk w = {
            .cfg = cfg, .doc = &doc, .path = source, .err = err, .errlen = errlen};
        snprintf(cfg->source, sizeof cfg->source, "%s", source);
        rc = walk_mapping(&w, root, "");
    }
    yaml_document_delete(&doc);
    /* A second document ("---") would be ignored silently: refuse it. */
    if (rc == 0 && root != NULL) {
        if (!yaml_parser_load(&parser, &doc)) {
            syntax_error(&parser, source, err, errlen);
            rc = -1;
        } else {
            yaml_node_t *next = yaml_document_get_root_node(&doc);
            bool empty =
                next == NULL || (next->type == YAML_SCALAR_NODE && next->data.scalar.length == 0);
            if (!empty) {
                nprb_config_fmt_err(
                    err, errlen,
                    "%s:%zu: a second YAML document: a config is one document (no '---')", source,
                    next->start_mark.line + 1);
                rc = -1;
            }
            yaml_document_delete(&doc);
        }
    }
    yaml_parser_delete(&parser);
    if (rc != 0)
        nprb_config_escape(err, errlen);
    return rc;
}

int nprb_config_read_file(const char *path, char **text, char *err, size_t errlen)
{
    /* Nothing but a regular file is opened: opening a FIFO no one writes to blocks forever. A
     * directory opens, and reading it says so (EISDIR). */
    struct stat st;
    const char *kind =
        stat(path, &st) == 0 && !S_ISDIR(st.st_mode) ? nprb_file_kind(st.st_mode) : NULL;
    if (kind != NULL) {
        nprb_config_fmt_err(err, errlen, "cannot read config %s: it is %s, not a regular file",
                            path, kind);
        nprb_config_escape(err, errlen);
        return -1;
    }
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        char hint[1024]; /* a name that is no shipped config: where it was looked for */
        nprb_config_fmt_err(err, errlen, "cannot read config %s: %s%s", path, strerror(errno),
                            nprb_config_find_hint(path, hint, sizeof hint));
        nprb_config_escape(err, errlen);
        return -1;
    }
    char *buf = malloc(NPRB_CONFIG_FILE_MAX + 1);
    errno = 0;
    size_t n = buf != NULL ? fread(buf, 1, NPRB_CONFIG_FILE_MAX + 1, f) : 0;
    int failed = buf == NULL || ferror(f);
    int read_errno = errno;
    fclose(f);
    if (failed || n > NPRB_CONFIG_FILE_MAX) {
        nprb_config_fmt_err(err, errlen, "cannot read config %s: %s", path,
                            !failed      ? "larger than 1 MiB"
                            : read_errno ? strerror(read_errno)
                                         : "read error");
        free(buf);
        nprb_config_escape(err, errlen);
        return -1;
    }
    buf[n] = '\0';
    if (strlen(buf) != n) {
        nprb_config_fmt_err(err, errlen, "config %s is not a text file (it holds NUL bytes)", path);
        free(buf);
        nprb_config_escape(err, errlen);
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

void nprb_config_print_version(FILE *out)
{
    fprintf(out, "libyaml:  %s (built with %s)\n", yaml_get_version_string(), NPRB_BUILD_YAML);
}
