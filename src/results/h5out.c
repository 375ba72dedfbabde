/* SPDX-License-Identifier: BSD-3-Clause */
#include "results/h5out.h"

#include "results/contract.h"
#include "results/h5meta.h"
#include "results/h5room.h"
#include "results/h5types.h"
#include "util/fault.h"
#include "util/sibling.h"
#include "util/signals.h"

#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The file is built in memory (HDF5's core driver, no backing store) and commit() writes the
 * image out with write() and fsync(), whose every error we see: that is every checkpoint and a
 * job of up to about 400 hosts of the quick config. On disk, HDF5 1.10 loses data quietly when the
 * file system fills: H5Dclose drops chunks it cannot write while H5Fclose still succeeds, and a
 * failed H5Fflush leaves the file open in a state that crashes the library at exit (H5close).
 * A fleet's file cannot stay in memory (3.4 GB at 100,000 hosts, and a copy of it at commit), so
 * past MEMORY_BYTES it goes to its temporary file and HDF5 writes there, into room allocated
 * ahead of it (h5room.h): every byte HDF5 writes, closing included, lands in blocks the file
 * system has already given, so a full disk or a quota is a failed posix_fallocate, our error
 * with errno, never a write HDF5 may not report. Each reservation keeps room for the close
 * beyond the rows to come, so a failed one still lets HDF5 close the file it ends without a
 * failed flush. The closed file is then read back for its rows' and chunks' counts and its
 * length before it may be renamed. */
static const hsize_t MEMORY_BYTES = (hsize_t)16 << 20;

/* HDF5 converts rows to the packed file type in buffers of this size (its default), which it
 * would allocate and zero on every H5Dwrite: a fifth of a fleet's write time. Ours are made
 * once. */
enum { XFER_BUFFER_BYTES = 1 << 20 };

struct nprb_h5 {
    hid_t file;
    hid_t mem_types[NPRB_N_TABLES];
    hid_t datasets[NPRB_N_TABLES];
    hsize_t rows[NPRB_N_TABLES]; /* appended to each table */
    hid_t xfer;                  /* every H5Dwrite's transfer list, with the buffers below */
    void *convert, *background;  /* the row conversion's buffers (XFER_BUFFER_BYTES each) */
    char path[PATH_MAX];
    char tmp_path[PATH_MAX + 32];
    int tmp_fd;                   /* the temporary file, open from create to commit */
    bool on_disk;                 /* HDF5 writes to the temporary file, within room */
    struct nprb_h5room room;      /* on disk: what is reserved ahead of HDF5 */
    int failed;                   /* the errno of the failure that ended the file, or -1; 0: none */
    char failure[PATH_MAX + 160]; /* ... and what was being done */
};

/* Records the first failure that ends the file: appends stop, and commit() says it. */
__attribute__((format(printf, 3, 4))) static void fail(struct nprb_h5 *h5, int errnum,
                                                       const char *format, ...)
{
    if (h5->failed != 0)
        return;
    h5->failed = errnum != 0 ? errnum : -1;
    va_list ap;
    va_start(ap, format);
    vsnprintf(h5->failure, sizeof h5->failure, format, ap);
    va_end(ap);
}

/* Room on disk for @p bytes more of rows, and for the close, before HDF5 takes it. */
static int take_room(struct nprb_h5 *h5, size_t bytes)
{
    int rc = nprb_h5room_reserve(&h5->room, h5->file, bytes);
    if (rc != 0)
        fail(h5, rc, "reserving %lld bytes on disk ahead of HDF5 for %s",
             (long long)h5->room.wanted, h5->tmp_path);
    return rc != 0 ? -1 : 0;
}

/* take_room() for a file on disk; one in memory needs none. */
static int reserve(struct nprb_h5 *h5, size_t bytes)
{
    return h5->on_disk ? take_room(h5, bytes) : 0;
}

/* The temporary files open now (the results file, a checkpoint), for the signal handler: a job
 * killed by its time limit leaves no half-written file behind. Process-wide by nature. */
enum { MAX_OPEN = 4 };
static char open_tmp[MAX_OPEN][PATH_MAX + 32];
static volatile sig_atomic_t open_tmp_used[MAX_OPEN];

static void remove_open_tmp(void)
{
    for (int i = 0; i < MAX_OPEN; i++)
        if (open_tmp_used[i])
            unlink(open_tmp[i]);
}

static void track_tmp(const char *tmp_path, bool open)
{
    for (int i = 0; i < MAX_OPEN; i++) {
        if (open && !open_tmp_used[i]) {
            snprintf(open_tmp[i], sizeof open_tmp[i], "%s", tmp_path);
            open_tmp_used[i] = 1;
            nprb_signals_on_kill(remove_open_tmp);
            return;
        }
        if (!open && open_tmp_used[i] && strcmp(open_tmp[i], tmp_path) == 0) {
            open_tmp_used[i] = 0;
            return;
        }
    }
}

static void free_h5(struct nprb_h5 *h5)
{
    if (h5->xfer > 0)
        H5Pclose(h5->xfer);
    free(h5->convert);
    free(h5->background);
    free(h5);
}

static int create_table(struct nprb_h5 *h5, enum nprb_table_id id)
{
    const struct nprb_table_desc *d = nprb_table_desc(id);
    h5->mem_types[id] = nprb_h5_row_type(d, -1);
    /* The file type is packed: struct padding is a property of this compiler, not of the data. */
    hid_t file_type = H5Tcopy(h5->mem_types[id]);
    H5Tpack(file_type);
    hsize_t dims = 0, maxdims = H5S_UNLIMITED;
    /* Chunks of 256 KiB, deflated at level 1 and not shuffled: every reader (check, merge, the
     * report) inflates every chunk, and at fleet scale that is most of their time. Unshuffled
     * rows inflate faster and need no unshuffle pass after; larger chunks cost fewer lookups.
     * Against 64 KiB shuffled chunks, a fleet file is a quarter larger and check and the report's
     * reading take a third less CPU (bench/README.md "Fleet scale"). Level 1: most of the gain
     * for the least time on rank 0 (tests/bench/bench_write). */
    hsize_t chunk = nprb_h5room_chunk_rows(d);
    hid_t space = H5Screate_simple(1, &dims, &maxdims);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 1, &chunk);
    if (H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0)
        H5Pset_deflate(dcpl, 1);
    hid_t dapl = nprb_h5room_dataset_access();
    h5->datasets[id] = H5Dcreate2(h5->file, d->name, file_type, space, H5P_DEFAULT, dcpl, dapl);
    H5Pclose(dapl);
    H5Pclose(dcpl);
    H5Sclose(space);
    H5Tclose(file_type);
    /* The table's description and its columns' units and meanings ride with it (h5meta.h). */
    if (h5->datasets[id] < 0 || nprb_h5meta_write(h5->datasets[id], id) != 0)
        return -1;
    return 0;
}

/* Creates the temporary file up front: the proof that the place is writable, with the OS's own
 * reason (ENOSPC, EACCES, EROFS) when it is not, before anything is measured. */
static int open_tmp_file(struct nprb_h5 *h5, char *err, size_t errlen)
{
    struct stat st;
    if (stat(h5->path, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "cannot write results to %s: it is a directory", h5->path);
        return -1;
    }
    /* Read and write: where the file system has no fallocate, glibc's posix_fallocate reads
     * the blocks it fills. */
    h5->tmp_fd = open(h5->tmp_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (h5->tmp_fd < 0) {
        snprintf(err, errlen, "cannot write results to %s: %s (creating %s)", h5->path,
                 strerror(errno), h5->tmp_path);
        return -1;
    }
    return 0;
}

static hid_t memory_file_access(void)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl >= 0 && H5Pset_fapl_core(fapl, (size_t)4 << 20, 0) < 0) {
        H5Pclose(fapl);
        return -1;
    }
    return fapl;
}

int nprb_h5_create(struct nprb_h5 **out, const char *path, char *err, size_t errlen)
{
    struct nprb_h5 *h5 = calloc(1, sizeof *h5);
    if (h5 == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    snprintf(h5->path, sizeof h5->path, "%s", path);
    h5->tmp_fd = -1;
    if (nprb_output_temporary(path, h5->tmp_path, sizeof h5->tmp_path) != 0) {
        snprintf(err, errlen, "cannot write results to %s: path too long", path);
        free(h5);
        return -1;
    }
    if (open_tmp_file(h5, err, errlen) != 0) {
        free(h5);
        return -1;
    }
    track_tmp(h5->tmp_path, true);
    /* numaprobe reports HDF5 failures itself, with the path and what it was doing. */
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    h5->convert = calloc(1, XFER_BUFFER_BYTES);
    h5->background = calloc(1, XFER_BUFFER_BYTES);
    h5->xfer = H5Pcreate(H5P_DATASET_XFER);
    if (h5->convert == NULL || h5->background == NULL || h5->xfer < 0 ||
        H5Pset_buffer(h5->xfer, XFER_BUFFER_BYTES, h5->convert, h5->background) < 0) {
        snprintf(err, errlen, "cannot write results to %s: out of memory", path);
        nprb_h5_discard(h5);
        return -1;
    }
    hid_t fapl = memory_file_access();
    h5->file = fapl >= 0 ? H5Fcreate(h5->tmp_path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl) : -1;
    if (fapl >= 0)
        H5Pclose(fapl);
    if (h5->file < 0) {
        snprintf(err, errlen, "cannot create HDF5 file %s in memory (HDF5 error)", h5->tmp_path);
        h5->file = 0;
        nprb_h5_discard(h5);
        return -1;
    }
    for (int t = 0; t < NPRB_N_TABLES; t++) {
        if (create_table(h5, (enum nprb_table_id)t) != 0) {
            snprintf(err, errlen, "cannot create table /%s in %s",
                     nprb_table_desc((enum nprb_table_id)t)->name, h5->tmp_path);
            nprb_h5_discard(h5);
            return -1;
        }
    }
    *out = h5;
    return 0;
}

static void close_all(struct nprb_h5 *h5)
{
    for (int t = 0; t < NPRB_N_TABLES; t++) {
        if (h5->datasets[t] > 0)
            H5Dclose(h5->datasets[t]);
        if (h5->mem_types[t] > 0)
            H5Tclose(h5->mem_types[t]);
        h5->datasets[t] = h5->mem_types[t] = 0;
    }
}

/* Closes every table's dataset (their chunk caches written to the file). @return 0 or -1. */
static int close_datasets(struct nprb_h5 *h5)
{
    int rc = 0;
    for (int t = 0; t < NPRB_N_TABLES; t++)
        if (h5->datasets[t] > 0 && H5Dclose(h5->datasets[t]) < 0)
            rc = -1;
    for (int t = 0; t < NPRB_N_TABLES; t++)
        h5->datasets[t] = 0;
    return rc;
}

static int fsync_path(const char *path, int flags)
{
    int fd = open(path, flags);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

/* The whole image to the temporary file, from its start. @return 0, or -1 with errno. */
static int write_image(int fd, const unsigned char *image, size_t size)
{
    off_t at = 0;
    while (size > 0) {
        ssize_t n = pwrite(fd, image, size, at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = ENOSPC;
            return -1;
        }
        image += n;
        at += n;
        size -= (size_t)n;
    }
    return 0;
}

/* The file's bytes out of HDF5's memory into a buffer of ours; the HDF5 file is closed. */
static unsigned char *take_image(struct nprb_h5 *h5, size_t *size)
{
    unsigned char *image = NULL;
    ssize_t n =
        H5Fflush(h5->file, H5F_SCOPE_GLOBAL) < 0 ? -1 : H5Fget_file_image(h5->file, NULL, 0);
    if (n > 0 && (image = malloc((size_t)n)) != NULL &&
        H5Fget_file_image(h5->file, image, (size_t)n) != n) {
        free(image);
        image = NULL;
    }
    if (H5Fclose(h5->file) < 0) {
        free(image);
        image = NULL;
    }
    h5->file = 0;
    *size = n > 0 ? (size_t)n : 0;
    return image;
}

/* The file in memory goes to its temporary file, which HDF5 then writes itself. The room is
 * reserved first, while a failure still leaves the file whole in memory to be discarded. */
static int to_disk(struct nprb_h5 *h5)
{
    h5->room.fd = h5->tmp_fd;
    if (take_room(h5, 0) != 0)
        return -1;
    size_t size = 0;
    unsigned char *image = close_datasets(h5) == 0 ? take_image(h5, &size) : NULL;
    if (image == NULL || (off_t)size > h5->room.reserved) {
        free(image);
        fail(h5, 0, "HDF5 could not finish %s in memory", h5->tmp_path);
        return -1;
    }
    int rc = write_image(h5->tmp_fd, image, size) != 0 ? errno : 0;
    free(image);
    if (rc != 0) {
        fail(h5, rc, "writing %zu bytes to %s", size, h5->tmp_path);
        return -1;
    }
    hid_t fapl = nprb_h5room_file_access(), dapl = nprb_h5room_dataset_access();
    hid_t file = fapl >= 0 ? H5Fopen(h5->tmp_path, H5F_ACC_RDWR, fapl) : -1;
    h5->file = file > 0 ? file : 0;
    h5->on_disk = file > 0;
    for (int t = 0; t < NPRB_N_TABLES && file > 0; t++) {
        h5->datasets[t] = H5Dopen2(file, nprb_table_desc((enum nprb_table_id)t)->name, dapl);
        if (h5->datasets[t] < 0) {
            h5->datasets[t] = 0;
            fail(h5, 0, "HDF5 cannot open table /%s of %s again on disk",
                 nprb_table_desc((enum nprb_table_id)t)->name, h5->tmp_path);
        }
    }
    H5Pclose(fapl);
    H5Pclose(dapl);
    if (file < 0)
        fail(h5, 0, "HDF5 cannot open %s again on disk", h5->tmp_path);
    return h5->failed != 0 ? -1 : 0;
}

int nprb_h5_append(struct nprb_h5 *h5, enum nprb_table_id table, const void *rows, size_t count)
{
    if (h5->failed != 0)
        return -1;
    if (count == 0)
        return 0;
    if (reserve(h5, count * nprb_table_desc(table)->row_bytes) != 0)
        return -1;
    hid_t ds = h5->datasets[table];
    hsize_t size = h5->rows[table] + count, start = h5->rows[table], n = count;
    if (H5Dset_extent(ds, &size) < 0) {
        fail(h5, 0, "extending /%s to %llu rows", nprb_table_desc(table)->name,
             (unsigned long long)size);
        return -1;
    }
    hid_t space = H5Dget_space(ds);
    H5Sselect_hyperslab(space, H5S_SELECT_SET, &start, NULL, &n, NULL);
    hid_t mem = H5Screate_simple(1, &n, NULL);
    herr_t rc = H5Dwrite(ds, h5->mem_types[table], mem, space, h5->xfer, rows);
    H5Sclose(mem);
    H5Sclose(space);
    if (rc < 0) {
        fail(h5, 0, "appending %zu rows to /%s", count, nprb_table_desc(table)->name);
        return -1;
    }
    h5->rows[table] = size;
    if (h5->on_disk && !nprb_h5room_holds(&h5->room, h5->file)) {
        fail(h5, 0, "HDF5 wrote %s past the room reserved for it", h5->tmp_path);
        return -1;
    }
    hsize_t in_memory = 0;
    if (!h5->on_disk && (nprb_fault(NPRB_FAULT_WRITER_ON_DISK) ||
                         (H5Fget_filesize(h5->file, &in_memory) >= 0 && in_memory >= MEMORY_BYTES)))
        return to_disk(h5);
    return 0;
}

static int write_attr(struct nprb_h5 *h5, const char *name, hid_t type, const void *value,
                      size_t bytes)
{
    if (h5->failed != 0 || reserve(h5, bytes + 4096) != 0)
        return -1;
    if (H5Aexists(h5->file, name) > 0)
        H5Adelete(h5->file, name);
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t attr = H5Acreate2(h5->file, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    herr_t rc = attr >= 0 ? H5Awrite(attr, type, value) : -1;
    if (attr >= 0)
        H5Aclose(attr);
    H5Sclose(space);
    return rc < 0 ? -1 : 0;
}

/* Every root attribute written is one of the contract's, with its type (contract.c): one added
 * here and not there would reach files that check, merge and the report do not know. */
static bool in_contract(const char *name, enum nprb_attr_type type)
{
    const struct nprb_root_attr *a = nprb_root_attr_named(name);
    if (a != NULL && a->type == type)
        return true;
    fprintf(stderr, "numaprobe: root attribute %s %s (src/results/contract.c): not written\n", name,
            a == NULL ? "is not in the results contract" : "has another type in the contract");
    return false;
}

int nprb_h5_attr_text(struct nprb_h5 *h5, const char *name, const char *value)
{
    if (!in_contract(name, NPRB_ATTR_TEXT))
        return -1;
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    H5Tset_cset(type, H5T_CSET_UTF8);
    const char *v = value != NULL ? value : "";
    int rc = write_attr(h5, name, type, &v, strlen(v));
    H5Tclose(type);
    return rc;
}

int nprb_h5_attr_int(struct nprb_h5 *h5, const char *name, int64_t value)
{
    if (!in_contract(name, NPRB_ATTR_INT))
        return -1;
    return write_attr(h5, name, H5T_NATIVE_INT64, &value, sizeof value);
}

/* Memory: the image written out. On disk: HDF5 closes the file in its room, which is then
 * read back (nprb_h5room_verify()). @return 0, or -1 with the message in @p err. */
static int finish_file(struct nprb_h5 *h5, char *err, size_t errlen)
{
    int rc = reserve(h5, 0) != 0 || close_datasets(h5) != 0 ? -1 : 0;
    close_all(h5);
    if (h5->failed != 0) {
        if (h5->file > 0) /* within the room still: a failed reservation took none of it */
            H5Fclose(h5->file);
        h5->file = 0;
        snprintf(err, errlen, "cannot write results to %s: %s (%s)", h5->path,
                 h5->failed > 0 ? strerror(h5->failed) : "HDF5 error", h5->failure);
        return -1;
    }
    if (h5->on_disk) {
        rc = H5Fclose(h5->file) < 0 || rc != 0 ? -1 : 0;
        h5->file = 0;
        char why[256];
        if (rc != 0)
            snprintf(err, errlen, "HDF5 could not close %s", h5->tmp_path);
        else if (nprb_h5room_verify(&h5->room, h5->tmp_path, h5->rows, why, sizeof why) != 0) {
            snprintf(err, errlen, "cannot write results to %s: %s (%s, not renamed into place)",
                     h5->path, why, h5->tmp_path);
            rc = -1;
        } else if (fsync(h5->tmp_fd) != 0) {
            snprintf(err, errlen, "cannot write results to %s: %s (syncing %s)", h5->path,
                     strerror(errno), h5->tmp_path);
            rc = -1;
        }
        return rc;
    }
    size_t size = 0;
    unsigned char *image = take_image(h5, &size);
    if (rc != 0 || image == NULL) {
        snprintf(err, errlen, "HDF5 could not finish %s in memory (out of memory?)", h5->path);
        rc = -1;
    } else if (write_image(h5->tmp_fd, image, size) != 0 || fsync(h5->tmp_fd) != 0) {
        snprintf(err, errlen, "cannot write results to %s: %s (writing %zu bytes to %s)", h5->path,
                 strerror(errno), size, h5->tmp_path);
        rc = -1;
    }
    free(image);
    return rc;
}

int nprb_h5_commit(struct nprb_h5 *h5, char *err, size_t errlen)
{
    int rc = finish_file(h5, err, errlen);
    if (rc == 0) {
        int closed = close(h5->tmp_fd);
        h5->tmp_fd = -1;
        if (closed != 0) {
            snprintf(err, errlen, "cannot write results to %s: %s (closing %s)", h5->path,
                     strerror(errno), h5->tmp_path);
            rc = -1;
        } else if (rename(h5->tmp_path, h5->path) != 0) {
            snprintf(err, errlen, "cannot rename %s to %s: %s", h5->tmp_path, h5->path,
                     strerror(errno));
            rc = -1;
        } else {
            /* The rename itself is durable only once the directory is synced. */
            char dir[PATH_MAX];
            snprintf(dir, sizeof dir, "%s", h5->path);
            (void)fsync_path(dirname(dir), O_RDONLY | O_DIRECTORY);
        }
    }
    /* Nothing half-written stays behind: on failure the temporary file goes too. */
    if (rc != 0)
        nprb_h5_discard(h5);
    else {
        track_tmp(h5->tmp_path, false);
        free_h5(h5);
    }
    return rc;
}

void nprb_h5_discard(struct nprb_h5 *h5)
{
    if (h5 == NULL)
        return;
    close_all(h5);
    if (h5->file > 0)
        H5Fclose(h5->file);
    if (h5->tmp_fd >= 0)
        close(h5->tmp_fd);
    unlink(h5->tmp_path);
    track_tmp(h5->tmp_path, false);
    free_h5(h5);
}

void nprb_h5_print_version(FILE *out)
{
    unsigned major = 0, minor = 0, release = 0;
    H5get_libversion(&major, &minor, &release);
#ifdef H5_HAVE_PARALLEL
    const char *flavour = "parallel";
#else
    const char *flavour = "serial";
#endif
    fprintf(out, "HDF5:     %u.%u.%u (%s; built with %d.%d.%d)\n", major, minor, release, flavour,
            H5_VERS_MAJOR, H5_VERS_MINOR, H5_VERS_RELEASE);
}
