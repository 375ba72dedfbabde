/* SPDX-License-Identifier: BSD-3-Clause */
#include "host/balancing.h"

#include "host/balancing_record.h"
#include "host/provenance.h"
#include "util/signals.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Process-wide by nature: the signal handler can reach nothing else (signals.h). */
static struct nprb_owner self;
static volatile sig_atomic_t armed = 0;
static volatile sig_atomic_t saved_original = -1; /* if the state file was taken from us */

static void block_kill_signals(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &set, old);
}

static int self_index(const struct nprb_record *s)
{
    for (int i = 0; i < s->count; i++)
        if (s->owners[i].pid == self.pid && s->owners[i].start == self.start)
            return i;
    return -1;
}

/* Takes owner @p i out of the record, the others keeping their order. */
static struct nprb_owner take_owner(struct nprb_record *s, int i)
{
    struct nprb_owner o = s->owners[i];
    memmove(&s->owners[i], &s->owners[i + 1], (size_t)(s->count - i - 1) * sizeof o);
    s->count--;
    return o;
}

void nprb_balancing_restore(void)
{
    if (!armed || self.pid != (long)getpid()) /* a forked child holds nothing */
        return;
    sigset_t old;
    block_kill_signals(&old);
    int fd = nprb_record_lock(true);
    struct nprb_record s;
    int i;
    if (fd >= 0 && nprb_record_read(&s) == 0) {
        if (s.found && (i = self_index(&s)) >= 0) {
            take_owner(&s, i);
            nprb_record_prune(&s, NULL);
            if (nprb_record_write(&s) == 0)
                (void)nprb_record_write_setting(nprb_record_target(&s));
        } else if (!s.found && saved_original >= 0) {
            (void)nprb_record_write_setting(saved_original); /* the record was removed by hand */
        }
    }
    /* Without the lock the record stays, and the next start or numaprobe restore acts on it. */
    if (fd >= 0)
        close(fd);
    armed = 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void arm_once(void)
{
    static bool registered;
    if (registered)
        return;
    registered = true;
    atexit(nprb_balancing_restore);
    nprb_signals_on_kill(nprb_balancing_restore);
}

/* Who this process is in the record, found once. */
static int know_self(void)
{
    if (self.pid == (long)getpid())
        return 0;
    self.pid = (long)getpid();
    self.start = nprb_record_start_time(self.pid);
    const char *job = nprb_provenance_job_id(NULL);
    snprintf(self.job, sizeof self.job, "%s", job != NULL ? job : "");
    for (char *c = self.job; *c != '\0'; c++)
        if (*c == ' ' || *c == '\t' || *c == '\n')
            *c = '_';
    return self.start != 0 ? 0 : -1;
}

/* Under the lock: joins the record (or updates this run's wish) and changes the setting. */
static int change_locked(int value, char *err, size_t errlen)
{
    struct nprb_record s;
    if (nprb_record_read(&s) != 0) {
        snprintf(err, errlen,
                 "%s holds no record numaprobe can read: left alone (remove it "
                 "once kernel.numa_balancing is as it should be)",
                 nprb_record_path(NPRB_RECORD_STATE));
        errno = EPROTO;
        return -1;
    }
    nprb_record_prune(&s, NULL);
    if (!s.found) {
        s.original = nprb_balancing_get();
        if (s.original < 0) {
            snprintf(err, errlen, "cannot read %s: %s", nprb_record_path(NPRB_RECORD_SETTING),
                     strerror(errno));
            return -1;
        }
    }
    int i = self_index(&s);
    if (i < 0 && s.count == NPRB_RECORD_MAX_OWNERS) {
        snprintf(err, errlen, "%d runs on this host already hold a change", NPRB_RECORD_MAX_OWNERS);
        errno = EBUSY;
        return -1;
    }
    /* The latest wish counts: the wanting run becomes the last owner. */
    struct nprb_owner me = i >= 0 ? take_owner(&s, i) : self;
    me.wanted = value;
    s.owners[s.count++] = me;
    if (nprb_record_write(&s) != 0) {
        snprintf(err, errlen, "cannot record the setting in %s: %s",
                 nprb_record_path(NPRB_RECORD_STATE), strerror(errno));
        return -1;
    }
    saved_original = s.original;
    armed = 1;
    if (nprb_record_write_setting(value) != 0) {
        int e = errno;
        snprintf(err, errlen, "cannot write %s: %s", nprb_record_path(NPRB_RECORD_SETTING),
                 strerror(e));
        s.count--; /* this run, last: out again, as it changed nothing */
        if (nprb_record_write(&s) == 0)
            armed = 0;
        errno = e;
        return -1;
    }
    return 0;
}

int nprb_balancing_set(int value, char *err, size_t errlen)
{
    if (value < 0 || value > 9) {
        snprintf(err, errlen, "kernel.numa_balancing %d: not 0 to 9", value);
        errno = EINVAL;
        return -1;
    }
    if (know_self() != 0) {
        snprintf(err, errlen, "cannot read this process's start time from /proc");
        errno = ENOENT;
        return -1;
    }
    /* No write access, no record, no change: a run that cannot leave a record must not leave
     * the setting changed. */
    if (access(nprb_record_path(NPRB_RECORD_SETTING), W_OK) != 0) {
        int e = errno;
        snprintf(err, errlen, "cannot write %s: %s", nprb_record_path(NPRB_RECORD_SETTING),
                 strerror(e));
        errno = e;
        return -1;
    }
    if (mkdir(nprb_record_path(NPRB_RECORD_DIR), 0755) != 0 && errno != EEXIST) {
        int e = errno;
        snprintf(err, errlen, "cannot record the setting in %s: %s",
                 nprb_record_path(NPRB_RECORD_DIR), strerror(e));
        errno = e;
        return -1;
    }
    arm_once();
    sigset_t old;
    block_kill_signals(&old);
    int rc = -1, fd = nprb_record_lock(true);
    if (fd < 0)
        snprintf(err, errlen, "cannot record the setting in %s: %s",
                 nprb_record_path(NPRB_RECORD_LOCK), strerror(errno));
    else
        rc = change_locked(value, err, errlen);
    int e = errno;
    if (fd >= 0)
        close(fd);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = e;
    return rc;
}

/* "numaprobe pid N (job J)", the job where there is one. */
static void name_owner(char *buf, size_t len, const struct nprb_owner *o)
{
    snprintf(buf, len, "numaprobe pid %ld%s%s%s", o->pid, o->job[0] != '\0' ? " (job " : "", o->job,
             o->job[0] != '\0' ? ")" : "");
}

static void append(struct nprb_balancing_recovery *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void append(struct nprb_balancing_recovery *out, const char *fmt, ...)
{
    size_t used = strlen(out->text);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->text + used, sizeof out->text - used, fmt, ap);
    va_end(ap);
}

static void recover_locked(struct nprb_balancing_recovery *out, bool may_write)
{
    struct nprb_record s;
    if (nprb_record_read(&s) != 0) {
        out->outcome = NPRB_RECOVERY_FAILED;
        snprintf(out->text, sizeof out->text,
                 "%s holds no record numaprobe can read: kernel.numa_balancing not restored; "
                 "check it by hand, then remove the file",
                 nprb_record_path(NPRB_RECORD_STATE));
        return;
    }
    if (!s.found)
        return;
    struct nprb_owner dead;
    char who[NPRB_RECORD_JOB_LEN + 48];
    int left = out->left = nprb_balancing_get();
    if (nprb_record_prune(&s, &dead) == 0) {
        out->outcome = NPRB_RECOVERY_HELD;
        name_owner(who, sizeof who, &s.owners[s.count - 1]);
        snprintf(out->text, sizeof out->text,
                 "kernel.numa_balancing is %d, set by %s, still running (it puts back %d when it "
                 "ends)",
                 left, who, s.original);
        return;
    }
    int want = out->restored = nprb_record_target(&s);
    name_owner(who, sizeof who, &dead);
    snprintf(out->text, sizeof out->text,
             "kernel.numa_balancing was left at %d by %s, which ended without putting it back",
             left, who);
    if (!may_write) {
        out->outcome = NPRB_RECOVERY_FAILED;
        append(out,
               ": not restored (not root): run 'numaprobe restore' as root, or sysctl -w "
               "kernel.numa_balancing=%d",
               want);
        return;
    }
    if (nprb_record_write(&s) != 0) {
        out->outcome = NPRB_RECOVERY_FAILED;
        append(out, ": not restored to %d (%s): run 'numaprobe restore' as root", want,
               strerror(errno));
        return;
    }
    if (left == want) {
        out->outcome = NPRB_RECOVERY_CLEARED;
        snprintf(out->text, sizeof out->text,
                 "%s ended without removing its record of kernel.numa_balancing, which was "
                 "already back at %d: record removed",
                 who, want);
        return;
    }
    if (nprb_record_write_setting(want) != 0) {
        out->outcome = NPRB_RECOVERY_FAILED;
        append(out, ": not restored to %d (%s): run 'numaprobe restore' as root", want,
               strerror(errno));
        return;
    }
    out->outcome = NPRB_RECOVERY_RESTORED;
    append(out, ": restored to %d%s", want,
           s.count > 0 ? " (what a run still holding it wants)" : "");
}

void nprb_balancing_recover(struct nprb_balancing_recovery *out)
{
    memset(out, 0, sizeof *out);
    out->left = out->restored = -1;
    if (access(nprb_record_path(NPRB_RECORD_STATE), F_OK) != 0)
        return; /* nothing recorded: the common case, without a lock */
    bool may_write = access(nprb_record_path(NPRB_RECORD_SETTING), W_OK) == 0 &&
                     access(nprb_record_path(NPRB_RECORD_DIR), W_OK) == 0;
    sigset_t old;
    block_kill_signals(&old);
    int fd = nprb_record_lock(may_write);
    if (fd < 0) {
        out->outcome = NPRB_RECOVERY_FAILED;
        snprintf(out->text, sizeof out->text,
                 "cannot lock %s (%s): kernel.numa_balancing not restored, if a killed run "
                 "left it changed; run 'numaprobe restore' as root",
                 nprb_record_path(NPRB_RECORD_LOCK), strerror(errno));
    } else {
        recover_locked(out, may_write);
        close(fd);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}
