/* SPDX-License-Identifier: BSD-3-Clause */
/* The job's verdict as JSON (summary.h): each host's headline figures, taken from its rows as
 * the stdout report takes them, and the job's statuses, written with jansson. */
#include "results/summary.h"

#include "results/output.h"

#include <errno.h>
#include <jansson.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct nprb_summary {
    json_t *hosts; /* array of host objects, in the order the gather gave them */
};

int nprb_summary_check_path(const char *path, const char *output, bool force, char *err,
                            size_t errlen)
{
    char why[PATH_MAX + 128];
    if (output != NULL && strcmp(path, output) == 0) {
        snprintf(err, errlen, "cannot write the summary to %s: it is the results file (-o)", path);
        return -1;
    }
    if (nprb_output_check(path, force, why, sizeof why) != 0) {
        /* The results file's rules, said of the summary. */
        const char *colon = strstr(why, ": ");
        snprintf(err, errlen, "cannot write the summary to %s: %s", path,
                 colon != NULL ? colon + 2 : why);
        return -1;
    }
    char copy[PATH_MAX];
    snprintf(copy, sizeof copy, "%s", path);
    const char *dir = dirname(copy);
    if (access(dir, W_OK | X_OK) != 0) {
        snprintf(err, errlen, "cannot write the summary to %s: directory %s: %s", path, dir,
                 strerror(errno));
        return -1;
    }
    return 0;
}

struct nprb_summary *nprb_summary_create(void)
{
    struct nprb_summary *s = calloc(1, sizeof *s);
    if (s != NULL && (s->hosts = json_array()) == NULL) {
        free(s);
        s = NULL;
    }
    return s;
}

void nprb_summary_destroy(struct nprb_summary *s)
{
    if (s == NULL)
        return;
    json_decref(s->hosts);
    free(s);
}

static const void *row_at(const struct nprb_rows *rows, size_t i)
{
    return rows->data + i * rows->row_bytes;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of @p n values (sorted in place); NAN for none. */
static double median(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A figure, or null when the host has none (not measured, or no valid cell). */
static json_t *figure(double value)
{
    return isfinite(value) ? json_real(value) : json_null();
}

/* The median over local cells of bound memory of the bandwidth matrix, for @p kernel. */
static double local_bandwidth(const struct nprb_rows *bw, const char *kernel, double *v)
{
    size_t n = 0;
    for (size_t i = 0; i < bw->count; i++) {
        const struct nprb_bandwidth_row *b = row_at(bw, i);
        if (strcmp(b->experiment, "bandwidth_matrix") == 0 && strcmp(b->kernel, kernel) == 0 &&
            strcmp(b->mem_policy, "bind") == 0 && strcmp(b->pair_class, "local") == 0 &&
            strcmp(b->status, NPRB_ROW_OK) == 0)
            v[n++] = b->gbs_best;
    }
    return median(v, n);
}

/* Rows whose status says something went wrong (not applicable is no problem: it says why). */
static size_t count_bad(const struct nprb_results *rows, const char *status)
{
    size_t bad = 0;
    const struct nprb_rows *lat = &rows->tables[NPRB_TABLE_LATENCY];
    const struct nprb_rows *bw = &rows->tables[NPRB_TABLE_BANDWIDTH];
    for (size_t i = 0; i < lat->count; i++)
        bad += strcmp(((const struct nprb_latency_row *)row_at(lat, i))->status, status) == 0;
    for (size_t i = 0; i < bw->count; i++)
        bad += strcmp(((const struct nprb_bandwidth_row *)row_at(bw, i))->status, status) == 0;
    return bad;
}

static json_t *host_object(const struct nprb_host_row *host, json_t *problems)
{
    json_t *o = json_object();
    json_object_set_new(o, "rank", json_integer(host->rank));
    json_object_set_new(o, "host", json_string(host->hostname));
    json_object_set_new(o, "node_type", json_string(host->node_type));
    json_object_set_new(o, "fingerprint", json_string(host->fingerprint));
    json_object_set_new(o, "status", json_string(host->status));
    if (strcmp(host->status, "ok") != 0)
        json_array_append_new(problems, json_sprintf("status %s%s%s", host->status,
                                                     host->error[0] ? ": " : "", host->error));
    else if (host->error[0])
        json_array_append_new(problems, json_string(host->error));
    if (strncmp(host->binding_check, "ok", 2) != 0 && host->binding_check[0])
        json_array_append_new(problems, json_sprintf("binding: %s", host->binding_check));
    return o;
}

int nprb_summary_add_host(struct nprb_summary *s, const struct nprb_host_row *host)
{
    json_t *problems = json_array();
    json_t *o = host_object(host, problems);
    json_object_set_new(o, "local_latency_ns", json_null());
    json_object_set_new(o, "local_read_gbs", json_null());
    json_object_set_new(o, "local_triad_gbs", json_null());
    json_object_set_new(o, "worst_remote_latency_ratio", json_null());
    json_object_set_new(o, "problems", problems);
    return json_array_append_new(s->hosts, o);
}

int nprb_summary_add_rank(struct nprb_summary *s, const struct nprb_results *rows)
{
    const struct nprb_rows *hosts = &rows->tables[NPRB_TABLE_HOSTS];
    const struct nprb_rows *lat = &rows->tables[NPRB_TABLE_LATENCY];
    const struct nprb_rows *bw = &rows->tables[NPRB_TABLE_BANDWIDTH];
    if (hosts->count == 0)
        return 0;
    size_t most = lat->count > bw->count ? lat->count : bw->count;
    double *v = malloc((most + 1) * sizeof *v);
    if (v == NULL)
        return -1;
    /* Local latency: the median over the latency matrix's local cells of bound memory, as the
     * report's one-line form gives it. The worst remote ratio: the slowest remote cell of bound
     * memory against that median (1.0 or more; null on a host with one node). */
    size_t n = 0;
    double worst_remote = NAN;
    for (size_t i = 0; i < lat->count; i++) {
        const struct nprb_latency_row *l = row_at(lat, i);
        if (strcmp(l->experiment, "latency_matrix") != 0 || strcmp(l->mem_policy, "bind") != 0 ||
            strcmp(l->status, NPRB_ROW_OK) != 0)
            continue;
        if (strcmp(l->pair_class, "local") == 0)
            v[n++] = l->latency_ns_median;
        else if (!(worst_remote >= l->latency_ns_median))
            worst_remote = l->latency_ns_median;
    }
    double local_ns = median(v, n);
    json_t *problems = json_array();
    json_t *o = host_object(row_at(hosts, 0), problems);
    json_object_set_new(o, "local_latency_ns", figure(local_ns));
    json_object_set_new(o, "local_read_gbs", figure(local_bandwidth(bw, "read", v)));
    json_object_set_new(o, "local_triad_gbs", figure(local_bandwidth(bw, "triad", v)));
    json_object_set_new(o, "worst_remote_latency_ratio",
                        figure(local_ns > 0 ? worst_remote / local_ns : NAN));
    free(v);
    size_t invalid = count_bad(rows, NPRB_ROW_INVALID), failed = count_bad(rows, NPRB_ROW_FAILED);
    if (invalid > 0)
        json_array_append_new(
            problems,
            json_sprintf("%zu measurement(s) invalid (validation or placement)", invalid));
    if (failed > 0)
        json_array_append_new(problems, json_sprintf("%zu measurement(s) failed", failed));
    json_object_set_new(o, "problems", problems);
    return json_array_append_new(s->hosts, o);
}

int nprb_summary_write(const struct nprb_summary *s, const struct nprb_summary_job *job,
                       const char *path, char *err, size_t errlen)
{
    json_t *root = json_object();
    json_object_set_new(root, "summary_version", json_string(NPRB_SUMMARY_VERSION));
    json_object_set_new(root, "software_version", json_string(job->software_version));
    json_object_set_new(root, "run_id", json_string(job->run_id));
    json_object_set_new(root, "config_fingerprint", json_string(job->config_fingerprint));
    json_object_set_new(root, "start_utc", json_string(job->start_utc));
    json_object_set_new(root, "end_utc", json_string(job->end_utc));
    json_object_set_new(root, "results_file", json_string(job->results_file));
    json_object_set_new(root, "results_written", json_boolean(job->results_written));
    json_object_set_new(root, "status", json_string(job->status));
    json_object_set_new(root, "exit_code", json_integer(job->exit_code));
    json_object_set_new(root, "ranks", json_integer(job->ranks));
    json_object_set_new(root, "host_count", json_integer(job->hosts));
    json_object_set_new(root, "hosts_failed", json_integer(job->hosts_failed));
    json_object_set(root, "hosts", s->hosts);

    char tmp[PATH_MAX + 32];
    snprintf(tmp, sizeof tmp, "%s.tmp-%ld", path, (long)getpid());
    /* As the results file: complete under its final name or not there at all. */
    FILE *f = fopen(tmp, "w");
    int rc = f != NULL &&
                     json_dumpf(root, f,
                                JSON_INDENT(2) | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(6)) == 0 &&
                     fputc('\n', f) != EOF && fflush(f) == 0 && fsync(fileno(f)) == 0
                 ? 0
                 : -1;
    if (f != NULL && fclose(f) != 0)
        rc = -1;
    json_decref(root);
    if (rc != 0 || rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot write the summary to %s: %s", path,
                 strerror(errno != 0 ? errno : EIO));
        unlink(tmp);
        return -1;
    }
    return 0;
}
