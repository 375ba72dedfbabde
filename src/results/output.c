/* SPDX-License-Identifier: BSD-3-Clause */
/* The output path: what may become a results file, the lock that keeps one job per output, the
 * names beside it within NAME_MAX, and an earlier job's checkpoints moved aside. */
#include "results/output.h"

#include "util/file_kind.h"
#include "util/sibling.h"

#include "results/h5out.h"
#include "util/signals.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The file name part of @p path (after the last '/'). */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash != NULL ? slash + 1 : path;
}

/* The directory part of @p path ("." for a bare name). */
static void dir_name(const char *path, char *buf, size_t len)
{
    const char *base = base_name(path);
    if (base == path)
        snprintf(buf, len, ".");
    else if (base == path + 1)
        snprintf(buf, len, "/");
    else
        snprintf(buf, len, "%.*s", (int)(base - path - 1), path);
}

int nprb_output_check(const char *path, bool force, char *err, size_t errlen)
{
    const char *base = base_name(path);
    struct stat st, target;
    char dir[PATH_MAX];
    if (path[0] == '\0') {
        snprintf(err, errlen, "cannot write results to '': the output path is empty");
        return -1;
    }
    if (strcmp(path, "-") == 0) {
        snprintf(err, errlen,
                 "cannot write results to '-': an HDF5 file cannot go to stdout; give a file name");
        return -1;
    }
    if (strlen(path) >= PATH_MAX) {
        snprintf(err, errlen,
                 "cannot write results to %.64s...: the path is %zu bytes (PATH_MAX %d)", path,
                 strlen(path), PATH_MAX);
        return -1;
    }
    if (lstat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            snprintf(err, errlen, "cannot write results to %s: it is a directory", path);
            return -1;
        }
        if (S_ISLNK(st.st_mode)) {
            bool to_file = stat(path, &target) == 0 && S_ISREG(target.st_mode);
            snprintf(err, errlen,
                     "cannot write results to %s: it is a symbolic link (to %s); the final "
                     "rename would replace the link, not its target: give the target's path",
                     path,
                     to_file                    ? "a file"
                     : stat(path, &target) == 0 ? nprb_file_kind(target.st_mode)
                                                : "nothing");
            return -1;
        }
        if (!S_ISREG(st.st_mode)) {
            snprintf(err, errlen,
                     "cannot write results to %s: it is %s; numaprobe writes a temporary file "
                     "and renames it over the target, which would replace the node itself",
                     path, nprb_file_kind(st.st_mode));
            return -1;
        }
        if (!force) {
            snprintf(err, errlen,
                     "cannot write results to %s: the file exists (give --force to replace it)",
                     path);
            return -1;
        }
    } else if (errno != ENOENT) {
        snprintf(err, errlen, "cannot write results to %s: %s", path, strerror(errno));
        return -1;
    }
    if (base[0] == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
        snprintf(err, errlen, "cannot write results to %s: it names a directory", path);
        return -1;
    }
    if (strlen(base) > NAME_MAX) {
        snprintf(err, errlen,
                 "cannot write results to %s: the file name is %zu bytes, longer than NAME_MAX "
                 "(%d)",
                 path, strlen(base), NAME_MAX);
        return -1;
    }
    dir_name(path, dir, sizeof dir);
    if (stat(dir, &st) != 0) {
        snprintf(err, errlen, "cannot write results to %s: %s (directory %s)", path,
                 strerror(errno), dir);
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "cannot write results to %s: %s is not a directory", path, dir);
        return -1;
    }
    return 0;
}

/* @p path with its directory resolved (symbolic links, "." and ".."): the real directory and
 * the name in it, so that two spellings of one file, existing or not, compare equal as text.
 * @return 0, or -1 when the directory cannot be resolved. */
static int resolve(const char *path, char *buf, size_t len)
{
    char dir[PATH_MAX], real[PATH_MAX];
    dir_name(path, dir, sizeof dir);
    if (realpath(dir, real) == NULL)
        return -1;
    int n = snprintf(buf, len, "%s/%s", strcmp(real, "/") == 0 ? "" : real, base_name(path));
    return n >= 0 && (size_t)n < len ? 0 : -1;
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The resolved name of the sibling of @p output with @p suffix; "" when it has none. */
static void resolved_sibling(const char *output, const char *suffix, char *buf, size_t len)
{
    char sibling[PATH_MAX];
    if (nprb_output_sibling(output, suffix, sibling, sizeof sibling) != 0 ||
        resolve(sibling, buf, len) != 0)
        buf[0] = '\0';
}

bool nprb_output_owns(const char *output, const char *path, char *why, size_t whylen)
{
    char out[2 * PATH_MAX], mine[2 * PATH_MAX], lock[2 * PATH_MAX], ckpt[2 * PATH_MAX];
    char tmp_name[PATH_MAX], tmp[2 * PATH_MAX], tmp_any[2 * PATH_MAX + 8];
    struct stat a, b;
    /* The same inode: a hard link, or any spelling of an existing results file. */
    bool same = stat(path, &a) == 0 && stat(output, &b) == 0 && a.st_dev == b.st_dev &&
                a.st_ino == b.st_ino;
    if (!same && (resolve(output, out, sizeof out) != 0 || resolve(path, mine, sizeof mine) != 0))
        return false;
    if (same || strcmp(mine, out) == 0) {
        snprintf(why, whylen, "it is the results file %s", output);
        return true;
    }
    resolved_sibling(output, ".lock", lock, sizeof lock);
    if (lock[0] != '\0' && strcmp(mine, lock) == 0) {
        snprintf(why, whylen, "it is the lock of the results file %s, removed when the job ends",
                 output);
        return true;
    }
    resolved_sibling(output, ".checkpoints", ckpt, sizeof ckpt);
    size_t n = strlen(ckpt);
    bool in_ckpt = n > 0 && starts_with(mine, ckpt) && mine[n] == '/';
    if (n > 0 && (strcmp(mine, ckpt) == 0 || in_ckpt)) {
        snprintf(why, whylen,
                 "it is %sthe checkpoint directory of the results file %s, which the job moves "
                 "aside or removes",
                 in_ckpt ? "in " : "", output);
        return true;
    }
    /* OUT.tmp-*: any job's temporary of this output, this one's by its exact name too (one cut
     * to NAME_MAX does not start with OUT). */
    snprintf(tmp_any, sizeof tmp_any, "%s.tmp-", out);
    if (nprb_output_temporary(output, tmp_name, sizeof tmp_name) != 0 ||
        resolve(tmp_name, tmp, sizeof tmp) != 0)
        tmp[0] = '\0';
    if (starts_with(mine, tmp_any) || (tmp[0] != '\0' && strcmp(mine, tmp) == 0)) {
        snprintf(why, whylen,
                 "it is a temporary name of the results file %s, which the job renames into "
                 "place",
                 output);
        return true;
    }
    return false;
}

/* The locks this process holds (the output's, and the summary's beside it), for the signal
 * handler: a job stopped by its time limit does not leave a lock behind. Process-wide by
 * nature; a slot is filled before it is marked set, so a signal sees only whole paths. */
#define HELD_LOCKS 2
static char held_lock[HELD_LOCKS][PATH_MAX];
static volatile sig_atomic_t held_lock_set[HELD_LOCKS];

static void remove_held_lock(void)
{
    for (int i = 0; i < HELD_LOCKS; i++)
        if (held_lock_set[i])
            unlink(held_lock[i]);
}

/* O_CREAT|O_EXCL is atomic on local file systems, NFSv3 and later, and Lustre; fcntl locks are
 * not kept everywhere (NFS without lockd, some Lustre mounts), so the lock is the file itself.
 * @return 0, or -1 with errno. */
static int create_lock(const char *path, const char *host)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0)
        return -1;
    char text[HOST_NAME_MAX + 32];
    int n = snprintf(text, sizeof text, "%s %ld\n", host, (long)getpid());
    int saved = 0;
    if (write(fd, text, (size_t)n) != n || fsync(fd) != 0)
        saved = errno != 0 ? errno : EIO;
    close(fd);
    if (saved != 0) {
        unlink(path);
        errno = saved;
        return -1;
    }
    return 0;
}

/* "HOST PID" from a lock file. @return 0, or -1 when it cannot be read or is not of that form. */
static int read_lock(const char *path, char *host, size_t hostlen, long *pid)
{
    char text[HOST_NAME_MAX + 64] = "";
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    char name[HOST_NAME_MAX + 1];
    if (n <= 0 || sscanf(text, "%64s %ld", name, pid) != 2 || *pid <= 0)
        return -1;
    snprintf(host, hostlen, "%s", name);
    return 0;
}

static bool pid_runs(long pid)
{
    return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

/* Moves a dead job's lock out of the way. Two jobs may find the same stale lock: each renames
 * what is there to a name of its own and checks it moved the dead job's lock; one that moved a
 * live job's fresh lock instead puts it back (link: never over a third job's). @return 0 when
 * the stale lock is gone, -1 when a live job holds the lock now. */
static int take_over(const char *lock, const char *host, long pid)
{
    char moved[PATH_MAX], suffix[32], now_host[HOST_NAME_MAX + 1];
    long now_pid = 0;
    snprintf(suffix, sizeof suffix, ".stale-%ld", (long)getpid());
    if (nprb_output_sibling(lock, suffix, moved, sizeof moved) != 0 || rename(lock, moved) != 0)
        return errno == ENOENT ? 0 : -1;
    if (read_lock(moved, now_host, sizeof now_host, &now_pid) == 0 &&
        (strcmp(now_host, host) != 0 || now_pid != pid)) {
        /* Someone else's lock: put it back. Where that fails, its moved name keeps it rather
         * than nothing. */
        if (link(moved, lock) == 0)
            unlink(moved);
        return -1;
    }
    unlink(moved);
    return 0;
}

int nprb_output_lock(struct nprb_output_lock *lock, const char *output, char *warning,
                     size_t warnlen, char *err, size_t errlen)
{
    char me[HOST_NAME_MAX + 1] = "localhost";
    gethostname(me, sizeof me);
    me[sizeof me - 1] = '\0';
    memset(lock, 0, sizeof *lock);
    warning[0] = '\0';
    if (nprb_output_sibling(output, ".lock", lock->path, sizeof lock->path) != 0) {
        snprintf(err, errlen, "cannot write results to %s: the lock file's name is too long",
                 output);
        errno = ENAMETOOLONG;
        return -1;
    }
    lock->slot = 0;
    while (lock->slot < HELD_LOCKS && held_lock_set[lock->slot])
        lock->slot++;
    if (lock->slot == HELD_LOCKS) {
        snprintf(err, errlen, "cannot write results to %s: this process holds %d locks already",
                 output, HELD_LOCKS);
        errno = EMFILE;
        return -1;
    }
    for (int attempt = 0; attempt < 3; attempt++) {
        if (create_lock(lock->path, me) == 0) {
            snprintf(held_lock[lock->slot], sizeof held_lock[lock->slot], "%s", lock->path);
            held_lock_set[lock->slot] = 1;
            nprb_signals_on_kill(remove_held_lock);
            lock->held = true;
            return 0;
        }
        if (errno != EEXIST) {
            snprintf(err, errlen, "cannot write results to %s: cannot create its lock %s: %s",
                     output, lock->path, strerror(errno));
            return -1;
        }
        char host[HOST_NAME_MAX + 1];
        long pid = 0;
        if (read_lock(lock->path, host, sizeof host, &pid) != 0) {
            snprintf(err, errlen,
                     "cannot write results to %s: its lock %s exists but does not say who holds "
                     "it; remove it if no job writes %s",
                     output, lock->path, output);
            errno = EINVAL;
            return -1;
        }
        bool here = strcmp(host, me) == 0;
        if (!here || pid_runs(pid) || take_over(lock->path, host, pid) != 0) {
            snprintf(err, errlen,
                     "cannot write results to %s: another job writes it (lock %s held by host %s, "
                     "PID %ld%s); wait for it%s",
                     output, lock->path, host, pid, here ? ", running" : "",
                     here ? "" : ", or remove the lock if that job is gone");
            errno = EBUSY;
            return -1;
        }
        snprintf(warning, warnlen,
                 "took over the lock %s of PID %ld on this host (%s), which no longer runs (a "
                 "killed job?)",
                 lock->path, pid, host);
    }
    snprintf(err, errlen, "cannot write results to %s: its lock %s keeps changing hands", output,
             lock->path);
    errno = EBUSY;
    return -1;
}

void nprb_output_unlock(struct nprb_output_lock *lock)
{
    if (!lock->held)
        return;
    held_lock_set[lock->slot] = 0;
    unlink(lock->path);
    lock->held = false;
}

static bool empty_dir(const char *path)
{
    DIR *d = opendir(path);
    if (d == NULL)
        return false;
    const struct dirent *e;
    bool empty = true;
    while (empty && (e = readdir(d)) != NULL)
        empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
    closedir(d);
    return empty;
}

int nprb_output_checkpoints_aside(const char *dir, char *aside, size_t asidelen, char *err,
                                  size_t errlen)
{
    struct stat st;
    aside[0] = '\0';
    if (lstat(dir, &st) != 0) {
        if (errno == ENOENT)
            return 0;
        snprintf(err, errlen, "cannot look at checkpoint directory %s: %s", dir, strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode) && empty_dir(dir))
        return 0;
    /* Named after when the earlier job last wrote there: "OUT.h5.checkpoints.20250101T0200Z". */
    struct tm tm;
    char stamp[32], suffix[48];
    gmtime_r(&st.st_mtime, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
    for (int n = 0; n < 100; n++) {
        if (n == 0)
            snprintf(suffix, sizeof suffix, ".%s", stamp);
        else
            snprintf(suffix, sizeof suffix, ".%s-%d", stamp, n);
        struct stat taken;
        if (nprb_output_sibling(dir, suffix, aside, asidelen) != 0)
            break;
        if (lstat(aside, &taken) == 0)
            continue;
        if (rename(dir, aside) == 0)
            return 0;
        snprintf(err, errlen, "cannot move an earlier job's checkpoints %s aside to %s: %s", dir,
                 aside, strerror(errno));
        aside[0] = '\0';
        return -1;
    }
    snprintf(err, errlen, "cannot find a free name to move %s aside", dir);
    aside[0] = '\0';
    return -1;
}

int nprb_output_begin(const char *path, bool force, bool checkpoints, struct nprb_output_lock *lock,
                      struct nprb_h5 **h5, char *aside, size_t asidelen, char *warning,
                      size_t warnlen, char *err, size_t errlen)
{
    char dir[PATH_MAX];
    aside[0] = warning[0] = '\0';
    memset(lock, 0, sizeof *lock);
    /* The target's kind first: a lock beside /dev/null would be created in /dev. The lock
     * before "exists": a job that is writing the file is named as such. */
    if (nprb_output_check(path, true, err, errlen) != 0 ||
        nprb_output_lock(lock, path, warning, warnlen, err, errlen) != 0)
        return -1;
    int rc = nprb_output_check(path, force, err, errlen);
    if (rc == 0 && checkpoints &&
        (nprb_output_sibling(path, ".checkpoints", dir, sizeof dir) != 0 ||
         nprb_output_checkpoints_aside(dir, aside, asidelen, err, errlen) != 0))
        rc = -1;
    if (rc == 0)
        rc = nprb_h5_create(h5, path, err, errlen);
    if (rc != 0)
        nprb_output_unlock(lock);
    return rc;
}
