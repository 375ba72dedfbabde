/* SPDX-License-Identifier: BSD-3-Clause */
#include "job/restore.h"

#include "host/balancing.h"

#include <string.h>

static const char restore_usage[] =
    "Usage: numaprobe restore\n"
    "Puts back kernel.numa_balancing where a numaprobe run that is gone (killed by SIGKILL: a\n"
    "time limit's KillWait, the OOM killer) left it changed, from the record that run kept "
    "in\n" NPRB_BALANCING_STATE_DIR
    "; measures nothing, needs no MPI, and is safe to run any time, on\n"
    "any node, as often as wanted (a scheduler's epilog, a job script's exit trap). A run still\n"
    "going keeps its change: it puts it back itself when it ends. Prints one line.\n"
    "Exit status: 0 the setting is as numaprobe found it (put back now, nothing to put back, or\n"
    "held by a live run), 1 a dead run's change could not be put back (not root: the message\n"
    "says what to run), 2 a bad argument.\n";

enum nprb_status nprb_restore_command(int argc, char **argv, FILE *out, FILE *err)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(restore_usage, out);
            return NPRB_OK;
        }
        fprintf(err, "numaprobe restore: unexpected argument '%s'\n%s", argv[i], restore_usage);
        return NPRB_ERR_USAGE;
    }
    struct nprb_balancing_recovery rec;
    nprb_balancing_recover(&rec);
    switch (rec.outcome) {
    case NPRB_RECOVERY_NONE:
        fprintf(out, "numaprobe restore: nothing to put back (kernel.numa_balancing is %d)\n",
                nprb_balancing_get());
        return NPRB_OK;
    case NPRB_RECOVERY_FAILED:
        fprintf(err, "numaprobe restore: %s\n", rec.text);
        return NPRB_ERR_SYSTEM;
    default:
        fprintf(out, "numaprobe restore: %s\n", rec.text);
        return NPRB_OK;
    }
}
