/* SPDX-License-Identifier: BSD-3-Clause */
#include "host/balancing_record.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SETTING "/proc/sys/kernel/numa_balancing"

enum { PATH_LEN = 256, STATE_BYTES = 4096 };

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

static const char *parse_ull(const char *p, unsigned long long *v)
{
    p = skip_spaces(p);
    if (*p < '0' || *p > '9')
        return NULL;
    *v = 0;
    while (*p >= '0' && *p <= '9')
        *v = *v * 10 + (unsigned)(*p++ - '0');
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

int nprb_balancing_get(void)
{
    char buf[16];
    if (read_file(setting_path, buf, sizeof buf) <= 0)
        return -1;
    unsigned long long v;
    return parse_ull(buf, &v) != NULL && v < 100 ? (int)v : -1;
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

/* The record's text: a comment for whoever finds it, "original V", then "owner PID START
 * WANTED JOB" a line. */
static bool parse_state(const char *buf, struct nprb_record *r)
{
    memset(r, 0, sizeof *r);
    r->original = -1;
    for (const char *p = buf; *p != '\0';) {
        const char *line = skip_spaces(p);
        const char *end = strchr(line, '\n');
        p = end != NULL ? end + 1 : line + strlen(line);
        char word[16];
        const char *q = line[0] == '#' ? NULL : parse_word(line, word, sizeof word);
        unsigned long long pid, start, wanted, v;
        if (q == NULL)
            continue;
        if (strcmp(word, "original") == 0 && parse_ull(q, &v) != NULL) {
            r->original = (int)v;
        } else if (strcmp(word, "owner") == 0 && r->count < NPRB_RECORD_MAX_OWNERS &&
                   (q = parse_ull(q, &pid)) != NULL && (q = parse_ull(q, &start)) != NULL &&
                   (q = parse_ull(q, &wanted)) != NULL) {
            struct nprb_owner *o = &r->owners[r->count++];
            o->pid = (long)pid;
            o->start = start;
            o->wanted = (int)wanted;
            if (parse_word(q, o->job, sizeof o->job) == NULL || strcmp(o->job, "-") == 0)
                o->job[0] = '\0';
        }
    }
    return r->original >= 0;
}

int nprb_record_read(struct nprb_record *r)
{
    char buf[STATE_BYTES];
    if (read_file(state_path, buf, sizeof buf) < 0) {
        memset(r, 0, sizeof *r);
        r->original = -1;
        return errno == ENOENT ? 0 : -1;
    }
    if (!parse_state(buf, r))
        return -1; /* not ours to act on: left for a person to read */
    r->found = true;
    return 0;
}

/* Written whole under another name and renamed, so that a run killed while writing leaves the
 * previous record, never half of one. No owner left: no record. */
int nprb_record_write(const struct nprb_record *r)
{
    if (r->count == 0)
        return unlink(state_path) == 0 || errno == ENOENT ? 0 : -1;
    char buf[STATE_BYTES];
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
    int fd = open(tmp_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
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
    int fd = open(lock_path, (writing ? O_RDWR | O_CREAT : O_RDONLY) | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = writing ? F_WRLCK : F_RDLCK;
    fl.l_whence = SEEK_SET;
    for (int tries = 0; tries < 500; tries++) {
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
