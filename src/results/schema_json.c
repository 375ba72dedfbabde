/* SPDX-License-Identifier: BSD-3-Clause */
/* `numaprobe --schema`: the whole results-file contract as one JSON document, built with
 * jansson (the summary's writer too), from the root attributes of contract.c and the table and
 * column rows of columns_*.c. */
#include "results/contract.h"
#include "results/h5types.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>

/* "MAJOR.MINOR.0" of the minor that added a thing, in this binary's major. */
static json_t *since(int minor)
{
    int major = 0;
    if (sscanf(NPRB_SCHEMA_VERSION, "%d.", &major) != 1)
        major = 0;
    return json_sprintf("%d.%d.0", major, minor);
}

/* A string that may be NULL (a column without a unit): JSON null then. */
static json_t *text_or_null(const char *s)
{
    return s != NULL ? json_string(s) : json_null();
}

static json_t *root_attributes(void)
{
    static const char *const scopes[] = {[NPRB_ATTR_EVERY] = "every",
                                         [NPRB_ATTR_FINAL] = "final",
                                         [NPRB_ATTR_CHECKPOINT] = "checkpoint",
                                         [NPRB_ATTR_MERGED] = "merged"};
    size_t count = 0;
    const struct nprb_root_attr *attrs = nprb_root_attrs(&count);
    json_t *list = json_array();
    for (size_t i = 0; i < count; i++) {
        const struct nprb_root_attr *a = &attrs[i];
        json_array_append_new(list,
                              json_pack("{s:s, s:s, s:o, s:o, s:s, s:b, s:s}", "name", a->name,
                                        "type", a->type == NPRB_ATTR_INT ? "int" : "text", "unit",
                                        text_or_null(a->unit), "since", since(a->since_minor), "in",
                                        scopes[a->scope], "required", a->required, "description",
                                        a->description));
    }
    return list;
}

/* The attributes every table carries (h5meta.h), one entry per column for the arrays, and the
 * HDF5 Table specification's, one FIELD_<n>_NAME per column. */
static json_t *table_attributes(void)
{
    static const struct {
        const char *name, *description;
        int since_minor;
    } attrs[] = {
        {"description", "string: what the table holds", NPRB_TABLE_ATTRS_SINCE_MINOR},
        {"columns", "strings, one per column in the order of the row's members: its name",
         NPRB_TABLE_ATTRS_SINCE_MINOR},
        {"units", "strings, one per column: its unit, empty where it has none",
         NPRB_TABLE_ATTRS_SINCE_MINOR},
        {"column_descriptions", "strings, one per column: what it means",
         NPRB_TABLE_ATTRS_SINCE_MINOR},
        {"CLASS", "fixed-length string \"TABLE\" (HDF5 Table specification)",
         NPRB_TABLE_SPEC_SINCE_MINOR},
        {"VERSION", "fixed-length string \"3.0\": the HDF5 Table specification's version",
         NPRB_TABLE_SPEC_SINCE_MINOR},
        {"TITLE", "fixed-length string: the table's description, as its title",
         NPRB_TABLE_SPEC_SINCE_MINOR},
        {"FIELD_<n>_NAME", "fixed-length string, one attribute per column n (0-based): its name",
         NPRB_TABLE_SPEC_SINCE_MINOR},
    };
    json_t *list = json_array();
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
        json_array_append_new(list, json_pack("{s:s, s:o, s:s}", "name", attrs[i].name, "since",
                                              since(attrs[i].since_minor), "description",
                                              attrs[i].description));
    return list;
}

/* What a reader takes a column to be in a file older than it: text reads empty, a number its
 * value, NaN null (JSON has no NaN). */
static json_t *absent(const struct nprb_field *f)
{
    if (f->kind == NPRB_FIELD_STR)
        return json_string("");
    if (isnan(f->absent))
        return json_null();
    if (f->kind == NPRB_FIELD_F64)
        return json_real(f->absent);
    return json_integer((json_int_t)f->absent);
}

static json_t *table(enum nprb_table_id id)
{
    const struct nprb_table_desc *d = nprb_table_desc(id);
    json_t *columns = json_array();
    for (size_t i = 0; i < d->field_count; i++) {
        const struct nprb_field *f = &d->fields[i];
        char type[32];
        nprb_h5_field_type_name(f, type, sizeof type);
        json_array_append_new(columns, json_pack("{s:s, s:s, s:o, s:o, s:o, s:s}", "name", f->name,
                                                 "type", type, "unit", text_or_null(f->unit),
                                                 "since", since(f->since_minor), "absent",
                                                 absent(f), "description", f->description));
    }
    return json_pack("{s:s, s:s, s:o, s:o}", "name", d->name, "description", d->description,
                     "since", since(d->since_minor), "columns", columns);
}

/* The families of a host's OpenMetrics file (--textfile-dir), which the analysis's writer holds
 * too. */
static json_t *metric_families(void)
{
    json_t *list = json_array();
    for (int id = 0; id < NPRB_N_METRIC_FAMILIES; id++) {
        const struct nprb_metric_family *f = nprb_metric_family((enum nprb_metric_family_id)id);
        json_array_append_new(list,
                              json_pack("{s:s, s:s, s:o, s:s}", "name", f->name, "type", f->type,
                                        "unit", text_or_null(f->unit), "help", f->help));
    }
    return list;
}

static json_t *text_list(const char *const *items, size_t count)
{
    json_t *list = json_array();
    for (size_t i = 0; i < count; i++)
        json_array_append_new(list, json_string(items[i]));
    return list;
}

/* What config_fingerprint leaves out of its hash: the analysis hashes a file's `config` by it. */
static json_t *fingerprint_rule(void)
{
    size_t n_keys = 0, n_lines = 0;
    const char *const *keys = nprb_fingerprint_unmeasured_keys(&n_keys);
    const char *const *lines = nprb_fingerprint_neutral_lines(&n_lines);
    return json_pack("{s:o, s:o}", "unmeasured_keys", text_list(keys, n_keys), "neutral_lines",
                     text_list(lines, n_lines));
}

int nprb_schema_print_json(FILE *out)
{
    json_t *tables = json_array();
    for (int id = 0; id < NPRB_N_TABLES; id++)
        json_array_append_new(tables, table((enum nprb_table_id)id));
    json_t *doc = json_pack("{s:s, s:s, s:f, s:o, s:o, s:o, s:o, s:o}", "schema", NPRB_SCHEMA_NAME,
                            "schema_version", NPRB_SCHEMA_VERSION, "noisy_pct", NPRB_NOISY_PCT,
                            "config_fingerprint", fingerprint_rule(), "root_attributes",
                            root_attributes(), "table_attributes", table_attributes(), "tables",
                            tables, "openmetrics_families", metric_families());
    int rc = doc != NULL && json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) == 0 &&
                     fputc('\n', out) != EOF
                 ? 0
                 : -1;
    json_decref(doc);
    return rc;
}
