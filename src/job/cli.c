/* SPDX-License-Identifier: BSD-3-Clause */
#include "job/cli.h"

#include "host/balancing.h"
#include "kernels/stream.h"
#include "results/row_ids.h"
#include "util/list.h"
#include "util/options.h"
#include "util/status.h"
#include "util/units.h"

#include <stdio.h>
#include <string.h>

enum option_id {
    OPT_CONFIG,
    OPT_OUTPUT,
    OPT_FORCE,
    OPT_SET,
    OPT_STRICT,
    OPT_RESPECT_BINDING,
    OPT_QUIET,
    OPT_PROGRESS,
    OPT_SUMMARY_JSON,
    OPT_TEXTFILE_DIR,
    OPT_TIME_BUDGET,
    OPT_ONLY,
    OPT_VERBOSE,
    OPT_SHOW_CONFIG,
    OPT_DRY_RUN,
    OPT_CONFIG_REFERENCE,
    OPT_KERNELS,
    OPT_EXPERIMENTS,
    OPT_SCHEMA,
    OPT_HELP,
    OPT_VERSION,
    N_OPTIONS
};

/* The one table of options: getopt_long's array and --help are both made from it. */
static const struct nprb_option_row rows[N_OPTIONS] = {
    [OPT_CONFIG] = {"config", 'c', "FILE|NAME",
                    "YAML configuration: a file, or a shipped config by name (default, quick, "
                    "full, textbook, health); default: built-in, same as quick"},
    [OPT_OUTPUT] = {"output", 'o', "FILE",
                    "results file (default: numaprobe-<UTC time>.h5 here); checked and locked "
                    "before measuring: an existing file is refused (see --force), and so is "
                    "anything not a regular file"},
    [OPT_FORCE] = {"force", 'f', NULL,
                   "replace an existing results file (-o) or summary (--summary-json), and write "
                   "a summary whose lock another job holds"},
    [OPT_SET] = {"set", 's', "KEY=VALUE",
                 "override one config key, e.g. --set bandwidth_matrix.size=256MiB (repeatable; "
                 "every other option may be given once)"},
    [OPT_STRICT] = {"strict", 0, NULL, "treat environment problems (binding) as errors: exit 3"},
    [OPT_RESPECT_BINDING] = {"respect-binding", 0, NULL,
                             "keep the launcher's CPU binding: a lone rank bound to part of its "
                             "host measures only the nodes it reaches (default: widen it to the "
                             "job's CPUs)"},
    [OPT_QUIET] = {"quiet", 'q', NULL, "no progress lines on stderr"},
    [OPT_PROGRESS] = {"progress", 0, "DURATION",
                      "a progress line on stderr at least this often while measuring (item k of "
                      "n, experiment, node pair, time left, and on rank 0 the hosts done, "
                      "measuring, late and hung); default 30s"},
    [OPT_SUMMARY_JSON] =
        {"summary-json", 0, "FILE",
         "also write the job's verdict as JSON (run id, config fingerprint, "
         "statuses, each host's headline figures and problems; "
         "docs/summary.schema.json); checked before measuring and locked (FILE.lock), "
         "like -o, and never one of the job's own files (-o, its .lock, "
         ".checkpoints, .tmp-*). FILE '-': the JSON alone on stdout, the report "
         "on stderr"},
    [OPT_TEXTFILE_DIR] = {"textfile-dir", 0, "DIR",
                          "also write each host's figures as OpenMetrics to DIR/numaprobe.prom "
                          "on that host, for node_exporter's textfile collector (e.g. "
                          "/var/lib/prometheus/node-exporter): one file a host, written by its "
                          "first rank, renamed into place; DIR is checked on every host before "
                          "measuring (exit 2); a file that cannot be written at the end is a "
                          "warning, and the results file is kept"},
    [OPT_TIME_BUDGET] = {"time-budget", 0, "DURATION",
                         "fit the run into DURATION on each host, e.g. 5min or 2h (the "
                         "time_budget key): sweeps go first, headline matrices last; --dry-run "
                         "lists what was dropped and the new estimate"},
    [OPT_ONLY] = {"only", 0, "NAME[,NAME]",
                  "run only these experiments, e.g. --only latency_matrix,mlp: each named one "
                  "enabled and every other disabled, over the config and --set (the names are "
                  "the config's sections, --config-reference); with --dry-run, their plan"},
    [OPT_VERBOSE] = {"verbose", 'v', NULL, "debug messages on stderr"},
    [OPT_SHOW_CONFIG] = {"show-config", 0, NULL, "print the effective configuration and exit"},
    [OPT_DRY_RUN] = {"dry-run", 0, NULL,
                     "check the config and plan on every host (sizes against each node's "
                     "memory) and the output paths as the run would (-o, --summary-json), print "
                     "the plan and exit; nothing is measured or written"},
    [OPT_CONFIG_REFERENCE] = {"config-reference", 0, NULL,
                              "print every configuration key, its default and meaning; exit"},
    [OPT_KERNELS] = {"kernels", 0, NULL,
                     "print the bandwidth kernels with their byte counts and exit"},
    [OPT_EXPERIMENTS] = {"experiments", 0, NULL,
                         "print every experiment, in the run order, with what it measures (a "
                         "Markdown table: docs/EXPERIMENTS.md) and exit"},
    [OPT_SCHEMA] = {"schema", 0, NULL,
                    "print the results file's contract as JSON (tables, columns, types, units, "
                    "root attributes; the families of --textfile-dir's file) and exit"},
    [OPT_HELP] = {"help", 'h', NULL, "print this help and exit"},
    [OPT_VERSION] = {"version", 'V', NULL, "print the version and exit"},
};

void nprb_cli_print_kernels(FILE *out)
{
    fprintf(out, "%-13s %-35s %9s %9s %7s\n", "KERNEL", "DOES", "PROGRAM", "BUS", "BUS R:W");
    for (int id = 0; id < NPRB_N_KERNELS; id++) {
        const struct nprb_kernel *k = nprb_kernel_get((enum nprb_kernel_id)id);
        char mix[16];
        snprintf(mix, sizeof mix, "%u:%u", k->bus_reads, k->bus_writes);
        const char *why = NULL;
        bool here = nprb_kernel_available(k, &why);
        fprintf(out, "%-13s %-35s %7u B %7u B %7s%s%s%s\n", k->name, k->formula, k->program_bytes,
                k->bus_bytes, mix, here ? "" : "  (", here ? "" : why, here ? "" : ")");
    }
    fprintf(
        out,
        "\nBytes per access: PROGRAM as the code reads and writes them (STREAM's count, "
        "the GB/s\ncolumns), BUS as the memory bus carries them (a store that misses "
        "first reads its\nline: write-allocate; non-temporal stores do not). "
        "read_strided moves min(stride, 64) B\nof bus per access, read_random a whole "
        "line plus the index.\nBUS R:W is the bus's reads to writes, a write-allocate read counted "
        "as a read; the\nmix_ kernels write only lines they have just read, so theirs is exact. A "
        "kernel not on this\nCPU gives not_applicable rows; the byte counts hold on x86-64 and "
        "Arm64 alike\n(docs/KERNELS.md).\n");
}

void nprb_cli_print_help(FILE *out)
{
    fprintf(out,
            /* "  or:" opens each further usage line, as help2man reads them for the man page. */
            "Usage: numaprobe [OPTIONS]\n"
            "  or:  mpirun --map-by ppr:1:node --bind-to none numaprobe [OPTIONS]\n"
            "  or:  numaprobe check FILE...\n"
            "  or:  numaprobe merge DIR -o FILE\n"
            "  or:  numaprobe restore\n"
            "  or:  numaprobe health --references REF\n\n"
            "Measures memory latency and bandwidth of every NUMA node of every host in the job\n"
            "and writes all results to one HDF5 file (see docs/SCHEMA.md). 'numaprobe check'\n"
            "validates results files (0 valid, 4 invalid); 'numaprobe merge' rebuilds a results\n"
            "file from a job's checkpoints (0 complete, 5 partial); 'numaprobe restore' puts\n"
            "back kernel.numa_balancing where a killed run left it changed (0 as found, 1 not\n"
            "put back); 'numaprobe health' is a node health check against a site's references\n"
            "(0 healthy, 1 failed: drain, 2 not judged); each takes --help. The numa_balancing "
            "experiment alone changes a system\n"
            "setting (kernel.numa_balancing, as root), recorded first in " NPRB_BALANCING_STATE_DIR
            "\n"
            "and put back at exit, on SIGINT/SIGTERM/SIGHUP, and after SIGKILL by the next start\n"
            "on the host or 'numaprobe restore'.\n\n"
            "Options:\n");
    nprb_options_print(out, rows, N_OPTIONS);
    fprintf(out,
            "\nExit codes:\n"
            "  %d  ok\n"
            "  %d  runtime failure (every host failed, MPI or file system error)\n"
            "  %d  usage or config error, or an output path refused: unwritable, not a regular\n"
            "     file, existing without --force, locked by another job (nothing was measured)\n"
            "  %d  environment check failed under --strict\n"
            "  %d  result validation failed (a kernel produced a wrong answer)\n"
            "  %d  partial: some hosts failed, the file holds every other host's results\n",
            NPRB_EXIT_OK, NPRB_EXIT_RUNTIME, NPRB_EXIT_USAGE, NPRB_EXIT_ENV, NPRB_EXIT_VALIDATION,
            NPRB_EXIT_PARTIAL);
}

/* --only's names, each parsed once into its experiment's bit. */
static int parse_only(const char *value, uint64_t *only, char *err, size_t errlen)
{
    *only = 0;
    const char *item;
    size_t len;
    for (const char *cursor = value; nprb_list_next(&cursor, &item, &len);) {
        char name[64], why[400];
        enum nprb_experiment_id id;
        if (len == 0) {
            snprintf(err, errlen, "--only '%s': an empty name (expected NAME[,NAME])", value);
            return -1;
        }
        len = len < sizeof name ? len : sizeof name - 1; /* longer than any: unknown below */
        memcpy(name, item, len);
        name[len] = '\0';
        if (nprb_experiment_parse(name, &id, why, sizeof why) != 0) {
            snprintf(err, errlen, "--only: %s", why);
            return -1;
        }
        if (*only & NPRB_EXPERIMENT_BIT(id)) {
            snprintf(err, errlen, "--only: '%s' is named twice (each experiment once)", name);
            return -1;
        }
        *only |= NPRB_EXPERIMENT_BIT(id);
    }
    return 0;
}

int nprb_cli_parse(struct nprb_cli *cli, int argc, char **argv, char *err, size_t errlen)
{
    memset(cli, 0, sizeof *cli);
    cli->progress_s = 30;
    struct nprb_options opts;
    nprb_options_init(&opts, rows, N_OPTIONS);
    nprb_options_allow_repeat(&opts, OPT_SET);
    int id;
    const char *value = NULL;
    while ((id = nprb_options_next(&opts, argc, argv, &value, err, errlen)) != -1) {
        switch (id) {
        case OPT_CONFIG:
            cli->config_path = value;
            break;
        case OPT_OUTPUT:
            cli->output_path = value;
            break;
        case OPT_FORCE:
            cli->force = true;
            break;
        case OPT_SET:
            if (cli->set_count == NPRB_MAX_SETS) {
                snprintf(err, errlen, "too many --set options (at most %d)", NPRB_MAX_SETS);
                return -1;
            }
            cli->sets[cli->set_count++] = value;
            break;
        case OPT_STRICT:
            cli->strict = true;
            break;
        case OPT_RESPECT_BINDING:
            cli->respect_binding = true;
            break;
        case OPT_QUIET:
            cli->quiet = true;
            break;
        case OPT_PROGRESS:
            /* A floor of 1 ms: a line per measurement at most, never a busy loop of lines. */
            if (nprb_parse_duration(value, &cli->progress_s) != 0 || cli->progress_s < 1e-3) {
                snprintf(err, errlen,
                         "--progress '%s': expected a duration of at least 1ms (e.g. 30s, 2min)",
                         value);
                return -1;
            }
            break;
        case OPT_SUMMARY_JSON:
            if (strcmp(value, "-") == 0)
                cli->summary_stdout = true;
            else
                cli->summary_json = value;
            break;
        case OPT_TEXTFILE_DIR:
            cli->textfile_dir = value;
            break;
        case OPT_TIME_BUDGET:
            cli->time_budget = value;
            break;
        case OPT_ONLY:
            if (parse_only(value, &cli->only, err, errlen) != 0)
                return -1;
            break;
        case OPT_VERBOSE:
            cli->verbose = true;
            break;
        case OPT_SHOW_CONFIG:
            cli->show_config = true;
            break;
        case OPT_DRY_RUN:
            cli->dry_run = true;
            break;
        case OPT_CONFIG_REFERENCE:
            cli->config_reference = true;
            break;
        case OPT_KERNELS:
            cli->kernels = true;
            break;
        case OPT_EXPERIMENTS:
            cli->experiments = true;
            break;
        case OPT_SCHEMA:
            cli->schema = true;
            break;
        case OPT_HELP:
            cli->help = true;
            break;
        case OPT_VERSION:
            cli->version = true;
            break;
        default: /* -2: the message is in err */
            return -1;
        }
    }
    if (optind < argc) {
        snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
        return -1;
    }
    return 0;
}
