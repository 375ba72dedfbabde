/* SPDX-License-Identifier: BSD-3-Clause */
/* What the writer (h5out) writes, the reader (h5in) reads back: every column of every table,
 * field by field, and the root attributes, through the one set of types in h5types; the enums a
 * row carries beside its text, parsed on the way in; and rows of many chunks, which the reader
 * decodes itself, in blocks of any size and order. */
#include "../unit/check.h"
#include "results/h5in.h"
#include "results/h5out.h"
#include "results/results.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

/* Deterministic contents: every byte of every field depends on table, row and field. */
static void fill_row(unsigned char *row, const struct nprb_table_desc *d, int table, int r)
{
    memset(row, 0, d->row_bytes);
    for (size_t f = 0; f < d->field_count; f++) {
        unsigned char *p = row + d->fields[f].offset;
        int seed = table * 1000 + r * 37 + (int)f;
        if (d->fields[f].kind == NPRB_FIELD_STR) {
            size_t n = (size_t)seed % d->fields[f].size; /* 0 .. size-1 characters */
            for (size_t i = 0; i < n; i++)
                p[i] = (unsigned char)('a' + (seed + (int)i) % 26);
        } else if (d->fields[f].kind == NPRB_FIELD_F64) {
            double v = seed * 0.25 - 3.0;
            memcpy(p, &v, sizeof v);
        } else {
            for (size_t i = 0; i < d->fields[f].size; i++)
                p[i] = (unsigned char)(seed * 31 + (int)i * 7);
        }
    }
    int32_t rank = r % 3; /* "rank" is the first column of every table */
    memcpy(row + d->fields[0].offset, &rank, sizeof rank);
}

/* Rows read back carry the enums their text names, and a name this build does not know (a
 * later version's experiment, kernel, policy, first-touch mode or pair class) reads as none or
 * unknown rather than as some other one. */
static void ids_roundtrip(const char *dir)
{
    char path[PATH_MAX], err[512] = "";
    snprintf(path, sizeof path, "%s/h5in-ids.h5", dir);
    struct nprb_bandwidth_row rows[2] = {{.rank = 0}, {.rank = 0}};
    NPRB_SET_EXPERIMENT(&rows[0], NPRB_EXPERIMENT_BANDWIDTH_MATRIX);
    nprb_row_set_kernel(&rows[0], NPRB_KERNEL_TRIAD);
    NPRB_SET_PAIR_CLASS(&rows[0], NPRB_PAIR_CROSS_PACKAGE);
    NPRB_SET_MEM_POLICY(&rows[0], NPRB_MEM_INTERLEAVE);
    nprb_row_set_touch(&rows[0], NPRB_TOUCH_SERIAL);
    NPRB_SET_TEXT(rows[1].experiment, "later_experiment");
    NPRB_SET_TEXT(rows[1].kernel, "later_kernel");
    NPRB_SET_TEXT(rows[1].pair_class, "same_rack");
    NPRB_SET_TEXT(rows[1].mem_policy, "weighted");
    NPRB_SET_TEXT(rows[1].init_mode, "bound");
    rows[1].experiment_id = NPRB_EXPERIMENT_FIRST_TOUCH; /* not written: the text is */
    rows[1].kernel_id = NPRB_KERNEL_READ;
    rows[1].pair_class_id = NPRB_PAIR_LOCAL;
    rows[1].mem_policy_id = NPRB_MEM_BIND;
    rows[1].init_mode_id = NPRB_TOUCH_BIND;
    struct nprb_h5 *h5 = NULL;
    CHECK(nprb_h5_create(&h5, path, err, sizeof err) == 0);
    CHECK(h5 != NULL && nprb_h5_append(h5, NPRB_TABLE_BANDWIDTH, rows, 2) == 0);
    CHECK(h5 != NULL && nprb_h5_commit(h5, err, sizeof err) == 0);
    struct nprb_h5in *in = NULL;
    CHECK(nprb_h5in_open(&in, path, err, sizeof err) == 0);
    struct nprb_results read;
    nprb_results_init(&read);
    CHECK(in != NULL && nprb_h5in_read_all(in, &read, err, sizeof err) == 0);
    CHECK(read.tables[NPRB_TABLE_BANDWIDTH].count == 2);
    if (read.tables[NPRB_TABLE_BANDWIDTH].count != 2)
        return;
    const struct nprb_bandwidth_row *back = nprb_row_at(&read.tables[NPRB_TABLE_BANDWIDTH], 0);
    CHECK(back[0].experiment_id == NPRB_EXPERIMENT_BANDWIDTH_MATRIX);
    CHECK(back[0].kernel_id == NPRB_KERNEL_TRIAD);
    CHECK(strcmp(back[0].kernel, "triad") == 0);
    CHECK(back[0].pair_class_id == NPRB_PAIR_CROSS_PACKAGE);
    CHECK(strcmp(back[0].pair_class, "cross_package") == 0);
    CHECK(back[0].mem_policy_id == NPRB_MEM_INTERLEAVE &&
          back[0].init_mode_id == NPRB_TOUCH_SERIAL);
    CHECK(back[1].experiment_id == NPRB_EXPERIMENT_NONE);
    CHECK(back[1].kernel_id == NPRB_N_KERNELS);
    CHECK(back[1].pair_class_id == NPRB_PAIR_UNKNOWN);
    CHECK(back[1].mem_policy_id == NPRB_N_MEM_POLICIES);
    CHECK(back[1].init_mode_id == NPRB_N_TOUCH_MODES);
    CHECK(strcmp(back[1].experiment, "later_experiment") == 0);
    nprb_results_free(&read);
    if (in != NULL)
        nprb_h5in_close(in);
    remove(path);
}

/* Columns of @p count rows of @p d that differ between @p a and @p b, each reported. */
static size_t columns_differ(const struct nprb_table_desc *d, const unsigned char *a,
                             const unsigned char *b, size_t count)
{
    size_t differ = 0;
    for (size_t r = 0; r < count; r++)
        for (size_t f = 0; f < d->field_count; f++) {
            const struct nprb_field *fd = &d->fields[f];
            if (memcmp(a + r * d->row_bytes + fd->offset, b + r * d->row_bytes + fd->offset,
                       fd->size) != 0) {
                fprintf(stderr, "/%s row %zu column %s differs\n", d->name, r, fd->name);
                differ++;
            }
        }
    return differ;
}

/* Rows spanning many chunks, which the reader decodes itself, read back whatever the blocks:
 * a row at a time, a chunk's worth, blocks across chunk boundaries, and backwards (the chunk
 * kept from the read before is then never the one wanted). Rows past the end are refused. */
static void blocks_roundtrip(const char *dir)
{
    enum { ROWS = 1000 };
    const enum nprb_table_id tables[] = {NPRB_TABLE_COUNTERS, NPRB_TABLE_LATENCY, NPRB_TABLE_HOSTS};
    enum { N = sizeof tables / sizeof tables[0] };
    char path[PATH_MAX], err[512] = "";
    snprintf(path, sizeof path, "%s/h5in-blocks.h5", dir);
    unsigned char *written[N] = {NULL};
    struct nprb_h5 *h5 = NULL;
    CHECK(nprb_h5_create(&h5, path, err, sizeof err) == 0);
    for (size_t t = 0; t < N && h5 != NULL; t++) {
        const struct nprb_table_desc *d = nprb_table_desc(tables[t]);
        written[t] = malloc(ROWS * d->row_bytes);
        for (int r = 0; written[t] != NULL && r < ROWS; r++)
            fill_row(written[t] + (size_t)r * d->row_bytes, d, (int)tables[t], r);
        CHECK(written[t] != NULL && nprb_h5_append(h5, tables[t], written[t], ROWS) == 0);
    }
    CHECK(h5 != NULL && nprb_h5_commit(h5, err, sizeof err) == 0);
    struct nprb_h5in *in = NULL;
    CHECK(nprb_h5in_open(&in, path, err, sizeof err) == 0);
    for (size_t t = 0; t < N && in != NULL && written[t] != NULL; t++) {
        const struct nprb_table_desc *d = nprb_table_desc(tables[t]);
        unsigned char *read = malloc(ROWS * d->row_bytes);
        if (read == NULL)
            break;
        size_t rows = 0;
        CHECK(nprb_h5in_table(in, tables[t], &rows, NULL, NULL) == 0 && rows == ROWS);
        CHECK(nprb_h5in_decodes_chunks(in, tables[t]));
        const size_t blocks[] = {1, 7, 65536 / d->row_bytes, 65536 / d->row_bytes + 1, 333, ROWS};
        for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++) {
            memset(read, 0, ROWS * d->row_bytes);
            for (size_t start = 0; start < ROWS; start += blocks[b]) {
                size_t n = ROWS - start < blocks[b] ? ROWS - start : blocks[b];
                CHECK(nprb_h5in_read(in, tables[t], start, n, read + start * d->row_bytes) == 0);
            }
            CHECK(columns_differ(d, read, written[t], ROWS) == 0);
        }
        memset(read, 0, ROWS * d->row_bytes);
        for (size_t end = ROWS; end > 0;) {
            size_t n = end < 97 ? end : 97;
            end -= n;
            CHECK(nprb_h5in_read(in, tables[t], end, n, read + end * d->row_bytes) == 0);
        }
        CHECK(columns_differ(d, read, written[t], ROWS) == 0);
        CHECK(nprb_h5in_read(in, tables[t], ROWS - 5, 10, read) != 0);
        free(read);
    }
    if (in != NULL)
        nprb_h5in_close(in);
    for (size_t t = 0; t < N; t++)
        free(written[t]);
    remove(path);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return SKIP_TEST;
    char path[PATH_MAX], err[512] = "";
    snprintf(path, sizeof path, "%s/h5in-roundtrip.h5", argv[1]);
    enum { ROWS = 5 };

    struct nprb_h5 *h5 = NULL;
    CHECK(nprb_h5_create(&h5, path, err, sizeof err) == 0);
    if (h5 == NULL) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    struct nprb_results written;
    nprb_results_init(&written);
    for (int t = 0; t < NPRB_N_TABLES; t++) {
        const struct nprb_table_desc *d = nprb_table_desc((enum nprb_table_id)t);
        unsigned char *row = malloc(d->row_bytes);
        for (int r = 0; r < ROWS + t; r++) {
            fill_row(row, d, t, r);
            CHECK(nprb_results_add(&written, (enum nprb_table_id)t, row) == 0);
        }
        free(row);
        CHECK(nprb_h5_append(h5, (enum nprb_table_id)t, written.tables[t].data,
                             written.tables[t].count) == 0);
    }
    CHECK(nprb_h5_attr_text(h5, "schema", "numaprobe") == 0);
    CHECK(nprb_h5_attr_int(h5, "world_size", 1234567890123) == 0);
    CHECK(nprb_h5_commit(h5, err, sizeof err) == 0);

    struct nprb_h5in *in = NULL;
    CHECK(nprb_h5in_open(&in, path, err, sizeof err) == 0);
    if (in == NULL) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    struct nprb_attrs attrs;
    CHECK(nprb_h5in_attrs(in, &attrs) == 0);
    CHECK(attrs.count == 2);
    CHECK(nprb_attrs_text(&attrs, "schema") &&
          strcmp(nprb_attrs_text(&attrs, "schema"), "numaprobe") == 0);
    CHECK(nprb_attrs_int(&attrs, "world_size", -1) == 1234567890123);
    CHECK(nprb_attrs_text(&attrs, "world_size") == NULL);
    CHECK(nprb_attrs_int(&attrs, "missing", -7) == -7);
    nprb_attrs_free(&attrs);

    struct nprb_results read;
    nprb_results_init(&read);
    CHECK(nprb_h5in_read_all(in, &read, err, sizeof err) == 0);
    for (int t = 0; t < NPRB_N_TABLES; t++) {
        const struct nprb_table_desc *d = nprb_table_desc((enum nprb_table_id)t);
        CHECK(read.tables[t].count == written.tables[t].count);
        size_t both = read.tables[t].count < written.tables[t].count ? read.tables[t].count
                                                                     : written.tables[t].count;
        CHECK(columns_differ(d, read.tables[t].data, written.tables[t].data, both) == 0);
    }
    nprb_results_free(&read);
    nprb_results_free(&written);
    nprb_h5in_close(in);
    remove(path);
    ids_roundtrip(argv[1]);
    blocks_roundtrip(argv[1]);
    return CHECK_DONE();
}
