/* SPDX-License-Identifier: BSD-3-Clause */
/* The record of kernel.numa_balancing, on a file standing in for the setting and a temporary
 * state directory, with real processes as the runs: a run killed by SIGKILL (and one left a
 * zombie) is put back by the next recovery; SIGTERM's handler puts it back itself; two runs at
 * once never put back the value early; a PID used again, an unreadable record and a record
 * that cannot be written are handled as the header says; a setting that cannot be written
 * leaves the record in place, and a umask of 077 does not hide the record from users. */
#include "check.h"
#include "host/balancing.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char setting[256], dir[256], state[300];

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f != NULL) {
        fputs(text, f);
        fclose(f);
    }
}

static bool exists(const char *path)
{
    return access(path, F_OK) == 0;
}

/* A child that changes the setting to @p value, tells the parent, waits for a byte, then does
 * what @p end says: 'k' SIGKILL, 't' SIGTERM, 'r' restore and exit. */
static pid_t start_run(int value, int *to_child)
{
    int up[2], down[2];
    if (pipe(up) != 0 || pipe(down) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        char err[160], c = 0;
        int rc = nprb_balancing_set(value, err, sizeof err);
        if (rc != 0)
            fprintf(stderr, "child: %s\n", err);
        if (write(up[1], rc == 0 ? "y" : "n", 1) != 1 || read(down[0], &c, 1) != 1)
            _exit(3);
        if (c == 'k')
            raise(SIGKILL);
        if (c == 't')
            raise(SIGTERM);
        nprb_balancing_restore();
        _exit(0);
    }
    char ok = 0;
    if (read(up[0], &ok, 1) != 1 || ok != 'y')
        return -1;
    *to_child = down[1];
    return pid;
}

static int end_run(pid_t pid, int to_child, char how)
{
    int status = 0;
    if (write(to_child, &how, 1) != 1 || waitpid(pid, &status, 0) != pid)
        return -1;
    return status;
}

int main(void)
{
    char tmpl[] = "/tmp/nprb-balancing-XXXXXX";
    if (mkdtemp(tmpl) == NULL)
        return SKIP_TEST;
    snprintf(setting, sizeof setting, "%s/numa_balancing", tmpl);
    snprintf(dir, sizeof dir, "%s/run", tmpl);
    snprintf(state, sizeof state, "%s/numa_balancing.state", dir);
    write_text(setting, "1\n");
    nprb_balancing_use_paths(setting, dir);
    struct nprb_balancing_recovery rec;
    char err[160];

    /* Nothing recorded: nothing to do. */
    nprb_balancing_recover(&rec);
    CHECK(rec.outcome == NPRB_RECOVERY_NONE);

    /* Changed and put back in one process: the record exists only while the change does. */
    CHECK(nprb_balancing_set(0, err, sizeof err) == 0);
    CHECK(nprb_balancing_get() == 0);
    CHECK(exists(state));
    nprb_balancing_recover(&rec);
    CHECK(rec.outcome == NPRB_RECOVERY_HELD); /* this process is alive: left alone */
    CHECK(nprb_balancing_get() == 0);
    nprb_balancing_restore();
    CHECK(nprb_balancing_get() == 1);
    CHECK(!exists(state));

    /* SIGKILL during the change: the setting stays changed until the next recovery. */
    int to;
    pid_t a = start_run(0, &to);
    CHECK(a > 0);
    int st = end_run(a, to, 'k');
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    CHECK(nprb_balancing_get() == 0);
    nprb_balancing_recover(&rec);
    CHECK(rec.outcome == NPRB_RECOVERY_RESTORED);
    char want[96];
    snprintf(want, sizeof want, "left at 0 by numaprobe pid %ld", (long)a);
    CHECK_STR_CONTAINS(rec.text, want);
    CHECK_STR_CONTAINS(rec.text, "restored to 1");
    CHECK(rec.left == 0 && rec.restored == 1);
    CHECK(nprb_balancing_get() == 1);
    CHECK(!exists(state));
    nprb_balancing_recover(&rec);
    CHECK(rec.outcome == NPRB_RECOVERY_NONE);

    /* SIGTERM: the handler puts it back before the process dies of the signal. */
    a = start_run(0, &to);
    CHECK(a > 0);
    st = end_run(a, to, 't');
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
    CHECK(nprb_balancing_get() == 1);
    CHECK(!exists(state));

    /* A killed run not yet reaped (a zombie) can put nothing back: it counts as gone. */
    a = start_run(0, &to);
    CHECK(a > 0);
    char k = 'k';
    CHECK(write(to, &k, 1) == 1);
    siginfo_t info;
    CHECK(waitid(P_PID, (id_t)a, &info, WEXITED | WNOWAIT) == 0); /* dead, not reaped */
    nprb_balancing_recover(&rec);
    CHECK(rec.outcome == NPRB_RECOVERY_RESTORED);
    CHECK(nprb_balancing_get() == 1);
    waitpid(a, &st, 0);

    /* Two runs at once. A changes it, then B joins: B must record 1 as the original, not the 0
     * A left. B leaving while A measures keeps A's 0; A leaving puts back 1. */
    a = start_run(0, &to);
    CHECK(a > 0);
    CHECK(nprb_balancing_set(0, err, sizeof err) == 0);
    char record[1024] = "";
    FILE *f = fopen(state, "r");
    if (f != NULL) {
        CHECK(fread(record, 1, sizeof record - 1, f) > 0);
        fclose(f);
    }
    CHECK_STR_CONTAINS(record, "\noriginal 1\n");
    nprb_balancing_restore();
    CHECK(nprb_balancing_get() == 0);
    CHECK(exists(state));
    st = end_run(a, to, 'r');
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    CHECK(nprb_balancing_get() == 1);
    CHECK(!exists(state));

    /* The other order, with the first one killed: the one still measuring keeps its value, and
     * puts back the original when it leaves, as the last live run. A run that wants 2 joins
     * after, so the latest wish is what the setting holds. */
    a = start_run(0, &to);
    CHECK(a > 0);
    CHECK(nprb_balancing_set(2, err, sizeof err) == 0);
    CHECK(nprb_balancing_get() == 2);
    st = end_run(a, to, 'k');
    CHECK(WIFSIGNALED(st));
    CHECK(nprb_balancing_get() == 2);
    nprb_balancing_recover(&rec); /* A is gone, this process holds it: its 2 stays */
    CHECK(rec.outcome == NPRB_RECOVERY_RESTORED || rec.outcome == NPRB_RECOVERY_CLEARED);
    CHECK(nprb_balancing_get() == 2);
    nprb_balancing_restore();
    CHECK(nprb_balancing_get() == 1);
    CHECK(!exists(state));

    /* A PID used again by another process: its start time differs, so the owner is gone. */
    char text[256];
    write_text(setting, "0\n");
    snprintf(text, sizeof text, "original 1\nowner %ld 1 0 4242\n", (long)getppid());
    write_text(state, text);
    nprb_balancing_recover(&rec);
    CHECK(rec.outcome == NPRB_RECOVERY_RESTORED);
    CHECK_STR_CONTAINS(rec.text, "(job 4242)");
    CHECK(nprb_balancing_get() == 1);

    /* A record numaprobe cannot read is nobody's to act on: left for a person, and no run
     * changes the setting while it is there. */
    write_text(state, "original\n");
    nprb_balancing_recover(&rec);
    CHECK(rec.outcome == NPRB_RECOVERY_FAILED);
    CHECK_STR_CONTAINS(rec.text, "not restored"); /* the report's word for "act on this host" */
    CHECK(exists(state));
    CHECK(nprb_balancing_set(0, err, sizeof err) != 0);
    CHECK_STR_CONTAINS(err, "no record numaprobe can read");
    CHECK(nprb_balancing_get() == 1);
    unlink(state);

    /* The run's own exit path when the setting cannot be written (ENOSPC here; EPERM from an
     * LSM): the record keeps the run, so that the value to put back is not lost, and a later
     * try (the exit handler, the next start) puts it back. */
    CHECK(nprb_balancing_set(0, err, sizeof err) == 0);
    nprb_balancing_use_paths("/dev/full", dir);
    nprb_balancing_restore();
    CHECK(exists(state));
    nprb_balancing_use_paths(setting, dir);
    CHECK(nprb_balancing_get() == 0);
    nprb_balancing_restore(); /* still armed: this try writes it */
    CHECK(nprb_balancing_get() == 1);
    CHECK(!exists(state));

    /* Under a umask of 077 (some root shells) the directory, the record and the lock are still
     * readable by everyone, so that a user's `numaprobe restore` can tell what is left. */
    char fresh[300];
    snprintf(fresh, sizeof fresh, "%s/fresh", tmpl);
    nprb_balancing_use_paths(setting, fresh);
    mode_t mask = umask(077);
    CHECK(nprb_balancing_set(0, err, sizeof err) == 0);
    umask(mask);
    struct stat sb;
    char path[340];
    CHECK(stat(fresh, &sb) == 0 && (sb.st_mode & 0777) == 0755);
    snprintf(path, sizeof path, "%s/numa_balancing.state", fresh);
    CHECK(stat(path, &sb) == 0 && (sb.st_mode & 0777) == 0644);
    snprintf(path, sizeof path, "%s/numa_balancing.lock", fresh);
    CHECK(stat(path, &sb) == 0 && (sb.st_mode & 0777) == 0644);
    nprb_balancing_restore();
    CHECK(nprb_balancing_get() == 1);

    /* A state directory others may write to is not trusted with a record. */
    CHECK(chmod(fresh, 0777) == 0);
    CHECK(nprb_balancing_set(0, err, sizeof err) != 0);
    CHECK_STR_CONTAINS(err, "is writable by others (mode 0777)");
    CHECK(nprb_balancing_get() == 1);
    nprb_balancing_use_paths(setting, dir);

    /* Nowhere to record: nothing is changed. */
    char file_dir[300];
    snprintf(file_dir, sizeof file_dir, "%s/not-a-dir", tmpl);
    write_text(file_dir, "");
    nprb_balancing_use_paths(setting, file_dir);
    CHECK(nprb_balancing_set(0, err, sizeof err) != 0);
    CHECK_STR_CONTAINS(err, "cannot record");
    CHECK(nprb_balancing_get() == 1);

    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpl);
    CHECK(system(cmd) == 0);
    return CHECK_DONE();
}
