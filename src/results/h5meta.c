/* SPDX-License-Identifier: BSD-3-Clause */
/* The tables' own attributes (description, columns, units, column_descriptions) and the HDF5
 * Table specification's (CLASS, VERSION, TITLE, FIELD_<n>_NAME): written from the contract beside
 * each dataset, and verified by `numaprobe check`. */
#include "results/h5meta.h"

#include "results/contract.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N_ARRAYS = 3 };
static const char *const array_names[N_ARRAYS] = {"columns", "units", "column_descriptions"};

/* Variable-length UTF-8: h5py reads it as str, h5dump prints it whole. */
static hid_t text_type(void)
{
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    H5Tset_cset(type, H5T_CSET_UTF8);
    return type;
}

/* A scalar (@p n 0) or a one-dimensional array of @p n strings. */
static int write_text(hid_t ds, const char *name, const char *const *values, size_t n)
{
    hsize_t dims = n;
    hid_t type = text_type();
    hid_t space = n == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &dims, NULL);
    if (H5Aexists(ds, name) > 0)
        H5Adelete(ds, name);
    hid_t attr = H5Acreate2(ds, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    herr_t rc = attr >= 0 ? H5Awrite(attr, type, values) : -1;
    if (attr >= 0)
        H5Aclose(attr);
    H5Sclose(space);
    H5Tclose(type);
    return rc < 0 ? -1 : 0;
}

/* The member names of the dataset's compound type, in member order (H5free_memory each). */
static char **member_names(hid_t ds, size_t *count)
{
    hid_t type = H5Dget_type(ds);
    int n = type >= 0 && H5Tget_class(type) == H5T_COMPOUND ? H5Tget_nmembers(type) : -1;
    char **names = n > 0 ? calloc((size_t)n, sizeof *names) : NULL;
    for (int i = 0; names != NULL && i < n; i++)
        names[i] = H5Tget_member_name(type, (unsigned)i);
    if (type >= 0)
        H5Tclose(type);
    *count = names != NULL ? (size_t)n : 0;
    return names;
}

static void free_names(char **names, size_t count)
{
    for (size_t i = 0; names != NULL && i < count; i++)
        H5free_memory(names[i]);
    free(names);
}

/* A fixed-length, NUL-terminated ASCII scalar sized to @p value, as H5TBmake_table writes the
 * table specification's attributes (H5LTset_attribute_string): readers that know a table by them
 * compare the text and may not take a variable-length string. */
static int write_fixed(hid_t ds, const char *name, const char *value)
{
    hid_t type = H5Tcopy(H5T_C_S1);
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t attr = -1;
    if (H5Tset_size(type, strlen(value) + 1) >= 0 && H5Tset_strpad(type, H5T_STR_NULLTERM) >= 0) {
        if (H5Aexists(ds, name) > 0)
            H5Adelete(ds, name);
        attr = H5Acreate2(ds, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    }
    herr_t rc = attr >= 0 ? H5Awrite(attr, type, value) : -1;
    if (attr >= 0)
        H5Aclose(attr);
    H5Sclose(space);
    H5Tclose(type);
    return rc < 0 ? -1 : 0;
}

/* The HDF5 Table specification's attributes (version 3.0, libhdf5_hl's H5TB), which PyTables,
 * HDFView and H5TB's readers know a table by; the table's description is its title. Written
 * here rather than by H5TBmake_table, which can neither shuffle nor deflate at level 1 and whose
 * appends reopen the dataset each time: the file took twice as long (tests/bench/bench_write). */
static int write_table_spec(hid_t ds, const char *title, char *const *names, size_t n)
{
    int rc = write_fixed(ds, "CLASS", "TABLE") | write_fixed(ds, "VERSION", "3.0") |
             write_fixed(ds, "TITLE", title);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "FIELD_%zu_NAME", i);
        rc = write_fixed(ds, name, names[i]);
    }
    return rc;
}

int nprb_h5meta_write(hid_t ds, enum nprb_table_id id)
{
    const struct nprb_table_desc *desc = nprb_table_desc(id);
    size_t n = 0;
    char **names = member_names(ds, &n);
    const char **values = names != NULL ? calloc(n, sizeof *values) : NULL;
    const char *description = desc->description;
    int rc = values != NULL ? write_text(ds, "description", &description, 0) : -1;
    for (int a = 0; rc == 0 && a < N_ARRAYS; a++) {
        for (size_t i = 0; i < n; i++) {
            const struct nprb_field *f = nprb_table_field(desc, names[i]);
            const char *unit = f != NULL && f->unit != NULL ? f->unit : "";
            values[i] = a == 0 ? names[i] : a == 1 ? unit : f != NULL ? f->description : "";
        }
        rc = write_text(ds, array_names[a], values, n);
    }
    if (rc == 0)
        rc = write_table_spec(ds, description, names, n);
    free(values);
    free_names(names, n);
    return rc;
}

/* ---- check ----------------------------------------------------------------------------------- */

struct meta_check {
    const struct nprb_table_desc *desc;
    nprb_h5meta_problem_fn fn;
    void *ctx;
    int problems;
};

static void problem(struct meta_check *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void problem(struct meta_check *m, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    m->problems++;
    if (m->fn != NULL)
        m->fn(m->ctx, text);
}

/* The @p n strings of a text attribute (variable or fixed length), each malloc'd; NULL when it
 * cannot be read as such. */
static char **read_strings(hid_t attr, hid_t type, size_t n)
{
    char **out = calloc(n ? n : 1, sizeof *out);
    if (out == NULL)
        return NULL;
    bool ok = false;
    if (H5Tis_variable_str(type) > 0) {
        hid_t mem = text_type();
        char **raw = calloc(n ? n : 1, sizeof *raw);
        ok = raw != NULL && H5Aread(attr, mem, raw) >= 0;
        for (size_t i = 0; raw != NULL && i < n; i++) {
            out[i] = ok ? strdup(raw[i] != NULL ? raw[i] : "") : NULL;
            ok = ok && out[i] != NULL;
            H5free_memory(raw[i]);
        }
        free(raw);
        H5Tclose(mem);
    } else {
        size_t size = H5Tget_size(type);
        char *flat = calloc(n ? n : 1, size + 1);
        hid_t mem = H5Tcopy(type);
        H5Tset_size(mem, size + 1);
        H5Tset_strpad(mem, H5T_STR_NULLTERM);
        ok = flat != NULL && H5Aread(attr, mem, flat) >= 0;
        for (size_t i = 0; ok && i < n; i++)
            ok = (out[i] = strdup(flat + i * (size + 1))) != NULL;
        H5Tclose(mem);
        free(flat);
    }
    if (!ok) {
        for (size_t i = 0; i < n; i++)
            free(out[i]);
        free(out);
        out = NULL;
    }
    return out;
}

/* Why an attribute could not be read as the strings wanted. */
enum attr_fault { ATTR_READ, ATTR_MISSING, ATTR_NOT_TEXT, ATTR_DAMAGED };

/* Attribute @p name of @p ds as @p want strings (0: a scalar string), or NULL with @p fault. */
static char **read_text(hid_t ds, const char *name, size_t want, enum attr_fault *fault)
{
    if (H5Aexists(ds, name) <= 0) {
        *fault = ATTR_MISSING;
        return NULL;
    }
    hid_t attr = H5Aopen(ds, name, H5P_DEFAULT);
    hid_t type = attr >= 0 ? H5Aget_type(attr) : -1;
    hid_t space = attr >= 0 ? H5Aget_space(attr) : -1;
    H5S_class_t shape = space >= 0 ? H5Sget_simple_extent_type(space) : H5S_NO_CLASS;
    hssize_t points = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
    bool text = type >= 0 && H5Tget_class(type) == H5T_STRING;
    bool fits = want == 0 ? shape == H5S_SCALAR
                          : shape == H5S_SIMPLE && H5Sget_simple_extent_ndims(space) == 1 &&
                                points == (hssize_t)want;
    char **values = text && fits ? read_strings(attr, type, want ? want : 1) : NULL;
    *fault = values != NULL ? ATTR_READ : text && fits ? ATTR_DAMAGED : ATTR_NOT_TEXT;
    if (space >= 0)
        H5Sclose(space);
    if (type >= 0)
        H5Tclose(type);
    if (attr >= 0)
        H5Aclose(attr);
    return values;
}

/* The same, saying what is wrong with it as a problem of the table. */
static char **text_attr(struct meta_check *m, hid_t ds, const char *name, size_t want)
{
    enum attr_fault fault;
    char **values = read_text(ds, name, want, &fault);
    if (fault == ATTR_MISSING)
        problem(m, "/%s: attribute %s missing", m->desc->name, name);
    else if (fault == ATTR_NOT_TEXT && want == 0)
        problem(m, "/%s: attribute %s is not a string", m->desc->name, name);
    else if (fault == ATTR_NOT_TEXT)
        problem(m, "/%s: attribute %s is not an array of %zu strings (one per column)",
                m->desc->name, name, want);
    else if (fault == ATTR_DAMAGED)
        problem(m, "/%s: attribute %s cannot be read (damaged file)", m->desc->name, name);
    return values;
}

static void free_strings(char **values, size_t n)
{
    for (size_t i = 0; values != NULL && i < n; i++)
        free(values[i]);
    free(values);
}

/* Attribute @p name of @p ds as one string when it is a scalar string, else NULL (free it). */
static char *scalar_text(hid_t ds, const char *name)
{
    enum attr_fault fault;
    char **values = read_text(ds, name, 0, &fault);
    char *value = values != NULL ? values[0] : NULL;
    free(values);
    return value;
}

/* The table specification's attributes: CLASS and VERSION as the specification spells them, a
 * TITLE, and FIELD_<n>_NAME naming every member n (one line a table, however many are wrong). */
static void check_table_spec(struct meta_check *m, hid_t ds, char *const *names, size_t n)
{
    static const char *const fixed[][2] = {{"CLASS", "TABLE"}, {"VERSION", "3.0"}};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        char **value = text_attr(m, ds, fixed[i][0], 0);
        if (value != NULL && strcmp(value[0], fixed[i][1]) != 0)
            problem(m, "/%s: attribute %s is '%.30s', the HDF5 table specification's is '%s'",
                    m->desc->name, fixed[i][0], value[0], fixed[i][1]);
        free_strings(value, 1);
    }
    free_strings(text_attr(m, ds, "TITLE", 0), 1);
    size_t wrong = 0, first = 0;
    char *found = NULL;
    for (size_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "FIELD_%zu_NAME", i);
        char *value = scalar_text(ds, name);
        if (value == NULL || strcmp(value, names[i]) != 0) {
            if (wrong++ == 0) {
                first = i;
                found = value;
                value = NULL;
            }
        }
        free(value);
    }
    if (wrong > 0)
        problem(m,
                "/%s: attribute FIELD_%zu_NAME %s%.60s%s, the table's column %zu is %s "
                "(%zu column(s) differ)",
                m->desc->name, first, found != NULL ? "names '" : "is missing or not a string",
                found != NULL ? found : "", found != NULL ? "'" : "", first, names[first], wrong);
    free(found);
}

int nprb_h5meta_check(hid_t ds, enum nprb_table_id id, int minor, nprb_h5meta_problem_fn fn,
                      void *ctx)
{
    const struct nprb_table_desc *desc = nprb_table_desc(id);
    struct meta_check m = {desc, fn, ctx, 0};
    size_t n = 0;
    char **names = member_names(ds, &n);
    if (names == NULL)
        return 0; /* not a table: h5in reported it */
    free_strings(text_attr(&m, ds, "description", 0), 1);
    char **columns = text_attr(&m, ds, "columns", n);
    char **units = text_attr(&m, ds, "units", n);
    free_strings(text_attr(&m, ds, "column_descriptions", n), n);
    size_t wrong = 0, first = 0;
    for (size_t i = 0; i < n; i++) {
        if (columns != NULL && strcmp(columns[i], names[i]) != 0) {
            problem(&m, "/%s: attribute columns names '%.60s' at %zu, the table has column %s",
                    desc->name, columns[i], i, names[i]);
            break;
        }
        const struct nprb_field *f = nprb_table_field(desc, names[i]);
        const char *unit = f != NULL && f->unit != NULL ? f->unit : "";
        if (units != NULL && f != NULL && strcmp(units[i], unit) != 0)
            first = wrong++ == 0 ? i : first;
    }
    /* One line a table: a wrong units array is one mistake, however many columns it spans. */
    if (wrong > 0) {
        const struct nprb_field *f = nprb_table_field(desc, names[first]);
        const char *unit = f != NULL && f->unit != NULL ? f->unit : "";
        problem(&m,
                "/%s: column %s has unit '%.30s' in attribute units, the contract says '%s' "
                "(%zu column(s) differ)",
                desc->name, names[first], units[first], unit, wrong);
    }
    if (minor >= NPRB_TABLE_SPEC_SINCE_MINOR)
        check_table_spec(&m, ds, names, n);
    free_strings(columns, n);
    free_strings(units, n);
    free_names(names, n);
    return m.problems;
}
