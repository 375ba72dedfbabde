/* SPDX-License-Identifier: BSD-3-Clause */
#include "util/signals.h"

#include <signal.h>
#include <string.h>

enum { MAX_CLEANUPS = 8 };

static nprb_cleanup_fn cleanups[MAX_CLEANUPS];
static volatile sig_atomic_t cleanup_count;

static void on_kill(int sig)
{
    for (int i = cleanup_count - 1; i >= 0; i--)
        cleanups[i]();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa, old;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_kill;
        sigemptyset(&sa.sa_mask);
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
            sigaction(sigs[i], &sa, NULL);
    }
}

int nprb_signals_on_kill(nprb_cleanup_fn fn)
{
    for (int i = 0; i < cleanup_count; i++)
        if (cleanups[i] == fn)
            return 0;
    if (cleanup_count == MAX_CLEANUPS)
        return -1;
    if (cleanup_count == 0)
        install();
    cleanups[cleanup_count] = fn;
    cleanup_count++; /* after the slot is filled: a signal now sees a whole entry */
    return 0;
}
