/* SPDX-License-Identifier: BSD-3-Clause */
#include "host/balancing_record.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SETTING "/proc/sys/kernel/numa_balancing"

enum { PATH_LEN = 256 };

/* Process-wide by nature: the signal handler can reach nothing else (signals.h). Constants unless
 * a test redirects them, so that the handler never formats a string. */
static char setting_path[PATH_LEN] = SETTING;
static char state_dir[PATH_LEN] = NPRB_BALANCING_STATE_DIR;
static char state_path[PATH_LEN] = NPRB_BALANCING_STATE_DIR "/numa_balancing.state";
static char tmp_path[PATH_LEN] = NPRB_BALANCING_STATE_DIR "/numa_balancing.state.tmp";
static char lock_path[PATH_LEN] = NPRB_BALANCING_STATE_DIR "/numa_balancing.lock";

static void build_paths(void)
{
    snprintf(state_path, sizeof state_path, "%s/numa_balancing.state", state_dir);
    snprintf(tmp_path, sizeof tmp_path, "%s/numa_balancing.state.tmp", state_dir);
    snprintf(lock_path, sizeof lock_path, "%s/numa_balancing.lock", state_dir);
}

void nprb_balancing_use_paths(const char *setting, const char *dir)
{
    snprintf(setting_path, sizeof setting_path, "%s", setting != NULL ? setting : SETTING);
    snprintf(state_dir, sizeof state_dir, "%s", dir != NULL ? dir : NPRB_BALANCING_STATE_DIR);
    build_paths();
}

const char *nprb_record_path(enum nprb_record_file file)
{
    switch (file) {
    case NPRB_RECORD_SETTING:
        return setting_path;
    case NPRB_RECORD_DIR:
        return state_dir;
    case NPRB_RECORD_STATE:
        return state_path;
    case NPRB_RECORD_LOCK:
        return lock_path;
    }
    return "";
}

/* ---- async-signal-safe helpers: no stdio, no malloc ---- */

static int read_file(const char *path, char *buf, size_t len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t used = 0;
    ssize_t n;
    while (used < len - 1 && (n = read(fd, buf + used, len - 1 - used)) > 0)
        used += (size_t)n;
    close(fd);
    buf[used] = '\0';
    return (int)used;
}

static const char *skip_spaces(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* A whole number; NULL where there is none or it does not fit. */
static const char *parse_ull(const char *p, unsigned long long *v)
{
    p = skip_spaces(p);
    if (*p < '0' || *p > '9')
        return NULL;
    *v = 0;
    while (*p >= '0' && *p <= '9') {
        unsigned d = (unsigned)(*p++ - '0');
        if (*v > (ULLONG_MAX - d) / 10)
            return NULL;
        *v = *v * 10 + d;
    }
    return p;
}

static const char *parse_word(const char *p, char *out, size_t len)
{
    p = skip_spaces(p);
    size_t n = 0;
    while (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\n') {
        if (n + 1 < len)
            out[n++] = *p;
        p++;
    }
    out[n] = '\0';
    return n > 0 ? p : NULL;
}

struct text {
    char *buf;
    size_t len, used;
};

static void put(struct text *t, const char *s)
{
    while (*s != '\0' && t->used + 1 < t->len)
        t->buf[t->used++] = *s++;
    t->buf[t->used] = '\0';
}

static void put_ull(struct text *t, unsigned long long v)
{
    char digits[24];
    int n = 0;
    do
        digits[n++] = (char)('0' + v % 10);
    while ((v /= 10) > 0);
    char s[24];
    for (int i = 0; i < n; i++)
        s[i] = digits[n - 1 - i];
    s[n] = '\0';
    put(t, s);
}

static void put_oct(struct text *t, unsigned v)
{
    char s[8] = "0000";
    for (int i = 3; i >= 0; i--, v >>= 3)
        s[i] = (char)('0' + (v & 7));
    put(t, s);
}

int nprb_balancing_get(void)
{
    char buf[16];
    if (read_file(setting_path, buf, sizeof buf) <= 0)
        return -1;
    unsigned long long v;
    return parse_ull(buf, &v) != NULL && v < 100 ? (int)v : -1;
}

int nprb_record_read_setting(char *why, size_t len)
{
    char buf[16];
    int n = read_file(setting_path, buf, sizeof buf);
    if (n < 0) {
        snprintf(why, len, "cannot read %s: %s", setting_path, strerror(errno));
        return -1;
    }
    int v = nprb_balancing_get();
    if (v < 0)
        snprintf(why, len, "no number in %s", setting_path);
    return v;
}

int nprb_record_write_setting(int value)
{
    char text[8];
    struct text t = {text, sizeof text, 0};
    put_ull(&t, (unsigned long long)value);
    put(&t, "\n");
    int fd = open(setting_path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, text, t.used);
    int e = errno;
    close(fd);
    errno = e;
    return n == (ssize_t)t.used ? 0 : -1;
}

/* A process's start time in clock ticks since boot (/proc/PID/stat, field 22); 0 when it is
 * gone or a zombie, which can no longer put anything back. */
unsigned long long nprb_record_start_time(long pid)
{
    char path[40], buf[1024];
    struct text t = {path, sizeof path, 0};
    put(&t, "/proc/");
    put_ull(&t, (unsigned long long)pid);
    put(&t, "/stat");
    if (read_file(path, buf, sizeof buf) <= 0)
        return 0;
    const char *p = strrchr(buf, ')'); /* the command name may hold spaces and parentheses */
    if (p == NULL)
        return 0;
    p = skip_spaces(p + 1);
    if (*p == 'Z' || *p == 'X')
        return 0;
    for (int field = 3; field < 22; field++) {
        while (*p != '\0' && *p != ' ')
            p++;
        p = skip_spaces(p);
    }
    unsigned long long v;
    return parse_ull(p, &v) != NULL ? v : 0;
}

static bool alive(const struct nprb_owner *o)
{
    return o->start != 0 && nprb_record_start_time(o->pid) == o->start;
}

/* Where a file numaprobe reads or writes could have come from another user: a link, not the
 * kind expected, owned by neither root nor this user, or writable by others. */
static bool foreign(const char *path, const struct stat *st, bool dir, struct text *why)
{
    put(why, path);
    if (S_ISLNK(st->st_mode)) {
        put(why, " is a symbolic link");
    } else if (dir ? !S_ISDIR(st->st_mode) : !S_ISREG(st->st_mode)) {
        put(why, dir ? " is not a directory" : " is not a regular file");
    } else if (st->st_uid != 0 && st->st_uid != geteuid()) {
        put(why, " is owned by uid ");
        put_ull(why, st->st_uid);
        put(why, geteuid() == 0 ? ", not root" : ", neither root nor this user");
    } else if ((st->st_mode & (S_IWGRP | S_IWOTH)) != 0) {
        put(why, " is writable by others (mode ");
        put_oct(why, (unsigned)st->st_mode & 07777);
        put(why, ")");
    } else {
        why->used = 0;
        why->buf[0] = '\0';
        return false;
    }
    return true;
}

int nprb_record_dir_trusted(char *why, size_t len)
{
    struct text t = {why, len, 0};
    why[0] = '\0';
    struct stat st;
    if (lstat(state_dir, &st) != 0) {
        if (errno == ENOENT)
            return 0; /* nothing there yet: made by nprb_record_make_dir() */
        snprintf(why, len, "cannot examine %s: %s", state_dir, strerror(errno));
        return -1;
    }
    return foreign(state_dir, &st, true, &t) ? -1 : 0;
}

int nprb_record_make_dir(void)
{
    if (mkdir(state_dir, 0755) != 0)
        return errno == EEXIST ? 0 : -1;
    /* Readable by everyone whatever the umask (077 on some root shells): a user's
     * `numaprobe restore` must see a record to say what to run. */
    return chmod(state_dir, 0755);
}

/* "line N" into the reason. */
static void put_line(struct text *t, int line, const char *what)
{
    put(t, "line ");
    put_ull(t, (unsigned long long)line);
    put(t, what);
}

/* The end of a line: nothing but blanks before it. */
static bool line_ends(const char *p)
{
    p = skip_spaces(p);
    return *p == '\n' || *p == '\0';
}

/* One "owner PID START WANTED JOB" line after its word; false where any field is missing, out of
 * range or followed by more. A job id travels to terminals, logs and /hosts: any byte that is
 * not printable ASCII becomes '?'. */
static bool parse_owner(const char *q, struct nprb_owner *o)
{
    unsigned long long pid, start, wanted;
    if ((q = parse_ull(q, &pid)) == NULL || (q = parse_ull(q, &start)) == NULL ||
        (q = parse_ull(q, &wanted)) == NULL || pid == 0 || pid > (unsigned long long)INT_MAX ||
        start == 0 || wanted > NPRB_BALANCING_MAX_VALUE)
        return false;
    if ((q = parse_word(q, o->job, sizeof o->job)) == NULL || !line_ends(q))
        return false;
    for (char *c = o->job; *c != '\0'; c++)
        if ((unsigned char)*c < 0x21 || (unsigned char)*c > 0x7e)
            *c = '?';
    if (strcmp(o->job, "-") == 0)
        o->job[0] = '\0';
    o->pid = (long)pid;
    o->start = start;
    o->wanted = (int)wanted;
    return true;
}

/* The record's text: a comment for whoever finds it, "original V", then "owner PID START
 * WANTED JOB" a line, each line ended by a newline. Anything else (a line cut short, a field
 * missing, a value the kernel does not take, a second "original") is not a record numaprobe
 * wrote: the reason goes into r->why and nothing of it is acted on. */
static bool parse_state(const char *buf, size_t n, struct nprb_record *r)
{
    struct text why = {r->why, sizeof r->why, 0};
    if (strlen(buf) != n) {
        put(&why, "it holds a NUL byte");
        return false;
    }
    int line = 0;
    for (const char *p = buf; *p != '\0';) {
        line++;
        const char *start = skip_spaces(p);
        const char *end = strchr(start, '\n');
        if (end == NULL) {
            put_line(&why, line, " is cut short");
            return false;
        }
        p = end + 1;
        char word[16];
        if (*start == '#' || *start == '\n')
            continue;
        const char *q = parse_word(start, word, sizeof word);
        unsigned long long v;
        if (strcmp(word, "original") == 0) {
            if (r->original >= 0) {
                put_line(&why, line, ": original given twice");
                return false;
            }
            if ((q = parse_ull(q, &v)) == NULL || !line_ends(q)) {
                put_line(&why, line, " is not 'original V'");
                return false;
            }
            if (v > NPRB_BALANCING_MAX_VALUE) {
                put_line(&why, line, ": original ");
                put_ull(&why, v);
                put(&why, " is not a value kernel.numa_balancing takes (0 to 3)");
                return false;
            }
            r->original = (int)v;
        } else if (strcmp(word, "owner") == 0) {
            if (r->count == NPRB_RECORD_MAX_OWNERS) {
                put_line(&why, line, ": more runs than numaprobe records");
                return false;
            }
            if (!parse_owner(q, &r->owners[r->count])) {
                put_line(&why, line, " is not 'owner PID START WANTED JOB' (WANTED 0 to 3)");
                return false;
            }
            r->count++;
        } else {
            put_line(&why, line, " is not 'original V' or 'owner PID START WANTED JOB'");
            return false;
        }
    }
    if (r->original < 0) {
        put(&why, "no 'original' line");
        return false;
    }
    return true;
}

enum nprb_record_status nprb_record_read(struct nprb_record *r)
{
    memset(r, 0, sizeof *r);
    r->original = -1;
    struct text why = {r->why, sizeof r->why, 0};
    /* Never through a link, and never blocking on a FIFO planted in its place. */
    int fd = open(state_path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) {
        if (errno == ENOENT)
            return NPRB_RECORD_ABSENT;
        if (errno == ELOOP) {
            put(&why, state_path);
            put(&why, " is a symbolic link");
            return NPRB_RECORD_FOREIGN;
        }
        r->error = errno;
        return NPRB_RECORD_UNREADABLE;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || foreign(state_path, &st, false, &why)) {
        int e = errno;
        close(fd);
        if (r->why[0] != '\0')
            return NPRB_RECORD_FOREIGN;
        r->error = e;
        return NPRB_RECORD_UNREADABLE;
    }
    /* Read whole, one byte past the limit, so that a longer file is refused rather than read
     * in part (a live run named past the cut would lose its change). */
    char buf[NPRB_RECORD_MAX_BYTES + 2];
    size_t used = 0;
    ssize_t n = 0;
    while (used < sizeof buf - 1 && (n = read(fd, buf + used, sizeof buf - 1 - used)) > 0)
        used += (size_t)n;
    int e = errno;
    close(fd);
    buf[used] = '\0';
    if (n < 0) {
        r->error = e;
        return NPRB_RECORD_UNREADABLE;
    }
    if (used > NPRB_RECORD_MAX_BYTES) {
        put(&why, "over 4096 bytes");
        return NPRB_RECORD_DAMAGED;
    }
    if (used == 0) {
        put(&why, "it is empty");
        return NPRB_RECORD_DAMAGED;
    }
    if (!parse_state(buf, used, r))
        return NPRB_RECORD_DAMAGED;
    r->found = true;
    return NPRB_RECORD_READ;
}

/* Written whole under another name and renamed, so that a run killed while writing leaves the
 * previous record, never half of one. No owner left: no record. */
int nprb_record_write(const struct nprb_record *r)
{
    if (r->count == 0)
        return unlink(state_path) == 0 || errno == ENOENT ? 0 : -1;
    char buf[NPRB_RECORD_MAX_BYTES];
    struct text t = {buf, sizeof buf, 0};
    put(&t,
        "# kernel.numa_balancing before numaprobe changed it, and the runs that hold a change\n"
        "# (pid, start time in ticks, the value it wants, job); put back by the last to leave,\n"
        "# or by 'numaprobe restore' once they are gone\noriginal ");
    put_ull(&t, (unsigned long long)r->original);
    put(&t, "\n");
    for (int i = 0; i < r->count; i++) {
        const struct nprb_owner *o = &r->owners[i];
        put(&t, "owner ");
        put_ull(&t, (unsigned long long)o->pid);
        put(&t, " ");
        put_ull(&t, o->start);
        put(&t, " ");
        put_ull(&t, (unsigned long long)o->wanted);
        put(&t, " ");
        put(&t, o->job[0] != '\0' ? o->job : "-");
        put(&t, "\n");
    }
    /* A new file, never an old one nor a link planted in its place: the name is free once this
     * writer, under the lock, has removed what a killed writer (or anyone) left there. */
    if (unlink(tmp_path) != 0 && errno != ENOENT)
        return -1;
    int fd = open(tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    (void)fchmod(fd, 0644); /* readable by a user's `numaprobe restore`, whatever the umask */
    ssize_t n = write(fd, buf, t.used);
    int e = errno;
    if (close(fd) != 0 && n == (ssize_t)t.used) {
        e = errno;
        n = -1;
    }
    if (n != (ssize_t)t.used || rename(tmp_path, state_path) != 0) {
        if (n == (ssize_t)t.used)
            e = errno;
        unlink(tmp_path);
        errno = n < 0 || n == (ssize_t)t.used ? e : ENOSPC;
        return -1;
    }
    return 0;
}

/* What the setting should be: what the latest live owner wants, or the value found before. */
int nprb_record_target(const struct nprb_record *r)
{
    return r->count > 0 ? r->owners[r->count - 1].wanted : r->original;
}

/* Drops the owners that are gone; the last of them is kept in @p dead for the message. */
int nprb_record_prune(struct nprb_record *r, struct nprb_owner *dead)
{
    int kept = 0, gone = 0;
    for (int i = 0; i < r->count; i++) {
        if (alive(&r->owners[i])) {
            r->owners[kept++] = r->owners[i];
        } else {
            gone++;
            if (dead != NULL)
                *dead = r->owners[i];
        }
    }
    r->count = kept;
    return gone;
}

/* The lock beside the record (never removed, so that every run locks the same file). Open file
 * description locks: the signal handler's own open conflicts with a lock its thread holds,
 * which the callers prevent by blocking the signals while they hold it. Bounded, so that a
 * stopped holder cannot hang a run or its handler. */
int nprb_record_lock(bool writing)
{
    int fd =
        open(lock_path, (writing ? O_RDWR | O_CREAT : O_RDONLY) | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        errno = EINVAL;
        return -1;
    }
    if (writing && st.st_uid == geteuid())
        (void)fchmod(fd, 0644); /* a reader without root must be able to open it */
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = writing ? F_WRLCK : F_RDLCK;
    fl.l_whence = SEEK_SET;
    for (int tries = 0; tries < NPRB_RECORD_LOCK_WAIT_S * 100; tries++) {
        if (fcntl(fd, F_OFD_SETLK, &fl) == 0)
            return fd;
        if (errno != EAGAIN && errno != EACCES && errno != EINTR)
            break;
        struct timespec pause = {0, 10L * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    int e = errno == EAGAIN || errno == EACCES ? ETIMEDOUT : errno;
    close(fd);
    errno = e;
    return -1;
}
