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
    enum nprb_record_status st = fd >= 0 ? nprb_record_read(&s) : NPRB_RECORD_UNREADABLE;
    if (st == NPRB_RECORD_READ && (i = self_index(&s)) >= 0) {
        /* The setting first, the record after: a record removed before a write that then fails
         * would leave the setting changed with nothing left saying what to put back. */
        take_owner(&s, i);
        nprb_record_prune(&s, NULL);
        int want = nprb_record_target(&s);
        if ((nprb_balancing_get() == want || nprb_record_write_setting(want) == 0) &&
            nprb_record_write(&s) == 0)
            armed = 0;
    } else if (st == NPRB_RECORD_ABSENT && saved_original >= 0) {
        if (nprb_record_write_setting(saved_original) == 0) /* the record was removed by hand */
            armed = 0;
    } else if (st == NPRB_RECORD_READ) {
        armed = 0; /* someone took this run out of the record: nothing of it to put back */
    }
    /* Still armed (no lock, or the setting could not be written): the record keeps this run,
     * the exit handler tries again, and after it the next start or `numaprobe restore`. */
    if (fd >= 0)
        close(fd);
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
    /* One word of printable ASCII: the record's format, and safe in a terminal or a log. */
    for (char *c = self.job; *c != '\0'; c++)
        if ((unsigned char)*c < 0x21 || (unsigned char)*c > 0x7e)
            *c = '_';
    return self.start != 0 ? 0 : -1;
}

/* Why a record cannot be acted on, as a phrase: "PATH holds no record numaprobe can read (line
 * 3 is cut short)". */
static void record_problem(char *buf, size_t len, enum nprb_record_status st,
                           const struct nprb_record *r)
{
    const char *path = nprb_record_path(NPRB_RECORD_STATE);
    if (st == NPRB_RECORD_DAMAGED)
        snprintf(buf, len, "%s holds no record numaprobe can read (%s)", path, r->why);
    else if (st == NPRB_RECORD_FOREIGN)
        snprintf(buf, len, "%s", r->why);
    else
        snprintf(buf, len, "cannot read %s (%s)", path, strerror(r->error));
}

/* What the lock's failure was: a holder that kept it past the wait is no errno's business. */
static const char *lock_problem(int e)
{
    static char text[64];
    if (e != ETIMEDOUT)
        return strerror(e);
    snprintf(text, sizeof text, "another process has held it for over %d s",
             NPRB_RECORD_LOCK_WAIT_S);
    return text;
}

/* Under the lock: joins the record (or updates this run's wish) and changes the setting. */
static int change_locked(int value, char *err, size_t errlen)
{
    struct nprb_record s;
    enum nprb_record_status st = nprb_record_read(&s);
    if (st != NPRB_RECORD_READ && st != NPRB_RECORD_ABSENT) {
        char why[240];
        record_problem(why, sizeof why, st, &s);
        snprintf(err, errlen,
                 "%s: left alone (remove it once kernel.numa_balancing is as it should be)", why);
        errno = EPROTO;
        return -1;
    }
    nprb_record_prune(&s, NULL);
    if (!s.found) {
        char why[160];
        s.original = nprb_record_read_setting(why, sizeof why);
        if (s.original < 0) {
            snprintf(err, errlen, "%s", why);
            errno = EIO;
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
    if (value < 0 || value > NPRB_BALANCING_MAX_VALUE) {
        snprintf(err, errlen, "kernel.numa_balancing %d: not 0 to %d", value,
                 NPRB_BALANCING_MAX_VALUE);
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
    char why[200];
    if (nprb_record_make_dir() != 0) {
        int e = errno;
        snprintf(err, errlen, "cannot record the setting in %s: %s",
                 nprb_record_path(NPRB_RECORD_DIR), strerror(e));
        errno = e;
        return -1;
    }
    /* A directory another user could write to could hold any record, or a link to any file. */
    if (nprb_record_dir_trusted(why, sizeof why) != 0) {
        snprintf(err, errlen, "cannot record the setting: %s", why);
        errno = EPERM;
        return -1;
    }
    arm_once();
    sigset_t old;
    block_kill_signals(&old);
    int rc = -1, fd = nprb_record_lock(true);
    if (fd < 0)
        snprintf(err, errlen, "cannot record the setting: cannot lock %s: %s",
                 nprb_record_path(NPRB_RECORD_LOCK), lock_problem(errno));
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

void nprb_balancing_describe(char *buf, size_t len)
{
    char why[160];
    int v = nprb_record_read_setting(why, sizeof why);
    if (v >= 0)
        snprintf(buf, len, "%d", v);
    else
        snprintf(buf, len, "unreadable: %s", why);
}

/* "kernel.numa_balancing was left at 0" or, where the setting cannot be read, "... (unreadable:
 * why) was left changed". */
static void left_at(struct nprb_balancing_recovery *out, int left, const char *unreadable)
{
    if (left >= 0)
        snprintf(out->text, sizeof out->text, "kernel.numa_balancing was left at %d", left);
    else
        snprintf(out->text, sizeof out->text,
                 "kernel.numa_balancing (unreadable: %s) was left changed", unreadable);
}

/* What to tell whoever cannot put it back: root is never told to become root. */
static const char *retry_advice(void)
{
    return geteuid() == 0 ? "check it, and run 'numaprobe restore' again"
                          : "run 'numaprobe restore' as root";
}

static void fail(struct nprb_balancing_recovery *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void fail(struct nprb_balancing_recovery *out, const char *fmt, ...)
{
    out->outcome = NPRB_RECOVERY_FAILED;
    out->text[0] = '\0';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->text, sizeof out->text, fmt, ap);
    va_end(ap);
}

static void recover_locked(struct nprb_balancing_recovery *out, bool may_write)
{
    struct nprb_record s;
    enum nprb_record_status st = nprb_record_read(&s);
    if (st == NPRB_RECORD_ABSENT)
        return;
    if (st != NPRB_RECORD_READ) {
        char why[240];
        record_problem(why, sizeof why, st, &s);
        if (st == NPRB_RECORD_UNREADABLE)
            fail(out, "cannot tell whether a killed run left kernel.numa_balancing changed: %s; %s",
                 why, retry_advice());
        else
            fail(out,
                 "%s: kernel.numa_balancing not restored; check it by hand, then remove the "
                 "file",
                 why);
        return;
    }
    char unreadable[160] = "";
    int left = out->left = nprb_record_read_setting(unreadable, sizeof unreadable);
    struct nprb_owner dead;
    char who[NPRB_RECORD_JOB_LEN + 48];
    int gone = nprb_record_prune(&s, &dead);
    if (gone == 0 && s.count > 0) {
        out->outcome = NPRB_RECOVERY_HELD;
        name_owner(who, sizeof who, &s.owners[s.count - 1]);
        if (left >= 0)
            snprintf(out->text, sizeof out->text, "kernel.numa_balancing is %d", left);
        else
            snprintf(out->text, sizeof out->text, "kernel.numa_balancing (unreadable: %s)",
                     unreadable);
        append(out, ", set by %s, still running (it puts back %d when it ends)", who, s.original);
        return;
    }
    int want = out->restored = nprb_record_target(&s);
    if (gone > 0) {
        name_owner(who, sizeof who, &dead);
        left_at(out, left, unreadable);
        append(out, " by %s, which ended without putting it back", who);
    } else if (left >= 0) {
        /* A record with no run in it: nothing numaprobe writes, but nobody holds the change. */
        snprintf(out->text, sizeof out->text,
                 "%s names no run that holds kernel.numa_balancing, which is %d",
                 nprb_record_path(NPRB_RECORD_STATE), left);
    } else {
        snprintf(out->text, sizeof out->text,
                 "%s names no run that holds kernel.numa_balancing (unreadable: %s)",
                 nprb_record_path(NPRB_RECORD_STATE), unreadable);
    }
    if (!may_write) {
        out->outcome = NPRB_RECOVERY_FAILED;
        if (geteuid() == 0)
            append(out,
                   ": not restored (cannot write %s or %s): sysctl -w kernel.numa_balancing=%d",
                   nprb_record_path(NPRB_RECORD_SETTING), nprb_record_path(NPRB_RECORD_DIR), want);
        else
            append(out,
                   ": not restored (not root): run 'numaprobe restore' as root, or sysctl -w "
                   "kernel.numa_balancing=%d",
                   want);
        return;
    }
    /* The setting before the record: the record stays until the value it keeps is back. */
    if (left != want && nprb_record_write_setting(want) != 0) {
        out->outcome = NPRB_RECOVERY_FAILED;
        append(out, ": not restored to %d (writing %s: %s); the record is kept for the next try",
               want, nprb_record_path(NPRB_RECORD_SETTING), strerror(errno));
        return;
    }
    int kept = nprb_record_write(&s) != 0 ? errno : 0;
    if (left == want) {
        out->outcome = NPRB_RECOVERY_CLEARED;
        if (gone > 0) {
            snprintf(out->text, sizeof out->text,
                     "%s ended without removing its record of kernel.numa_balancing, which was "
                     "already back at %d: record removed",
                     who, want);
        } else {
            append(out, " already: record removed");
        }
    } else {
        out->outcome = NPRB_RECOVERY_RESTORED;
        append(out, ": restored to %d%s", want,
               s.count > 0 ? " (what a run still holding it wants)" : "");
    }
    if (kept != 0)
        append(out, " (but the record could not be updated: %s; the next start tries again)",
               strerror(kept));
}

const char *nprb_recovery_name(enum nprb_recovery outcome)
{
    static const char *const names[NPRB_N_RECOVERY] = {
        [NPRB_RECOVERY_NONE] = "none",       [NPRB_RECOVERY_RESTORED] = "restored",
        [NPRB_RECOVERY_CLEARED] = "cleared", [NPRB_RECOVERY_HELD] = "held",
        [NPRB_RECOVERY_FAILED] = "failed",
    };
    return (unsigned)outcome < NPRB_N_RECOVERY ? names[outcome] : "";
}

void nprb_balancing_recover(struct nprb_balancing_recovery *out)
{
    memset(out, 0, sizeof *out);
    out->left = out->restored = -1;
    /* Nothing recorded is the common case, seen without a lock; a record that cannot be seen
     * (a directory only root may read) is not "nothing". */
    if (access(nprb_record_path(NPRB_RECORD_STATE), F_OK) != 0) {
        if (errno != ENOENT && errno != ENOTDIR)
            fail(out,
                 "cannot tell whether a killed run left kernel.numa_balancing changed: cannot "
                 "read %s (%s); %s",
                 nprb_record_path(NPRB_RECORD_STATE), strerror(errno), retry_advice());
        return;
    }
    char why[200];
    if (nprb_record_dir_trusted(why, sizeof why) != 0) {
        fail(out, "%s: kernel.numa_balancing not restored; check it by hand", why);
        return;
    }
    bool may_write = access(nprb_record_path(NPRB_RECORD_SETTING), W_OK) == 0 &&
                     access(nprb_record_path(NPRB_RECORD_DIR), W_OK) == 0;
    sigset_t old;
    block_kill_signals(&old);
    int fd = nprb_record_lock(may_write);
    if (fd < 0 && !may_write && errno == ENOENT) {
        /* A reader that can change nothing needs no lock to look (the record is renamed into
         * place whole): only say what it sees. */
        recover_locked(out, false);
    } else if (fd < 0) {
        int e = errno;
        fail(out,
             "cannot lock %s: %s; kernel.numa_balancing not restored, if a killed run left it "
             "changed: %s",
             nprb_record_path(NPRB_RECORD_LOCK), lock_problem(e), retry_advice());
    } else {
        recover_locked(out, may_write);
        close(fd);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}
