/* SPDX-License-Identifier: BSD-3-Clause */
#include "results/h5in.h"

#include "results/h5chunks.h"
#include "results/h5meta.h"
#include "results/h5types.h"

#include <hdf5.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct nprb_h5in {
    hid_t file;
    int minor; /* the file's schema minor version once its attributes were read; -1 unknown */
    hid_t datasets[NPRB_N_TABLES]; /* 0: not opened (yet) */
    hid_t mem_types[NPRB_N_TABLES];
    bool partial[NPRB_N_TABLES]; /* the file's table lacks columns (an older minor's) */
    struct nprb_h5chunks *chunks[NPRB_N_TABLES]; /* the table's chunks decoded here; NULL: HDF5 */
    bool hdf5_read[NPRB_N_TABLES];               /* HDF5 has read a block of the opened table */
};

int nprb_h5in_open(struct nprb_h5in **out, const char *path, char *err, size_t errlen)
{
    /* A damaged file is an expected input here; numaprobe names the problem itself rather than
     * letting HDF5 print its error stack. */
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    htri_t is_hdf5 = H5Fis_hdf5(path);
    if (is_hdf5 <= 0) {
        snprintf(err, errlen, "not an HDF5 file (%s)",
                 is_hdf5 == 0 ? "no HDF5 signature" : "HDF5 cannot read its first bytes");
        return -1;
    }
    struct nprb_h5in *in = calloc(1, sizeof *in);
    if (in == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    in->minor = -1;
    in->file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (in->file < 0) {
        snprintf(err, errlen,
                 "not a readable HDF5 file: HDF5 cannot open it (truncated or damaged; on a "
                 "network file system try HDF5_USE_FILE_LOCKING=FALSE)");
        free(in);
        return -1;
    }
    *out = in;
    return 0;
}

void nprb_h5in_close(struct nprb_h5in *in)
{
    if (in == NULL)
        return;
    for (int t = 0; t < NPRB_N_TABLES; t++) {
        nprb_h5chunks_close(in->chunks[t]);
        if (in->datasets[t] > 0)
            H5Dclose(in->datasets[t]);
        if (in->mem_types[t] > 0)
            H5Tclose(in->mem_types[t]);
    }
    H5Fclose(in->file);
    free(in);
}

/* ---- root attributes ------------------------------------------------------------------------ */

static char *read_text_attr(hid_t attr, hid_t type)
{
    char *text = NULL;
    if (H5Tis_variable_str(type) > 0) {
        hid_t mem = H5Tcopy(H5T_C_S1);
        H5Tset_size(mem, H5T_VARIABLE);
        H5Tset_cset(mem, H5Tget_cset(type));
        char *value = NULL;
        if (H5Aread(attr, mem, &value) >= 0 && value != NULL) {
            text = strdup(value);
            H5free_memory(value);
        }
        H5Tclose(mem);
        return text;
    }
    size_t size = H5Tget_size(type);
    text = calloc(size + 1, 1);
    if (text == NULL)
        return NULL;
    hid_t mem = H5Tcopy(type);
    if (H5Aread(attr, mem, text) < 0) {
        free(text);
        text = NULL;
    }
    H5Tclose(mem);
    return text;
}

static herr_t collect_attr(hid_t loc, const char *name, const H5A_info_t *info, void *arg)
{
    (void)info;
    struct nprb_attrs *attrs = arg;
    struct nprb_attr *items = realloc(attrs->items, (attrs->count + 1) * sizeof *items);
    if (items == NULL)
        return -1;
    attrs->items = items;
    struct nprb_attr *a = &items[attrs->count++];
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "%s", name);
    a->type = NPRB_ATTR_OTHER;
    hid_t attr = H5Aopen(loc, name, H5P_DEFAULT);
    if (attr < 0)
        return 0;
    hid_t type = H5Aget_type(attr);
    hid_t space = H5Aget_space(attr);
    bool scalar = H5Sget_simple_extent_npoints(space) == 1;
    if (scalar && H5Tget_class(type) == H5T_STRING) {
        a->text = read_text_attr(attr, type);
        a->type = a->text != NULL ? NPRB_ATTR_TEXT : NPRB_ATTR_OTHER;
    } else if (scalar && H5Tget_class(type) == H5T_INTEGER &&
               H5Aread(attr, H5T_NATIVE_INT64, &a->value) >= 0) {
        a->type = NPRB_ATTR_INT;
    }
    H5Sclose(space);
    H5Tclose(type);
    H5Aclose(attr);
    return 0;
}

int nprb_h5in_attrs(struct nprb_h5in *in, struct nprb_attrs *attrs)
{
    memset(attrs, 0, sizeof *attrs);
    hsize_t idx = 0;
    if (H5Aiterate2(in->file, H5_INDEX_NAME, H5_ITER_INC, &idx, collect_attr, attrs) < 0) {
        nprb_attrs_free(attrs);
        return -1;
    }
    in->minor = nprb_schema_minor(nprb_attrs_text(attrs, "schema_version"));
    return 0;
}

const struct nprb_attr *nprb_attrs_find(const struct nprb_attrs *attrs, const char *name)
{
    for (size_t i = 0; i < attrs->count; i++)
        if (strcmp(attrs->items[i].name, name) == 0)
            return &attrs->items[i];
    return NULL;
}

const char *nprb_attrs_text(const struct nprb_attrs *attrs, const char *name)
{
    const struct nprb_attr *a = nprb_attrs_find(attrs, name);
    return a != NULL && a->type == NPRB_ATTR_TEXT ? a->text : NULL;
}

int64_t nprb_attrs_int(const struct nprb_attrs *attrs, const char *name, int64_t fallback)
{
    const struct nprb_attr *a = nprb_attrs_find(attrs, name);
    return a != NULL && a->type == NPRB_ATTR_INT ? a->value : fallback;
}

void nprb_attrs_free(struct nprb_attrs *attrs)
{
    for (size_t i = 0; i < attrs->count; i++)
        free(attrs->items[i].text);
    free(attrs->items);
    memset(attrs, 0, sizeof *attrs);
}

/* ---- tables ---------------------------------------------------------------------------------- */

static void problem(nprb_h5in_problem_fn fn, void *ctx, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void problem(nprb_h5in_problem_fn fn, void *ctx, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (fn != NULL)
        fn(ctx, text);
}

/* A column name is printable ASCII: a damaged byte outside it gives a name no reader can take
 * (h5py refuses to decode the table's type), though HDF5 itself still reads the rows. */
static bool column_name_ok(const char *name)
{
    if (name == NULL || name[0] == '\0')
        return false;
    for (const unsigned char *c = (const unsigned char *)name; *c != '\0'; c++)
        if (*c < 0x20 || *c > 0x7e)
            return false;
    return true;
}

/* Every member inside the row. HDF5 1.10 trusts the offsets it finds in the file, and a damaged
 * one makes its conversion copy outside its buffers: such a table is refused before reading. */
static int members_inside(hid_t type, const struct nprb_table_desc *d, nprb_h5in_problem_fn fn,
                          void *ctx)
{
    size_t row = H5Tget_size(type);
    int members = H5Tget_nmembers(type), bad = 0;
    for (int i = 0; i < members; i++) {
        char *column = H5Tget_member_name(type, (unsigned)i);
        if (!column_name_ok(column)) {
            problem(fn, ctx, "/%s: column %d's name is not a column name (damaged type)", d->name,
                    i + 1);
            bad++;
        }
        H5free_memory(column);
        hid_t member = H5Tget_member_type(type, (unsigned)i);
        size_t offset = H5Tget_member_offset(type, (unsigned)i);
        size_t size = member >= 0 ? H5Tget_size(member) : 0;
        if (member < 0 || size == 0 || offset > row || size > row - offset) {
            char *name = H5Tget_member_name(type, (unsigned)i);
            problem(fn, ctx, "/%s: column %s lies outside the %zu-byte row (damaged type)", d->name,
                    name != NULL ? name : "?", row);
            H5free_memory(name);
            bad++;
        }
        if (member >= 0)
            H5Tclose(member);
    }
    return bad;
}

/* Whether a file of schema minor @p minor may lack the column. */
static bool added_after(int minor, const struct nprb_field *f)
{
    return minor >= 0 && minor < f->since_minor;
}

/* Every column of the descriptor present with its type (but for those added after the file's
 * minor version); reports each one that is not. */
static int compare_columns(struct nprb_h5in *in, enum nprb_table_id table, hid_t type,
                           nprb_h5in_problem_fn fn, void *ctx)
{
    const struct nprb_table_desc *d = nprb_table_desc(table);
    int bad = members_inside(type, d, fn, ctx);
    in->partial[table] = false;
    for (size_t i = 0; i < d->field_count; i++) {
        const struct nprb_field *f = &d->fields[i];
        int idx = H5Tget_member_index(type, f->name);
        /* Absent, or present in the type it had before this minor (pass_values was text):
         * either way the column reads as the descriptor says an older file's does. */
        if (added_after(in->minor, f)) {
            in->partial[table] = true;
            continue;
        }
        if (idx < 0) {
            problem(fn, ctx, "/%s: column %s missing", d->name, f->name);
            bad++;
            continue;
        }
        hid_t member = H5Tget_member_type(type, (unsigned)idx);
        char found[64], want[32];
        if (member < 0 || !nprb_h5_field_matches(member, f, found, sizeof found)) {
            nprb_h5_field_type_name(f, want, sizeof want);
            problem(fn, ctx, "/%s: column %s is %s, expected %s", d->name, f->name,
                    member < 0 ? "unreadable" : found, want);
            bad++;
        }
        if (member >= 0)
            H5Tclose(member);
    }
    return bad;
}

/* A damaged extent can claim billions of rows, which HDF5 would happily "read" as fill values for
 * hours. The writer writes every row it declares: a chunked table (numaprobe's, compressed or
 * not) has a chunk for each, a contiguous one (not numaprobe's) the bytes. */
static bool rows_stored(hid_t ds, hid_t type, hsize_t rows)
{
    hid_t dcpl = H5Dget_create_plist(ds);
    hsize_t chunk_rows = 0;
    bool chunked = dcpl >= 0 && H5Pget_layout(dcpl) == H5D_CHUNKED &&
                   H5Pget_chunk(dcpl, 1, &chunk_rows) == 1 && chunk_rows > 0;
    int filters = dcpl >= 0 ? H5Pget_nfilters(dcpl) : 0;
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (chunked) {
        hsize_t chunks = 0;
        hid_t space = H5Dget_space(ds); /* HDF5 1.10 does not take H5S_ALL here */
        herr_t rc = space >= 0 ? H5Dget_num_chunks(ds, space, &chunks) : -1;
        if (space >= 0)
            H5Sclose(space);
        if (rc < 0)
            return false;
        return chunks <= UINT64_MAX / chunk_rows && rows <= chunks * chunk_rows;
    }
    if (filters != 0) /* filters need chunks; nothing sensible to compare with */
        return true;
    size_t row = H5Tget_size(type);
    return row > 0 && rows <= H5Dget_storage_size(ds) / row;
}

int nprb_h5in_table(struct nprb_h5in *in, enum nprb_table_id table, size_t *rows,
                    nprb_h5in_problem_fn fn, void *ctx)
{
    const struct nprb_table_desc *d = nprb_table_desc(table);
    *rows = 0;
    nprb_h5chunks_close(in->chunks[table]);
    in->chunks[table] = NULL;
    in->hdf5_read[table] = false;
    if (in->datasets[table] > 0) {
        H5Dclose(in->datasets[table]);
        in->datasets[table] = 0;
    }
    if (H5Lexists(in->file, d->name, H5P_DEFAULT) <= 0) {
        if (in->minor >= 0 && in->minor < d->since_minor)
            return 0; /* a file older than the table: read as empty */
        problem(fn, ctx, "table /%s missing", d->name);
        return -1;
    }
    hid_t ds = H5Dopen2(in->file, d->name, H5P_DEFAULT);
    if (ds < 0) {
        problem(fn, ctx, "/%s cannot be opened as a dataset (damaged, or not a table)", d->name);
        return -1;
    }
    int bad = 0;
    hid_t type = H5Dget_type(ds);
    hid_t space = H5Dget_space(ds);
    int ndims = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
    hsize_t dims = 0;
    if (type < 0 || H5Tget_class(type) != H5T_COMPOUND) {
        problem(fn, ctx, "/%s is not a table of rows (an HDF5 compound dataset)", d->name);
        bad++;
    } else {
        bad += compare_columns(in, table, type, fn, ctx);
    }
    if (ndims != 1 || H5Sget_simple_extent_dims(space, &dims, NULL) < 0) {
        problem(fn, ctx, "/%s has %d dimensions, expected 1 (one row per entry)", d->name, ndims);
        bad++;
    }
    if (bad == 0 && !rows_stored(ds, type, dims)) {
        problem(fn, ctx, "/%s says it has %llu rows, but the file does not hold them (damaged)",
                d->name, (unsigned long long)dims);
        bad++;
    }
    if (space >= 0)
        H5Sclose(space);
    if (type >= 0)
        H5Tclose(type);
    if (in->mem_types[table] <= 0)
        in->mem_types[table] = nprb_h5_row_type(d, in->minor);
    if (bad > 0 || in->mem_types[table] < 0) {
        H5Dclose(ds);
        return -1;
    }
    in->datasets[table] = ds;
    in->chunks[table] = nprb_h5chunks_open(ds, in->mem_types[table], d->row_bytes);
    *rows = (size_t)dims;
    return 0;
}

int nprb_h5in_table_attrs(struct nprb_h5in *in, enum nprb_table_id table, nprb_h5in_problem_fn fn,
                          void *ctx)
{
    /* A newer minor may have grown a table (columns this binary does not know): its attributes
     * are not held to this binary's contract, as its added columns are not. */
    if (in->datasets[table] <= 0 || in->minor < NPRB_TABLE_ATTRS_SINCE_MINOR ||
        in->minor > nprb_schema_minor(NPRB_SCHEMA_VERSION))
        return 0;
    return nprb_h5meta_check(in->datasets[table], table, in->minor, fn, ctx);
}

/* Every column of @p count rows as a file without it means it: 0, empty text, or the value of
 * its descriptor row (a later pass count of 1, a kernel counter of -1, an unknown NaN). */
static void fill_absent(enum nprb_table_id table, void *rows, size_t count)
{
    const struct nprb_table_desc *d = nprb_table_desc(table);
    memset(rows, 0, count * d->row_bytes);
    for (size_t f = 0; f < d->field_count; f++) {
        const struct nprb_field *c = &d->fields[f];
        if (c->kind == NPRB_FIELD_STR || c->absent == 0)
            continue;
        for (size_t r = 0; r < count; r++) {
            unsigned char *at = (unsigned char *)rows + r * d->row_bytes + c->offset;
            if (c->kind == NPRB_FIELD_F64_ARRAY) {
                for (size_t k = 0; k < c->size / sizeof c->absent; k++)
                    memcpy(at + k * sizeof c->absent, &c->absent, sizeof c->absent);
                continue;
            }
            int8_t i8 = (int8_t)c->absent;
            int32_t i32 = (int32_t)c->absent;
            int64_t i64 = (int64_t)c->absent;
            uint64_t u64 = (uint64_t)c->absent;
            const void *value = c->kind == NPRB_FIELD_I8    ? (const void *)&i8
                                : c->kind == NPRB_FIELD_I32 ? (const void *)&i32
                                : c->kind == NPRB_FIELD_I64 ? (const void *)&i64
                                : c->kind == NPRB_FIELD_U64 ? (const void *)&u64
                                                            : (const void *)&c->absent;
            memcpy(at, value, c->size);
        }
    }
}

int nprb_h5in_read(struct nprb_h5in *in, enum nprb_table_id table, size_t start, size_t count,
                   void *rows)
{
    if (count == 0)
        return 0;
    hid_t ds = in->datasets[table];
    if (ds <= 0)
        return -1;
    /* Columns an older file lacks are left as they are by the conversion: what the contract
     * says they were before they existed. A complete table's rows are all written, so a
     * fleet's millions are not cleared first. */
    if (in->partial[table])
        fill_absent(table, rows, count);
    /* numaprobe's own layout is decoded here, several times faster than HDF5's filters do it;
     * any other layout, and any chunk the decoder does not take, HDF5 reads as it always has.
     * The first block is HDF5's too: it checks the table as a whole (fill value, type
     * conversion) on every read, and a table it refuses once is left to it. */
    if (in->chunks[table] == NULL || !in->hdf5_read[table] ||
        nprb_h5chunks_read(in->chunks[table], start, count, rows) != 0) {
        hsize_t first = start, n = count;
        hid_t space = H5Dget_space(ds);
        hid_t mem = H5Screate_simple(1, &n, NULL);
        herr_t rc = H5Sselect_hyperslab(space, H5S_SELECT_SET, &first, NULL, &n, NULL);
        if (rc >= 0)
            rc = H5Dread(ds, in->mem_types[table], mem, space, H5P_DEFAULT, rows);
        H5Sclose(mem);
        H5Sclose(space);
        if (rc < 0)
            return -1;
        in->hdf5_read[table] = true;
    }
    /* The writer always terminates text; a damaged file may not, and the readers use C strings. */
    const struct nprb_table_desc *d = nprb_table_desc(table);
    for (size_t f = 0; f < d->field_count; f++) {
        if (d->fields[f].kind != NPRB_FIELD_STR)
            continue;
        unsigned char *last = (unsigned char *)rows + d->fields[f].offset + d->fields[f].size - 1;
        for (size_t r = 0; r < count; r++)
            last[r * d->row_bytes] = '\0';
    }
    nprb_rows_parse_ids(table, rows, count);
    return 0;
}

bool nprb_h5in_decodes_chunks(const struct nprb_h5in *in, enum nprb_table_id table)
{
    return in->chunks[table] != NULL;
}

struct first_problem {
    char *text;
    size_t len;
};

static void keep_first_problem(void *ctx, const char *text)
{
    struct first_problem *first = ctx;
    if (first->text[0] == '\0')
        snprintf(first->text, first->len, "%s", text);
}

int nprb_h5in_read_all(struct nprb_h5in *in, struct nprb_results *results, char *err, size_t errlen)
{
    enum { BLOCK = 1024 };
    for (int t = 0; t < NPRB_N_TABLES; t++) {
        const struct nprb_table_desc *d = nprb_table_desc((enum nprb_table_id)t);
        size_t rows = 0;
        err[0] = '\0';
        struct first_problem first = {err, errlen};
        if (nprb_h5in_table(in, (enum nprb_table_id)t, &rows, keep_first_problem, &first) != 0)
            return -1;
        unsigned char *buf = malloc(BLOCK * d->row_bytes);
        if (buf == NULL) {
            snprintf(err, errlen, "out of memory reading /%s", d->name);
            return -1;
        }
        for (size_t start = 0; start < rows; start += BLOCK) {
            size_t n = rows - start < BLOCK ? rows - start : BLOCK;
            int rc = nprb_h5in_read(in, (enum nprb_table_id)t, start, n, buf);
            for (size_t r = 0; rc == 0 && r < n; r++)
                rc = nprb_results_add(results, (enum nprb_table_id)t, buf + r * d->row_bytes);
            if (rc != 0) {
                snprintf(err, errlen, "cannot read rows %zu..%zu of /%s (damaged file?)", start,
                         start + n - 1, d->name);
                free(buf);
                return -1;
            }
        }
        free(buf);
    }
    return 0;
}
