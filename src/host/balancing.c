/* SPDX-License-Identifier: BSD-3-Clause */
#include "host/balancing.h"

#include "util/signals.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SETTING "/proc/sys/kernel/numa_balancing"

/* Process-wide by nature: a signal handler can reach nothing else (signals.h). One of the few
 * exceptions to the no-mutable-globals rule, each kept to its file. */
static volatile sig_atomic_t saved_value = -1;
static volatile sig_atomic_t armed = 0;

int nprb_balancing_get(void)
{
    char buf[16] = "";
    int fd = open(SETTING, O_RDONLY);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    return n > 0 ? atoi(buf) : -1;
}

/* Async-signal-safe: open, write and close only. */
static int write_setting(int value)
{
    char text[4] = {(char)('0' + value % 10), '\n', '\0', '\0'};
    int fd = open(SETTING, O_WRONLY);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, text, 2);
    int e = errno;
    close(fd);
    errno = e;
    return n == 2 ? 0 : -1;
}

void nprb_balancing_restore(void)
{
    if (armed && saved_value >= 0)
        (void)write_setting(saved_value);
}

static void arm(void)
{
    if (armed)
        return;
    armed = 1;
    atexit(nprb_balancing_restore);
    nprb_signals_on_kill(nprb_balancing_restore);
}

int nprb_balancing_set(int value)
{
    if (value < 0 || value > 9) {
        errno = EINVAL;
        return -1;
    }
    if (saved_value < 0) {
        int now = nprb_balancing_get();
        if (now < 0)
            return -1;
        saved_value = now;
    }
    arm();
    return write_setting(value);
}
