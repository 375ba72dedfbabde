/* SPDX-License-Identifier: BSD-3-Clause */
#include "results/h5chunks.h"

#include "results/h5decode.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libdeflate.h>

/* Chunks past this are left to HDF5: numaprobe's are 256 KiB (64 KiB in older files), and a damaged
 * layout must not make this allocate gigabytes. */
#define MAX_CHUNK_BYTES ((size_t)16 << 20)

/* Bytes of a file row copied to a struct row: a run of columns laid out alike in both. */
struct copy_run {
    size_t from, to, len;
};

struct nprb_h5chunks {
    hid_t ds;
    hsize_t rows; /* the table's; rows past them are HDF5's to refuse */
    size_t chunk_rows, file_row, mem_row, chunk_bytes;
    bool shuffled, deflated;
    struct copy_run *runs;
    size_t run_count;
    unsigned char *stored; /* the chunk as the file holds it */
    size_t stored_room;
    unsigned char *inflated;      /* inflated, still shuffled (when both filters are on) */
    unsigned char *plain;         /* the chunk's rows in the file's layout (when a filter is on) */
    const unsigned char *rows_at; /* plain, or stored for a chunk without filters */
    hsize_t cached;               /* the chunk rows_at holds */
    bool have_cached;
    struct libdeflate_decompressor *inflater;
};

/* Shuffle (of the row's bytes) then deflate, either, or none: what numaprobe's writer and
 * h5py's defaults give. Their parameters as HDF5's filters take them, which refuse a chunk
 * otherwise: the shuffle's one the element size it was applied with, deflate's one a level. */
static bool filters_known(hid_t dcpl, size_t file_row, bool *shuffled, bool *deflated)
{
    int n = H5Pget_nfilters(dcpl);
    unsigned opts = 0;
    /* Partial edge chunks stored unfiltered would read as garbage here. */
    if (n < 0 || n > 2 || H5Pget_chunk_opts(dcpl, &opts) < 0 || opts != 0)
        return false;
    *shuffled = *deflated = false;
    for (int i = 0; i < n; i++) {
        unsigned flags = 0, cd[4] = {0};
        size_t cd_count = sizeof cd / sizeof cd[0];
        H5Z_filter_t id = H5Pget_filter2(dcpl, (unsigned)i, &flags, &cd_count, cd, 0, NULL, NULL);
        if (id == H5Z_FILTER_SHUFFLE && i == 0 && cd_count == 1 && cd[0] == file_row)
            *shuffled = true;
        else if (id == H5Z_FILTER_DEFLATE && i == n - 1 && cd_count == 1 && cd[0] <= 9)
            *deflated = true;
        else
            return false;
    }
    return true;
}

/* A member of the memory type's place in the file's type, when it has the same type there:
 * its bytes then need no conversion. */
static bool member_in_file(hid_t file_type, hid_t mem_type, unsigned i, struct copy_run *run)
{
    char *name = H5Tget_member_name(mem_type, i);
    int at = name != NULL ? H5Tget_member_index(file_type, name) : -1;
    H5free_memory(name);
    if (at < 0)
        return false;
    hid_t in_file = H5Tget_member_type(file_type, (unsigned)at);
    hid_t in_mem = H5Tget_member_type(mem_type, i);
    bool same = in_file >= 0 && in_mem >= 0 && H5Tequal(in_file, in_mem) > 0;
    *run =
        (struct copy_run){H5Tget_member_offset(file_type, (unsigned)at),
                          H5Tget_member_offset(mem_type, i), in_mem >= 0 ? H5Tget_size(in_mem) : 0};
    if (in_file >= 0)
        H5Tclose(in_file);
    if (in_mem >= 0)
        H5Tclose(in_mem);
    return same && run->len > 0;
}

static bool plan_copies(struct nprb_h5chunks *c, hid_t file_type, hid_t mem_type)
{
    int members = H5Tget_nmembers(mem_type);
    if (members <= 0 || (c->runs = calloc((size_t)members, sizeof *c->runs)) == NULL)
        return false;
    for (int i = 0; i < members; i++) {
        struct copy_run run;
        if (!member_in_file(file_type, mem_type, (unsigned)i, &run) || run.from > c->file_row ||
            run.len > c->file_row - run.from || run.to > c->mem_row ||
            run.len > c->mem_row - run.to)
            return false;
        struct copy_run *last = c->run_count > 0 ? &c->runs[c->run_count - 1] : NULL;
        if (last != NULL && last->from + last->len == run.from && last->to + last->len == run.to)
            last->len += run.len;
        else
            c->runs[c->run_count++] = run;
    }
    return true;
}

static bool layout_known(struct nprb_h5chunks *c, hid_t mem_type)
{
    hid_t dcpl = H5Dget_create_plist(c->ds), type = H5Dget_type(c->ds), space = H5Dget_space(c->ds);
    hsize_t chunk = 0;
    c->file_row = type >= 0 ? H5Tget_size(type) : 0;
    bool known = space >= 0 && H5Sget_simple_extent_ndims(space) == 1 &&
                 H5Sget_simple_extent_dims(space, &c->rows, NULL) == 1 && dcpl >= 0 && type >= 0 &&
                 c->file_row > 0 && H5Tget_class(type) == H5T_COMPOUND &&
                 H5Pget_layout(dcpl) == H5D_CHUNKED && H5Pget_chunk(dcpl, 1, &chunk) == 1 &&
                 chunk > 0 && chunk <= MAX_CHUNK_BYTES / c->file_row &&
                 filters_known(dcpl, c->file_row, &c->shuffled, &c->deflated) &&
                 plan_copies(c, type, mem_type);
    c->chunk_rows = (size_t)chunk;
    c->chunk_bytes = c->chunk_rows * c->file_row;
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (type >= 0)
        H5Tclose(type);
    if (space >= 0)
        H5Sclose(space);
    return known;
}

struct nprb_h5chunks *nprb_h5chunks_open(hid_t ds, hid_t mem_type, size_t row_bytes)
{
    struct nprb_h5chunks *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->ds = ds;
    c->mem_row = row_bytes;
    if (!layout_known(c, mem_type)) {
        nprb_h5chunks_close(c);
        return NULL;
    }
    return c;
}

void nprb_h5chunks_close(struct nprb_h5chunks *c)
{
    if (c == NULL)
        return;
    if (c->inflater != NULL)
        libdeflate_free_decompressor(c->inflater);
    free(c->runs);
    free(c->stored);
    free(c->inflated);
    free(c->plain);
    free(c);
}

/* Inflates the stored chunk into @p out: it must be one zlib stream of exactly chunk_bytes, its
 * Adler-32 sum right. libdeflate, not the zlib inside HDF5: it inflates this data about four
 * times as fast and sums the Adler-32 with vector instructions (bench/README.md "Fleet scale"). */
static int inflate_chunk(struct nprb_h5chunks *c, size_t stored, unsigned char *out)
{
    if (c->inflater == NULL && (c->inflater = libdeflate_alloc_decompressor()) == NULL)
        return -1;
    size_t got = 0;
    if (libdeflate_zlib_decompress(c->inflater, c->stored, stored, out, c->chunk_bytes, &got) !=
            LIBDEFLATE_SUCCESS ||
        got != c->chunk_bytes)
        return -1;
    return 0;
}

static bool buffers(struct nprb_h5chunks *c, size_t most)
{
    if (c->stored != NULL)
        return true;
    c->stored = malloc(most);
    if (c->deflated && c->shuffled)
        c->inflated = malloc(c->chunk_bytes);
    if (c->deflated || c->shuffled)
        c->plain = malloc(c->chunk_bytes);
    return c->stored != NULL && (c->inflated != NULL || !(c->deflated && c->shuffled)) &&
           (c->plain != NULL || !(c->deflated || c->shuffled));
}

static int load_chunk(struct nprb_h5chunks *c, hsize_t chunk)
{
    if (c->have_cached && c->cached == chunk)
        return 0;
    c->have_cached = false;
    hsize_t offset = chunk * c->chunk_rows, stored = 0;
    /* Room for a stream that stores its blocks uncompressed, and a little slack. */
    size_t most = c->deflated ? c->chunk_bytes + c->chunk_bytes / 8 + 1024 : c->chunk_bytes;
    if (H5Dget_chunk_storage_size(c->ds, &offset, &stored) < 0 || stored == 0 || stored > most ||
        (!c->deflated && stored != c->chunk_bytes) || !buffers(c, most))
        return -1;
    uint32_t skipped = 0;
    if (H5Dread_chunk(c->ds, H5P_DEFAULT, &offset, &skipped, c->stored) < 0 || skipped != 0)
        return -1;
    const unsigned char *at = c->stored;
    if (c->deflated) {
        unsigned char *out = c->shuffled ? c->inflated : c->plain;
        if (inflate_chunk(c, (size_t)stored, out) != 0)
            return -1;
        at = out;
    }
    if (c->shuffled)
        nprb_unshuffle(c->plain, at, c->chunk_rows, c->file_row);
    c->rows_at = c->plain != NULL ? c->plain : c->stored;
    c->cached = chunk;
    c->have_cached = true;
    return 0;
}

int nprb_h5chunks_read(struct nprb_h5chunks *c, size_t start, size_t count, void *rows)
{
    unsigned char *out = rows;
    if (start > c->rows || count > c->rows - start)
        return -1;
    for (size_t row = start; row < start + count;) {
        hsize_t chunk = row / c->chunk_rows;
        if (load_chunk(c, chunk) != 0)
            return -1;
        size_t first = row - (size_t)chunk * c->chunk_rows;
        size_t n = c->chunk_rows - first < start + count - row ? c->chunk_rows - first
                                                               : start + count - row;
        for (size_t r = 0; r < n; r++) {
            const unsigned char *src = c->rows_at + (first + r) * c->file_row;
            unsigned char *dst = out + (row - start + r) * c->mem_row;
            for (size_t k = 0; k < c->run_count; k++)
                memcpy(dst + c->runs[k].to, src + c->runs[k].from, c->runs[k].len);
        }
        row += n;
    }
    return 0;
}
