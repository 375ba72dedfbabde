/* SPDX-License-Identifier: BSD-3-Clause */
#include "results/h5out.h"

#include "results/contract.h"
#include "results/h5meta.h"
#include "results/h5types.h"
#include "util/sibling.h"
#include "util/signals.h"

#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct nprb_h5 {
    hid_t file;
    hid_t mem_types[NPRB_N_TABLES];
    hid_t datasets[NPRB_N_TABLES];
    char path[PATH_MAX];
    char tmp_path[PATH_MAX + 32];
    int tmp_fd; /* the temporary file, open from create to commit */
};

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
    hsize_t chunk = 262144 / d->row_bytes > 0 ? 262144 / d->row_bytes : 1;
    hid_t space = H5Screate_simple(1, &dims, &maxdims);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 1, &chunk);
    if (H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0)
        H5Pset_deflate(dcpl, 1);
    h5->datasets[id] =
        H5Dcreate2(h5->file, d->name, file_type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
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
    h5->tmp_fd = open(h5->tmp_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (h5->tmp_fd < 0) {
        snprintf(err, errlen, "cannot write results to %s: %s (creating %s)", h5->path,
                 strerror(errno), h5->tmp_path);
        return -1;
    }
    return 0;
}

/* The file is built in memory (HDF5's core driver, no backing store) and written out by
 * commit() with write() and fsync(), whose every error we see. On disk, HDF5 1.10 loses data
 * quietly when the file system fills: H5Dclose drops chunks it cannot write while H5Fclose still
 * succeeds, and a failed H5Fflush leaves the file open in a state that crashes the library at
 * exit (H5close). The price is the compressed file in rank 0's memory (17 KB a host). */
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

int nprb_h5_append(struct nprb_h5 *h5, enum nprb_table_id table, const void *rows, size_t count)
{
    if (count == 0)
        return 0;
    hid_t ds = h5->datasets[table];
    hid_t space = H5Dget_space(ds);
    hsize_t old = 0;
    H5Sget_simple_extent_dims(space, &old, NULL);
    H5Sclose(space);
    hsize_t size = old + count, start = old, n = count;
    if (H5Dset_extent(ds, &size) < 0)
        return -1;
    space = H5Dget_space(ds);
    H5Sselect_hyperslab(space, H5S_SELECT_SET, &start, NULL, &n, NULL);
    hid_t mem = H5Screate_simple(1, &n, NULL);
    herr_t rc = H5Dwrite(ds, h5->mem_types[table], mem, space, H5P_DEFAULT, rows);
    H5Sclose(mem);
    H5Sclose(space);
    return rc < 0 ? -1 : 0;
}

static int write_attr(struct nprb_h5 *h5, const char *name, hid_t type, const void *value)
{
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
    int rc = write_attr(h5, name, type, &v);
    H5Tclose(type);
    return rc;
}

int nprb_h5_attr_int(struct nprb_h5 *h5, const char *name, int64_t value)
{
    if (!in_contract(name, NPRB_ATTR_INT))
        return -1;
    return write_attr(h5, name, H5T_NATIVE_INT64, &value);
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

static int fsync_path(const char *path, int flags)
{
    int fd = open(path, flags);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

/* The whole image to the open temporary file. @return 0, or -1 with errno. */
static int write_image(int fd, const unsigned char *image, size_t size)
{
    while (size > 0) {
        ssize_t n = write(fd, image, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = ENOSPC;
            return -1;
        }
        image += n;
        size -= (size_t)n;
    }
    return fsync(fd);
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

int nprb_h5_commit(struct nprb_h5 *h5, char *err, size_t errlen)
{
    int rc = 0;
    for (int t = 0; t < NPRB_N_TABLES; t++)
        if (h5->datasets[t] > 0 && H5Dclose(h5->datasets[t]) < 0)
            rc = -1;
    for (int t = 0; t < NPRB_N_TABLES; t++)
        h5->datasets[t] = 0;
    close_all(h5);
    size_t size = 0;
    unsigned char *image = take_image(h5, &size);
    if (rc != 0 || image == NULL) {
        snprintf(err, errlen, "HDF5 could not finish %s in memory (out of memory?)", h5->path);
        rc = -1;
    } else if (write_image(h5->tmp_fd, image, size) != 0) {
        snprintf(err, errlen, "cannot write results to %s: %s (writing %zu bytes to %s)", h5->path,
                 strerror(errno), size, h5->tmp_path);
        rc = -1;
    } else {
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
    free(image);
    /* Nothing half-written stays behind: on failure the temporary file goes too. */
    if (rc != 0)
        nprb_h5_discard(h5);
    else {
        track_tmp(h5->tmp_path, false);
        free(h5);
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
    free(h5);
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
