/* SPDX-License-Identifier: BSD-3-Clause */
#include "job/restore.h"

#include "host/balancing.h"
#include "util/options.h"

static const char restore_usage[] =
    "Usage: numaprobe restore\n"
    "Puts back kernel.numa_balancing where a numaprobe run that is gone (killed by SIGKILL: a\n"
    "time limit's KillWait, the OOM killer) left it changed, from the record that run kept "
    "in\n" NPRB_BALANCING_STATE_DIR
    "; measures nothing, needs no MPI, and is safe to run any time, on\n"
    "any node, as often as wanted (a scheduler's epilog, a job script's exit trap). A run still\n"
    "going keeps its change: it puts it back itself when it ends. Prints one line.\n"
    "Exit status: 0 the setting is as numaprobe found it (put back now, nothing to put back, or\n"
    "held by a live run), 1 a dead run's change could not be put back (not root, the write\n"
    "failed: the message says why and what to run; the record is kept), or the record cannot be\n"
    "read or is not numaprobe's own (damaged, a link, writable by another user: check the\n"
    "setting by hand), 2 a bad argument.\n";

static const struct nprb_option_row restore_options[] = {
    {"help", 'h', NULL, "print this help and exit"},
};

enum nprb_status nprb_restore_command(int argc, char **argv, FILE *out, FILE *err)
{
    struct nprb_options opts;
    nprb_options_init(&opts, restore_options, 1);
    const char *value = NULL;
    char why[160];
    int id = nprb_options_next(&opts, argc, argv, &value, why, sizeof why);
    if (id == 0) {
        fputs(restore_usage, out);
        return NPRB_OK;
    }
    if (id == -2 || optind < argc) {
        if (id == -2)
            fprintf(err, "numaprobe restore: %s\n%s", why, restore_usage);
        else
            fprintf(err, "numaprobe restore: unexpected argument '%s'\n%s", argv[optind],
                    restore_usage);
        return NPRB_ERR_USAGE;
    }
    struct nprb_balancing_recovery rec;
    nprb_balancing_recover(&rec);
    switch (rec.outcome) {
    case NPRB_RECOVERY_NONE: {
        char now[200];
        nprb_balancing_describe(now, sizeof now);
        fprintf(out, "numaprobe restore: nothing to put back (kernel.numa_balancing is %s)\n", now);
        return NPRB_OK;
    }
    case NPRB_RECOVERY_FAILED:
        fprintf(err, "numaprobe restore: %s\n", rec.text);
        return NPRB_ERR_SYSTEM;
    default:
        fprintf(out, "numaprobe restore: %s\n", rec.text);
        return NPRB_OK;
    }
}
