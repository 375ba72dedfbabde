/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_collector: rank 0's whole path for a fleet, without MPI or measurement: each host's rows
 * through the collector the job uses (nprb_collector_take_rank(): the results file's appends,
 * the failed and narrow bookkeeping, the --summary-json hosts, the report's lines on stdout),
 * then the report's end, the root attributes and the commit (nprb_collector_finish()) and the
 * summary, as nprb_collector_gather() does with the rows MPI brings.
 *
 *   bench_collector [--summary-json FILE] [--report FILE] HOST.h5 OUT.h5 HOSTS [TYPES]
 *
 * The hosts are the synthetic fleet of bench_write (fleet_synth.h), one rank a host. The report
 * goes to /dev/null unless --report names a file (its lines are made either way). Prints, at
 * every tenth of the hosts, the time a host so far and the peak RSS: a memory that does not
 * grow with the hosts shows as a peak that stops rising. A benchmark, not a test: it asserts
 * nothing about time; its exit status is the collector's (0, or 1 when the file or the summary
 * could not be written). */
#include "fleet_synth.h"

#include "experiments/registry.h"
#include "job/collector.h"
#include "util/options.h"
#include "util/timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct nprb_option_row option_rows[] = {
    {"summary-json", 's', "FILE", "the job's JSON summary, as numaprobe --summary-json FILE"},
    {"report", 'r', "FILE", "where the stdout report goes (default /dev/null)"},
    {"help", 'h', NULL, "this help"},
};
enum { OPT_SUMMARY, OPT_REPORT, OPT_HELP, N_OPTIONS };

static void usage(FILE *out)
{
    fprintf(out, "usage: bench_collector [options] HOST.h5 OUT.h5 HOSTS [TYPES]\n");
    nprb_options_print(out, option_rows, N_OPTIONS);
}

static double peak_rss_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

/* The config the template was measured with, so the file's fingerprint is its rows'. */
static int template_config(struct nprb_config *cfg, const struct fleet_synth *f)
{
    char err[512];
    const char *yaml = nprb_attrs_text(&f->attrs, "config");
    nprb_config_defaults(cfg);
    if (nprb_experiments_config_defaults(cfg, err, sizeof err) != 0 ||
        (yaml != NULL &&
         nprb_config_load_text(cfg, yaml, "the template's config", err, sizeof err) != 0)) {
        fprintf(stderr, "bench_collector: %s\n", err);
        return -1;
    }
    return 0;
}

struct bench {
    struct fleet_synth fleet;
    struct nprb_fleet mpi; /* what the collector reads of the fleet: no MPI call is made */
    struct nprb_config cfg;
    struct nprb_provenance prov;
    struct nprb_log log;
    struct nprb_collector c;
    char start_utc[32];
};

static int setup(struct bench *b, const char *output, const char *summary_path, FILE *report)
{
    struct fleet_synth *f = &b->fleet;
    if (template_config(&b->cfg, f) != 0)
        return -1;
    b->mpi.size = b->mpi.host_count = f->hosts;
    snprintf(b->mpi.mpi_library, sizeof b->mpi.mpi_library, "none (bench_collector)");
    snprintf(b->prov.scheduler, sizeof b->prov.scheduler, "none");
    b->log = (struct nprb_log){.stream = stderr, .level = NPRB_LOG_INFO, .rank = 0};
    nprb_utc_now(b->start_utc, sizeof b->start_utc, false);
    const char *yaml = nprb_attrs_text(&f->attrs, "config");
    b->c = (struct nprb_collector){
        .fleet = &b->mpi,
        .log = &b->log,
        .cfg = &b->cfg,
        .prov = &b->prov,
        .output = output,
        .start_utc = b->start_utc,
        .command_line = "bench_collector (synthetic fleet)",
        .config_yaml = yaml != NULL ? yaml : "",
        .config_source = "the template's config",
        .job_identity = "bench_collector",
        .start_ns = nprb_now_ns(),
        .summary_path = summary_path,
        .report = report,
    };
    char err[512];
    if (nprb_h5_create(&b->c.h5, output, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    if (summary_path != NULL && (b->c.summary = nprb_summary_create(summary_path)) == NULL) {
        fprintf(stderr, "bench_collector: cannot start the summary beside %s\n", summary_path);
        return -1;
    }
    return 0;
}

/* Every host through the collector, with a line at every tenth. @return 0 or -1. */
static int feed(struct bench *b)
{
    struct fleet_synth *f = &b->fleet;
    int rc = 0, next = f->hosts / 10 > 0 ? f->hosts / 10 : 1;
    uint64_t t0 = nprb_now_ns();
    nprb_collector_begin(&b->c);
    for (int r = 0; r < f->hosts; r++) {
        fleet_synth_host(f, r);
        if (nprb_collector_take_rank(&b->c, &f->row) != 0)
            rc = -1;
        if (r + 1 == next || r + 1 == f->hosts) {
            printf("%9d hosts: %.3f ms a host, peak RSS %.1f MB\n", r + 1,
                   1e-6 * (double)(nprb_now_ns() - t0) / (r + 1), peak_rss_mb());
            fflush(stdout);
            next += f->hosts / 10 > 0 ? f->hosts / 10 : 1;
        }
    }
    return rc;
}

int main(int argc, char **argv)
{
    struct nprb_options o;
    nprb_options_init(&o, option_rows, N_OPTIONS);
    const char *summary_path = NULL, *report_path = "/dev/null", *value = NULL;
    char err[512];
    for (int opt; (opt = nprb_options_next(&o, argc, argv, &value, err, sizeof err)) != -1;) {
        if (opt == -2 || opt == OPT_HELP) {
            if (opt == -2)
                fprintf(stderr, "bench_collector: %s\n", err);
            usage(opt == -2 ? stderr : stdout);
            return opt == -2 ? 2 : 0;
        }
        if (opt == OPT_SUMMARY)
            summary_path = value;
        else if (opt == OPT_REPORT)
            report_path = value;
    }
    if (argc - optind != 3 && argc - optind != 4) {
        usage(stderr);
        return 2;
    }
    char **args = argv + optind;
    static struct bench b; /* large (the config), and zeroed */
    if (fleet_synth_open(&b.fleet, "bench_collector", args[0], atoi(args[2]),
                         argc - optind == 4 ? atoi(args[3]) : 3) != 0)
        return 2;
    FILE *report = fopen(report_path, "w");
    if (report == NULL) {
        perror(report_path);
        return 2;
    }
    uint64_t t0 = nprb_now_ns();
    if (setup(&b, args[1], summary_path, report) != 0)
        return 1;
    int rc = feed(&b);
    uint64_t f0 = nprb_now_ns();
    enum nprb_status st = nprb_collector_finish(&b.c, rc);
    double finish_s = (double)(nprb_now_ns() - f0) * 1e-9;
    if (nprb_collector_write_summary(&b.c, st, st == NPRB_OK) != NPRB_OK)
        st = NPRB_ERR_SYSTEM;
    double total = (double)(nprb_now_ns() - t0) * 1e-9;
    struct stat sb;
    double mb = stat(args[1], &sb) == 0 ? (double)sb.st_size / 1e6 : 0;
    printf("%d hosts of %zu rows: %.3f ms a host through the collector (take_rank %.3f ms), "
           "%.2f s in all (finish and commit %.2f s); file %.2f MB (%.1f KB a host); peak RSS "
           "%.1f MB\n",
           b.fleet.hosts, b.fleet.rows_a_host, 1e3 * total / b.fleet.hosts,
           1e-6 * (double)b.c.write_ns / b.fleet.hosts, total, finish_s, mb,
           1e3 * mb / b.fleet.hosts, peak_rss_mb());
    nprb_summary_destroy(b.c.summary);
    fclose(report);
    fleet_synth_close(&b.fleet);
    return st == NPRB_OK ? 0 : 1;
}
