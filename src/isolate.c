#include "isolate.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int nprb_run_isolated(int (*fn)(void *arg), void *arg, struct nprb_isolated *result)
{
    /* Unflushed output would otherwise be written twice, once by each process. */
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
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
    result->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return 0;
}
