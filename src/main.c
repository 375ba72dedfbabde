/* SPDX-License-Identifier: BSD-3-Clause */
/* numaprobe: parse, run, map the result to an exit code. Everything else is in the library. */
#include "job/build_info.h"
#include "tools/check.h"
#include "job/cli.h"
#include "job/health.h"
#include "config/config.h"
#include "config/config_find.h"
#include "experiments/registry.h"
#include "fleet/fleet.h"
#include "util/log.h"
#include "tools/merge.h"
#include "results/contract.h"
#include "results/results.h"
#include "job/restore.h"
#include "job/run.h"
#include "util/status.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Before MPI is up the rank is unknown; the launchers' own variables tell which process is rank 0
 * so that a usage error is printed once, not once per rank. */
static bool probably_rank0(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
                                       "SLURM_PROCID"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v != NULL)
            return strcmp(v, "0") == 0;
    }
    return true;
}

/* Serial tools: no MPI, nothing measured; check and merge read results files, restore puts back
 * what a killed run left changed. */
static const struct subcommand {
    const char *name;
    enum nprb_status (*run)(int argc, char **argv, FILE *out, FILE *err);
} subcommands[] = {
    {"check", nprb_check_command},
    {"merge", nprb_merge_command},
    {"restore", nprb_restore_command},
};

static void join_args(int argc, char **argv, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < argc && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? " " : "", argv[i]);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

int main(int argc, char **argv)
{
    for (size_t i = 0; argc > 1 && i < sizeof subcommands / sizeof subcommands[0]; i++)
        if (strcmp(argv[1], subcommands[i].name) == 0)
            return nprb_status_exit_code(subcommands[i].run(argc - 1, argv + 1, stdout, stderr));
    /* A health check measures, so it is no serial tool; its exit statuses are a health check's. */
    if (argc > 1 && strcmp(argv[1], "health") == 0)
        return nprb_health_main(argc - 1, argv + 1);

    char command_line[4096];
    join_args(argc, argv, command_line, sizeof command_line);

    struct nprb_cli cli;
    char err[512];
    if (nprb_cli_parse(&cli, argc, argv, err, sizeof err) != 0) {
        if (probably_rank0())
            fprintf(stderr, "numaprobe: %s\nTry 'numaprobe --help'.\n", err);
        return NPRB_EXIT_USAGE;
    }
    if (cli.help) {
        nprb_cli_print_help(stdout);
        return NPRB_EXIT_OK;
    }
    if (cli.version) {
        nprb_build_info_print(stdout);
        return NPRB_EXIT_OK;
    }
    if (cli.kernels) {
        nprb_cli_print_kernels(stdout);
        return NPRB_EXIT_OK;
    }
    if (cli.experiments) {
        nprb_experiments_print_about(stdout);
        return NPRB_EXIT_OK;
    }
    if (cli.schema)
        return nprb_schema_print_json(stdout) == 0 && fflush(stdout) == 0 ? NPRB_EXIT_OK
                                                                          : NPRB_EXIT_RUNTIME;
    if (cli.config_reference) {
        static struct nprb_config defaults;
        if (nprb_experiments_config_defaults(&defaults, err, sizeof err) != 0) {
            fprintf(stderr, "numaprobe: %s\n", err);
            return NPRB_EXIT_RUNTIME;
        }
        nprb_config_print_reference(stdout, &defaults);
        return NPRB_EXIT_OK;
    }

    /* -c NAME: a shipped config, found beside the installation (config_find.h). Every rank
     * resolves it; rank 0's answer is the one read and recorded (config_source). */
    char config_file[PATH_MAX];
    if (cli.config_path != NULL)
        cli.config_path = nprb_config_find(cli.config_path, config_file, sizeof config_file);

    struct nprb_fleet fleet;
    if (nprb_fleet_init(&fleet, &argc, &argv) != 0) {
        fprintf(stderr, "numaprobe: MPI initialisation failed\n");
        return NPRB_EXIT_RUNTIME;
    }
    struct nprb_log log = {
        .stream = stderr,
        .level = cli.verbose ? NPRB_LOG_DEBUG
                 : cli.quiet ? NPRB_LOG_WARN
                             : NPRB_LOG_INFO,
        .rank = fleet.size > 1 ? fleet.rank : -1,
    };
    enum nprb_status status = nprb_run(&cli, command_line, &fleet, &log);
    nprb_fleet_finalize(&fleet);
    return nprb_status_exit_code(status);
}
