/* SPDX-License-Identifier: BSD-3-Clause */
#include "job/health.h"

#include "build_facts.h"
#include "config/config_find.h"
#include "fleet/fleet.h"
#include "job/cli.h"
#include "job/run.h"
#include "util/log.h"
#include "util/options.h"
#include "util/status.h"
#include "util/units.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* What the judge needs beside the measurement: Python's start and the file's reading. The
 * measurement gets the rest of the check's budget. */
#define JUDGE_ALLOWANCE_S 5.0
#define MIN_MEASURE_S 5.0

static const char health_usage[] =
    "Usage: numaprobe health --references REF [options]\n"
    "A node health check: measures this host (the shipped config 'health': every node's idle\n"
    "latency to every node, each node's local read and triad bandwidth, in passes) within a\n"
    "time budget, then judges each figure, node by node, against the site's references for\n"
    "the host's node type (numaprobe-report references writes them from a fleet run; the\n"
    "judge is numaprobe-report health). Prints one line per finding; the last line, which\n"
    "begins 'numaprobe:', is short enough for a drain reason. Run it as one process, without\n"
    "mpirun or srun. REF is a file, or a name looked up as NAME.yaml, .yml or .json "
    "in\n" NPRB_SITE_CONFDIR ".\n"
    "Exit status: 0 healthy (every referenced figure judged, all within bounds); 1 failed (a\n"
    "figure outside its bounds, or a kernel read back wrong data): drain the node; 2 not judged\n"
    "(node type not in the references, a noisy figure, a measurement that failed, a bad\n"
    "argument, no numaprobe-report): look, but do not drain on it.\n";

enum health_option { H_REFERENCES, H_CONFIG, H_TIME_BUDGET, H_SET, H_OUTPUT, H_VERBOSE, H_HELP };

static const struct nprb_option_row health_options[] = {
    [H_REFERENCES] = {"references", 'r', "REF", "the site's references (required)"},
    [H_CONFIG] = {"config", 'c', "FILE|NAME", "what to measure (default: health)"},
    [H_TIME_BUDGET] = {"time-budget", 0, "DURATION",
                       "the whole check's time (default 30s; the judge takes about 5 s of it)"},
    [H_SET] = {"set", 's', "KEY=VALUE", "override one config key (repeatable)"},
    [H_OUTPUT] = {"output", 'o', "FILE",
                  "keep the results file there (default: a temporary file, removed)"},
    [H_VERBOSE] = {"verbose", 'v', NULL, "the measurement's report and progress on stderr"},
    [H_HELP] = {"help", 'h', NULL, "print this help and exit"},
};
#define N_HEALTH_OPTIONS ((int)(sizeof health_options / sizeof health_options[0]))

struct health_args {
    const char *references, *config, *time_budget, *output;
    const char *sets[NPRB_MAX_SETS];
    int set_count;
    bool verbose, help;
};

static int parse(struct health_args *a, int argc, char **argv, char *err, size_t len)
{
    memset(a, 0, sizeof *a);
    a->config = "health";
    struct nprb_options opts;
    nprb_options_init(&opts, health_options, N_HEALTH_OPTIONS);
    nprb_options_allow_repeat(&opts, H_SET);
    const char *value = NULL;
    for (int id; (id = nprb_options_next(&opts, argc, argv, &value, err, len)) != -1;) {
        switch (id) {
        case H_REFERENCES:
            a->references = value;
            break;
        case H_CONFIG:
            a->config = value;
            break;
        case H_TIME_BUDGET:
            a->time_budget = value;
            break;
        case H_OUTPUT:
            a->output = value;
            break;
        case H_VERBOSE:
            a->verbose = true;
            break;
        case H_HELP:
            a->help = true;
            break;
        case H_SET:
            if (a->set_count == NPRB_MAX_SETS) {
                snprintf(err, len, "too many --set options (at most %d)", NPRB_MAX_SETS);
                return -1;
            }
            a->sets[a->set_count++] = value;
            break;
        default:
            return -1;
        }
    }
    if (optind < argc) {
        snprintf(err, len, "unexpected argument '%s'", argv[optind]);
        return -1;
    }
    if (!a->help && a->references == NULL) {
        snprintf(err, len, "--references REF is required (a health check judges against them)");
        return -1;
    }
    return 0;
}

/* The references file @p arg names, as numaprobe-report finds it (a path or a file here, as
 * given; a name from the site's directory), checked readable now: a check that measured for 30 s
 * and then could not read them would have cost its time for nothing. */
static const char *find_references(const char *arg, char *buf, size_t len, char *err, size_t elen)
{
    static const char *const suffixes[] = {".yaml", ".yml", ".json"};
    const char *path = arg;
    struct stat st;
    size_t n = strlen(arg);
    bool is_name = strchr(arg, '/') == NULL && lstat(arg, &st) != 0;
    for (size_t i = 0; i < 3 && is_name; i++) {
        size_t s = strlen(suffixes[i]);
        if (n >= s && strcasecmp(arg + n - s, suffixes[i]) == 0)
            is_name = false;
    }
    if (is_name) {
        path = NULL;
        for (size_t i = 0; i < 3 && path == NULL; i++) {
            snprintf(buf, len, "%s/%s%s", NPRB_SITE_CONFDIR, arg, suffixes[i]);
            if (stat(buf, &st) == 0 && S_ISREG(st.st_mode))
                path = buf;
        }
        if (path == NULL) {
            snprintf(err, elen,
                     "references '%s': no file of that name here, and no %s.yaml, .yml or .json "
                     "in the site's directory %s",
                     arg, arg, NPRB_SITE_CONFDIR);
            return NULL;
        }
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, elen, "references %s: %s", path,
                 fd < 0 ? strerror(errno) : "not a regular file");
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    close(fd);
    return path;
}

/* numaprobe-report: NUMAPROBE_REPORT when set, else beside this executable (an installation),
 * else the source tree's launcher for an executable of the build tree. NULL when none runs. */
static const char *find_report(char *buf, size_t len)
{
    const char *env = getenv("NUMAPROBE_REPORT");
    if (env != NULL && env[0] != '\0')
        return access(env, X_OK) == 0 ? env : NULL;
    char exe[PATH_MAX];
    nprb_own_exe(exe, sizeof exe);
    char *slash = strrchr(exe, '/');
    if (slash != NULL) {
        snprintf(buf, len, "%.*s/numaprobe-report", (int)(slash - exe), exe);
        if (access(buf, X_OK) == 0)
            return buf;
    }
    if (nprb_exe_in_build_tree(exe) && access(NPRB_SOURCE_REPORT, X_OK) == 0)
        return NPRB_SOURCE_REPORT;
    return NULL;
}

/* The measurement's share of the check's budget @p text (NULL: the config's own). */
static int measure_budget(const char *text, char *buf, size_t len, char *err, size_t elen)
{
    buf[0] = '\0';
    if (text == NULL)
        return 0;
    double s;
    if (nprb_parse_duration(text, &s) != 0 || s < JUDGE_ALLOWANCE_S + MIN_MEASURE_S) {
        snprintf(err, elen, "--time-budget '%s': expected a duration of at least %gs", text,
                 JUDGE_ALLOWANCE_S + MIN_MEASURE_S);
        return -1;
    }
    snprintf(buf, len, "%.3fs", s - JUDGE_ALLOWANCE_S);
    return 0;
}

/* Measures into @p out as `numaprobe -c CONFIG -o OUT -q [--time-budget B] [--set ...]` would:
 * the one job sequence, with its report kept off stdout, where the findings go. */
static enum nprb_status measure(const struct health_args *a, const char *config, const char *budget,
                                const char *out, int *argc, char ***argv)
{
    const char *args[2 * NPRB_MAX_SETS + 16];
    int n = 0;
    args[n++] = "numaprobe";
    args[n++] = "-c";
    args[n++] = config;
    args[n++] = "-o";
    args[n++] = out;
    if (!a->verbose)
        args[n++] = "-q";
    if (budget[0] != '\0') {
        args[n++] = "--time-budget";
        args[n++] = budget;
    }
    for (int i = 0; i < a->set_count; i++) {
        args[n++] = "--set";
        args[n++] = a->sets[i];
    }
    args[n] = NULL;
    struct nprb_cli cli;
    char err[512];
    if (nprb_cli_parse(&cli, n, (char **)args, err, sizeof err) != 0) {
        printf("numaprobe health: %s\n", err);
        return NPRB_ERR_USAGE;
    }
    struct nprb_fleet fleet;
    if (nprb_fleet_init(&fleet, argc, argv) != 0) {
        printf("numaprobe health: MPI initialisation failed\n");
        return NPRB_ERR_SYSTEM;
    }
    enum nprb_status status = NPRB_ERR_USAGE;
    if (fleet.size != 1) {
        if (fleet.rank == 0)
            printf("numaprobe health: checks the node it runs on as one process: run it "
                   "without mpirun or srun (%d processes here)\n",
                   fleet.size);
    } else {
        /* The run's own report goes to stderr with -v, else nowhere: stdout is the findings'. */
        fflush(stdout);
        int saved = dup(STDOUT_FILENO);
        int sink = a->verbose ? dup(STDERR_FILENO) : open("/dev/null", O_WRONLY);
        if (saved >= 0 && sink >= 0)
            dup2(sink, STDOUT_FILENO);
        struct nprb_log log = {
            .stream = stderr, .level = a->verbose ? NPRB_LOG_INFO : NPRB_LOG_WARN, .rank = -1};
        status = nprb_run(&cli, "numaprobe health", &fleet, &log);
        fflush(stdout);
        if (saved >= 0) {
            dup2(saved, STDOUT_FILENO);
            close(saved);
        }
        if (sink >= 0)
            close(sink);
    }
    nprb_fleet_finalize(&fleet);
    return status;
}

/* Runs `REPORT health --references REF FILE` and maps its status: 0 and 1 as they are, anything
 * else (a crash, a missing Python module) is a verdict not reached. */
static int judge(const char *report, const char *references, const char *file)
{
    char *const args[] = {(char *)report,     "health",     "--references",
                          (char *)references, (char *)file, NULL};
    fflush(stdout);
    pid_t pid;
    int rc = posix_spawn(&pid, report, NULL, NULL, args, environ);
    if (rc != 0) {
        printf("numaprobe: not judged: cannot run %s: %s\n", report, strerror(rc));
        return NPRB_HEALTH_NOT_JUDGED;
    }
    int wstatus;
    while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
        ;
    int code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
    if (code == NPRB_HEALTH_OK || code == NPRB_HEALTH_FAILED)
        return code;
    if (code != NPRB_HEALTH_NOT_JUDGED)
        printf("numaprobe: not judged: %s ended with %s %d\n", report,
               WIFEXITED(wstatus) ? "exit" : "signal",
               WIFEXITED(wstatus) ? code : WTERMSIG(wstatus));
    return NPRB_HEALTH_NOT_JUDGED;
}

int nprb_health_main(int argc, char **argv)
{
    struct health_args a;
    char err[512];
    if (parse(&a, argc, argv, err, sizeof err) != 0) {
        fprintf(stderr, "numaprobe health: %s\n%s", err, health_usage);
        printf("numaprobe: not judged: %s\n", err);
        return NPRB_HEALTH_NOT_JUDGED;
    }
    if (a.help) {
        fputs(health_usage, stdout);
        nprb_options_print(stdout, health_options, N_HEALTH_OPTIONS);
        return NPRB_HEALTH_OK;
    }
    char refs_buf[PATH_MAX], report_buf[PATH_MAX], config_buf[PATH_MAX], budget[32];
    const char *refs = find_references(a.references, refs_buf, sizeof refs_buf, err, sizeof err);
    const char *report = find_report(report_buf, sizeof report_buf);
    if (refs == NULL ||
        measure_budget(a.time_budget, budget, sizeof budget, err, sizeof err) != 0) {
        printf("numaprobe: not judged: %s\n", err);
        return NPRB_HEALTH_NOT_JUDGED;
    }
    if (report == NULL) {
        printf("numaprobe: not judged: no numaprobe-report to judge with (set NUMAPROBE_REPORT, "
               "or install numaprobe with its analysis)\n");
        return NPRB_HEALTH_NOT_JUDGED;
    }
    char dir[PATH_MAX] = "", file[PATH_MAX];
    const char *out = a.output;
    if (out == NULL) {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/numaprobe-health.XXXXXX",
                 tmp != NULL && tmp[0] == '/' ? tmp : "/tmp");
        if (mkdtemp(dir) == NULL) {
            printf("numaprobe: not judged: cannot make a directory for the results (%s): %s\n", dir,
                   strerror(errno));
            return NPRB_HEALTH_NOT_JUDGED;
        }
        snprintf(file, sizeof file, "%s/health.h5", dir);
        out = file;
    }
    const char *config = nprb_config_find(a.config, config_buf, sizeof config_buf);
    enum nprb_status status = measure(&a, config, budget, out, &argc, &argv);
    int verdict;
    if (status == NPRB_OK) {
        verdict = judge(report, refs, out);
    } else if (status == NPRB_ERR_VALIDATION) {
        /* A kernel that read back other data than it wrote is memory that does not hold. */
        printf("numaprobe: failed: a kernel read back wrong data (memory errors?)\n");
        verdict = NPRB_HEALTH_FAILED;
    } else {
        printf("numaprobe: not judged: the measurement ended %s (numaprobe health -v says "
               "why)\n",
               nprb_status_name(status));
        verdict = NPRB_HEALTH_NOT_JUDGED;
    }
    if (dir[0] != '\0') {
        unlink(file);
        rmdir(dir);
    }
    return verdict;
}
