/* SPDX-License-Identifier: BSD-3-Clause */
#include "results/h5room.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Every table's chunk cache: two chunks of 256 KiB, the tail being appended among them. Set
 * here, not left to HDF5's default (1 MiB), because it bounds what closing the file writes. */
enum { CHUNK_CACHE_BYTES = 512 << 10, CHUNK_CACHE_SLOTS = 521 };

/* The room grows in steps: a few posix_fallocate calls for a fleet's file, not one a host. */
static const off_t STEP_BYTES = (off_t)8 << 20;

/* What the estimates leave out: the superblock, the root group's attributes, a B-tree split. */
static const hsize_t SLACK_BYTES = (hsize_t)4 << 20;

hsize_t nprb_h5room_chunk_rows(const struct nprb_table_desc *d)
{
    return 262144 / d->row_bytes > 0 ? 262144 / d->row_bytes : 1;
}

hid_t nprb_h5room_dataset_access(void)
{
    hid_t dapl = H5Pcreate(H5P_DATASET_ACCESS);
    /* w0 1: a chunk written whole leaves the cache first, the tail being filled stays. */
    if (dapl >= 0 && H5Pset_chunk_cache(dapl, CHUNK_CACHE_SLOTS, CHUNK_CACHE_BYTES, 1.0) < 0) {
        H5Pclose(dapl);
        return -1;
    }
    return dapl;
}

hid_t nprb_h5room_file_access(void)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl >= 0 && (H5Pset_fapl_sec2(fapl) < 0 || H5Pset_file_locking(fapl, 0, 1) < 0)) {
        H5Pclose(fapl);
        return -1;
    }
    return fapl;
}

/* The end of what HDF5 allocated in @p file. The core driver of a file still in memory has no
 * H5Fget_eoa (it is for SWMR's drivers): its size, what it allocated in memory, is at least
 * that. HADDR_MAX when neither answers. */
static hsize_t end_of_allocation(hid_t file)
{
    haddr_t eoa = 0;
    hsize_t size = 0;
    if (H5Fget_eoa(file, &eoa) >= 0)
        return (hsize_t)eoa;
    return H5Fget_filesize(file, &size) >= 0 ? size : HADDR_MAX;
}

int nprb_h5room_reserve(struct nprb_h5room *room, hid_t file, size_t bytes)
{
    hsize_t eoa = end_of_allocation(file);
    if (eoa == HADDR_MAX)
        return EIO;
    /* Rows go in compressed, but incompressible ones grow a little under deflate, and the
     * chunk they fill may be written twice (when full, and once before as the tail). Closing
     * writes the chunks still cached, each a new allocation (a chunk moves when its size
     * changes), and metadata: most of it has its place already, the rest (a heap that grows)
     * is less than the metadata cache holds. */
    size_t mdc_max = 0, mdc_clean = 0, mdc_bytes = 0;
    int mdc_entries = 0;
    if (H5Fget_mdc_size(file, &mdc_max, &mdc_clean, &mdc_bytes, &mdc_entries) < 0)
        mdc_bytes = mdc_max = (size_t)32 << 20;
    hsize_t closing = (hsize_t)NPRB_N_TABLES * 2 * CHUNK_CACHE_BYTES + 2 * (hsize_t)mdc_bytes;
    hsize_t need = eoa + 2 * (hsize_t)bytes + closing + SLACK_BYTES;
    if (need <= (hsize_t)room->reserved)
        return 0;
    off_t step = (off_t)eoa / 8 > STEP_BYTES ? (off_t)eoa / 8 : STEP_BYTES;
    room->wanted = ((off_t)need + step - 1) / step * step;
    int rc;
    do
        rc = posix_fallocate(room->fd, room->reserved, room->wanted - room->reserved);
    while (rc == EINTR);
    if (rc == 0)
        room->reserved = room->wanted;
    return rc;
}

bool nprb_h5room_holds(const struct nprb_h5room *room, hid_t file)
{
    return end_of_allocation(file) <= (hsize_t)room->reserved;
}

/* Table @p t of the reopened file holds @p rows rows in every chunk they need. */
static int check_table(hid_t file, enum nprb_table_id t, hsize_t rows, char *err, size_t errlen)
{
    const struct nprb_table_desc *d = nprb_table_desc(t);
    hid_t ds = H5Dopen2(file, d->name, H5P_DEFAULT);
    hid_t space = ds >= 0 ? H5Dget_space(ds) : -1;
    hsize_t dims = 0, chunks = 0, per_chunk = nprb_h5room_chunk_rows(d);
    int rc = -1;
    if (space < 0 || H5Sget_simple_extent_dims(space, &dims, NULL) != 1)
        snprintf(err, errlen, "table /%s cannot be read back", d->name);
    else if (dims != rows)
        snprintf(err, errlen, "table /%s has %llu rows of %llu written", d->name,
                 (unsigned long long)dims, (unsigned long long)rows);
    else if (H5Dget_num_chunks(ds, space, &chunks) < 0 ||
             chunks != (rows + per_chunk - 1) / per_chunk)
        snprintf(err, errlen, "table /%s has %llu chunks of the %llu its rows need (a write lost)",
                 d->name, (unsigned long long)chunks,
                 (unsigned long long)((rows + per_chunk - 1) / per_chunk));
    else
        rc = 0;
    if (space >= 0)
        H5Sclose(space);
    if (ds >= 0)
        H5Dclose(ds);
    return rc;
}

int nprb_h5room_verify(struct nprb_h5room *room, const char *path, const hsize_t *rows, char *err,
                       size_t errlen)
{
    hid_t fapl = nprb_h5room_file_access();
    hid_t file = fapl >= 0 ? H5Fopen(path, H5F_ACC_RDONLY, fapl) : -1;
    if (fapl >= 0)
        H5Pclose(fapl);
    if (file < 0) {
        snprintf(err, errlen, "HDF5 cannot open what it wrote");
        return -1;
    }
    hsize_t eoa = end_of_allocation(file);
    int rc = 0;
    for (int t = 0; t < NPRB_N_TABLES && rc == 0; t++)
        rc = check_table(file, (enum nprb_table_id)t, rows[t], err, errlen);
    if (H5Fclose(file) < 0 && rc == 0) {
        snprintf(err, errlen, "HDF5 cannot close what it wrote");
        rc = -1;
    }
    struct stat st = {0};
    if (rc == 0 && eoa > (hsize_t)room->reserved) {
        snprintf(err, errlen, "HDF5 allocated %llu bytes, past the %lld reserved for it",
                 (unsigned long long)eoa, (long long)room->reserved);
        rc = -1;
    } else if (rc == 0 && (fstat(room->fd, &st) != 0 || eoa > (hsize_t)st.st_size)) {
        snprintf(err, errlen, "it is %lld bytes long, short of its %llu", (long long)st.st_size,
                 (unsigned long long)eoa);
        rc = -1;
    }
    /* HDF5 cuts the file to its end at close only when its last write was not there. */
    if (rc == 0 && st.st_size > (off_t)eoa && ftruncate(room->fd, (off_t)eoa) != 0) {
        snprintf(err, errlen, "cannot cut it to its %llu bytes: %s", (unsigned long long)eoa,
                 strerror(errno));
        rc = -1;
    }
    return rc;
}
