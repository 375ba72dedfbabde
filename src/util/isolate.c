/* SPDX-License-Identifier: BSD-3-Clause */
#include "util/isolate.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int nprb_run_isolated(int (*fn)(void *arg), void *arg, unsigned limit_s,
                      struct nprb_isolated *result)
{
    /* Unflushed output would otherwise be written twice, once by each process. */
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        /* SIGALRM's default action ends the child, wherever HDF5 is looping. */
        signal(SIGALRM, SIG_DFL);
        alarm(limit_s);
        int code = fn(arg);
        /* exit, not _exit: the child ends as a program does, flushing its output and running
         * the atexit handlers (HDF5's cleanup, a sanitizer's leak check). */
        exit(code);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            return -1;
    }
    result->crashed = WIFSIGNALED(status);
    result->signal = result->crashed ? WTERMSIG(status) : 0;
    result->timed_out = result->crashed && result->signal == SIGALRM;
    result->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return 0;
}

unsigned nprb_isolated_limit_s(unsigned long long bytes)
{
    unsigned long long mib = bytes >> 20;
    return 60 + (mib < 86400 ? (unsigned)mib : 86400);
}

long nprb_isolated_parse_limit(const char *text)
{
    if (text == NULL)
        return -1;
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    return end != text && *end == '\0' && errno == 0 && v >= 0 ? v : -1;
}
