/* SPDX-License-Identifier: BSD-3-Clause */
/* The job's verdict as JSON (summary.h): each host's headline figures, taken from its rows as
 * the stdout report takes them, and the job's statuses, written with jansson. */
#include "report/summary.h"

#include "report/figure.h"
#include "results/contract.h"
#include "results/output.h"
#include "util/sibling.h"
#include "util/timer.h"
#include "util/utf8.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Values gathered over a host's ranks, of which the summary gives the median, with the largest
 * of their uncertainties (the analysis takes a median's uncertainty the same way). */
struct values {
    double *v;
    size_t n, cap;
    double uncertainty_pct; /* NaN: none known */
};

/* One host: its ranks' identity and problems as JSON, its figures as the values they come from
 * (a host with a rank per NUMA node has its local cells spread over its ranks). */
struct host_entry {
    char hostname[NPRB_HOST_LEN]; /* as the rows hold it: the JSON's may be escaped */
    int ranks_left;               /* of its ranks_on_host, those not gathered yet */
    bool failed;                  /* a rank's status was not ok: the host takes the first */
    json_t *obj;                  /* host, node_type, fingerprint, status, ranks, problems */
    struct values lat;            /* local latency cells of bound memory, ns */
    struct values read;           /* local read cells of bound memory, GB/s */
    struct values triad;          /* local triad cells of bound memory, GB/s */
    double worst_remote;          /* the slowest remote latency cell, ns; NAN for none */
    double worst_remote_u;        /* its uncertainty, percent */
};

/* A fleet's summary does not stay in memory: a host whose ranks have all been gathered is
 * written out as its JSON text to a temporary file (unlinked: nothing is left behind), and the
 * summary copies that file. Memory holds the hosts with ranks still to come: one or two when a
 * host's ranks are consecutive, as launchers place them by default. */
struct nprb_summary {
    struct host_entry *hosts; /* [first, count): still open, in the order their first rank was
                                 gathered */
    size_t first, count, cap;
    FILE *done;        /* the finished hosts' JSON, in that order */
    size_t done_count; /* hosts in it */
    int done_errno;    /* why a host could not be written there; 0: none */
};

int nprb_summary_check_path(const char *path, const char *output, bool force, char *err,
                            size_t errlen)
{
    char why[PATH_MAX + 128];
    /* By what the paths name, not how they are spelled: the job would replace or remove it. */
    if (output != NULL && nprb_output_owns(output, path, why, sizeof why)) {
        snprintf(err, errlen, "cannot write the summary to %s: %s", path, why);
        return -1;
    }
    /* The other way round: the summary's lock or temporary as the results file would be
     * replaced by the summary, or removed with its lock at the end. */
    if (output != NULL && nprb_output_owns(path, output, why, sizeof why)) {
        snprintf(err, errlen,
                 "cannot write the summary to %s: the results file %s is a name the summary "
                 "uses beside it (its lock or a temporary name)",
                 path, output);
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

int nprb_summary_lock(struct nprb_output_lock *lock, const char *path, bool force, char *warning,
                      size_t warnlen, char *err, size_t errlen)
{
    char why[2 * PATH_MAX + 256];
    if (nprb_output_lock(lock, path, warning, warnlen, why, sizeof why) == 0)
        return 0;
    bool busy = errno == EBUSY;
    /* The lock's words are said of a results file: said here of the summary. */
    size_t head = strlen("cannot write results to ") + strlen(path) + 2;
    const char *reason = strlen(why) > head ? why + head : why;
    if (force && busy) {
        snprintf(warning, warnlen,
                 "the summary %s: its lock %s is held by another job; --force given, so this "
                 "job writes it too and the later summary replaces the other",
                 path, lock->path);
        return 0;
    }
    snprintf(err, errlen, "cannot write the summary to %s: %s%s", path, reason,
             busy ? " (or give --force to let both write it, the later replacing the other)" : "");
    return -1;
}

void nprb_summary_print_version(FILE *out)
{
    fprintf(out, "jansson:  %s (built with %s)\n", jansson_version_str(), JANSSON_VERSION);
}

/* The finished hosts' file: in @p path's directory, where the summary's own temporary goes too
 * (checked writable before the job), or for stdout in TMPDIR or /tmp; made unlinked
 * (O_TMPFILE), or unlinked as soon as it is made where the file system has no O_TMPFILE. */
static FILE *done_file(const char *path)
{
    char dir[PATH_MAX], name[PATH_MAX + 32];
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s", path != NULL ? path : tmp != NULL && tmp[0] ? tmp : "/tmp");
    const char *d = path != NULL ? dirname(dir) : dir;
    int fd = open(d, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0) {
        snprintf(name, sizeof name, "%s/.numaprobe-summary-XXXXXX", d);
        fd = mkostemp(name, O_CLOEXEC);
        if (fd >= 0)
            unlink(name);
    }
    FILE *f = fd >= 0 ? fdopen(fd, "w+") : NULL;
    if (f == NULL && fd >= 0)
        close(fd);
    return f;
}

struct nprb_summary *nprb_summary_create(const char *path)
{
    struct nprb_summary *s = calloc(1, sizeof(struct nprb_summary));
    if (s != NULL && (s->done = done_file(path)) == NULL) {
        free(s);
        return NULL;
    }
    return s;
}

static void free_entry(struct host_entry *e)
{
    json_decref(e->obj);
    free(e->lat.v);
    free(e->read.v);
    free(e->triad.v);
}

void nprb_summary_destroy(struct nprb_summary *s)
{
    if (s == NULL)
        return;
    for (size_t i = s->first; i < s->count; i++)
        free_entry(&s->hosts[i]);
    free(s->hosts);
    if (s->done != NULL)
        fclose(s->done);
    free(s);
}

static int push(struct values *vs, double value, double uncertainty_pct)
{
    vs->uncertainty_pct = fmax(vs->uncertainty_pct, uncertainty_pct);
    if (vs->n == vs->cap) {
        size_t cap = vs->cap ? 2 * vs->cap : 16;
        double *v = realloc(vs->v, cap * sizeof *v);
        if (v == NULL)
            return -1;
        vs->v = v;
        vs->cap = cap;
    }
    vs->v[vs->n++] = value;
    return 0;
}

/* A figure, or null when the host has none (not measured, or no valid cell). */
static json_t *figure(double value)
{
    return isfinite(value) ? json_real(value) : json_null();
}

/* Text of the system's (a host name, a path, an error) as a JSON string: jansson refuses text
 * that is not UTF-8, which would drop the key, so such bytes are escaped as utf8.h says. */
static json_t *text(const char *value)
{
    if (nprb_utf8_valid(value))
        return json_string(value);
    char *escaped = nprb_utf8_escaped(value);
    json_t *j = escaped != NULL ? json_string(escaped) : NULL;
    free(escaped);
    return j;
}

/* text() of a formatted line. */
__attribute__((format(printf, 1, 2))) static json_t *textf(const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(NULL, 0, format, ap);
    va_end(ap);
    char *line = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (line == NULL)
        return NULL;
    va_start(ap, format);
    vsnprintf(line, (size_t)n + 1, format, ap);
    va_end(ap);
    json_t *j = text(line);
    free(line);
    return j;
}

/* The local cells of bound memory of the bandwidth matrix, for @p kernel, into @p out. */
static int local_bandwidth(const struct nprb_rows *bw, enum nprb_kernel_id kernel,
                           struct values *out)
{
    for (size_t i = 0; i < bw->count; i++) {
        const struct nprb_bandwidth_row *b = nprb_row_at(bw, i);
        if (nprb_bandwidth_headline(b) && b->kernel_id == kernel &&
            b->pair_class_id == NPRB_PAIR_LOCAL &&
            push(out, b->gbs_best, nprb_bandwidth_uncertainty_pct(b)) != 0)
            return -1;
    }
    return 0;
}

/* The latency matrix's cells of bound memory: the local ones into @p local, the slowest remote
 * one into @p worst_remote, its uncertainty into @p worst_u. */
static int latency_cells(const struct nprb_rows *lat, struct values *local, double *worst_remote,
                         double *worst_u)
{
    for (size_t i = 0; i < lat->count; i++) {
        const struct nprb_latency_row *l = nprb_row_at(lat, i);
        if (!nprb_latency_headline(l))
            continue;
        if (l->pair_class_id == NPRB_PAIR_LOCAL) {
            if (push(local, l->latency_ns_median, nprb_latency_uncertainty_pct(l)) != 0)
                return -1;
        } else if (!(*worst_remote >= l->latency_ns_median)) {
            *worst_remote = l->latency_ns_median;
            *worst_u = nprb_latency_uncertainty_pct(l);
        }
    }
    return 0;
}

/* Rows whose status says something went wrong (not applicable is no problem: it says why). */
static size_t count_bad(const struct nprb_results *rows, const char *status)
{
    size_t bad = 0;
    const struct nprb_rows *lat = &rows->tables[NPRB_TABLE_LATENCY];
    const struct nprb_rows *bw = &rows->tables[NPRB_TABLE_BANDWIDTH];
    for (size_t i = 0; i < lat->count; i++)
        bad += strcmp(((const struct nprb_latency_row *)nprb_row_at(lat, i))->status, status) == 0;
    for (size_t i = 0; i < bw->count; i++)
        bad += strcmp(((const struct nprb_bandwidth_row *)nprb_row_at(bw, i))->status, status) == 0;
    return bad;
}

/* The open entry of @p host's host, made on its first rank. Ranks of a host are usually
 * gathered one after another, so the search starts from the last entry. */
static struct host_entry *entry_of(struct nprb_summary *s, const struct nprb_host_row *host)
{
    for (size_t i = s->count; i-- > s->first;)
        if (strcmp(s->hosts[i].hostname, host->hostname) == 0)
            return &s->hosts[i];
    if (s->first > 0 && s->first >= s->count / 2) { /* the finished ones' room, used again */
        memmove(s->hosts, s->hosts + s->first, (s->count - s->first) * sizeof *s->hosts);
        s->count -= s->first;
        s->first = 0;
    }
    if (s->count == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        struct host_entry *hosts = realloc(s->hosts, cap * sizeof *hosts);
        if (hosts == NULL)
            return NULL;
        s->hosts = hosts;
        s->cap = cap;
    }
    json_t *o = json_object();
    if (o == NULL)
        return NULL;
    json_object_set_new(o, "host", text(host->hostname));
    json_object_set_new(o, "node_type", text(host->node_type));
    json_object_set_new(o, "fingerprint", text(host->fingerprint));
    json_object_set_new(o, "status", text(host->status));
    json_object_set_new(o, "ranks", json_array());
    json_object_set_new(o, "problems", json_array());
    struct host_entry *e = &s->hosts[s->count++];
    *e = (struct host_entry){.ranks_left = host->ranks_on_host > 0 ? host->ranks_on_host : 1,
                             .failed = strcmp(host->status, NPRB_ROW_OK) != 0,
                             .obj = o,
                             .lat.uncertainty_pct = NAN,
                             .read.uncertainty_pct = NAN,
                             .triad.uncertainty_pct = NAN,
                             .worst_remote = NAN,
                             .worst_remote_u = NAN};
    snprintf(e->hostname, sizeof e->hostname, "%s", host->hostname);
    return e;
}

/* Adds one rank's /hosts row to its host's entry: the rank, a status that is not ok (the host's
 * first), and its problems, each naming the rank. */
static struct host_entry *add_rank_row(struct nprb_summary *s, const struct nprb_host_row *host)
{
    struct host_entry *e = entry_of(s, host);
    if (e == NULL)
        return NULL;
    json_array_append_new(json_object_get(e->obj, "ranks"), json_integer(host->rank));
    json_t *problems = json_object_get(e->obj, "problems");
    if (strcmp(host->status, NPRB_ROW_OK) != 0) {
        if (!e->failed)
            json_object_set_new(e->obj, "status", text(host->status));
        e->failed = true;
        json_array_append_new(problems,
                              textf("rank %" PRId64 ": status %s%s%s", (int64_t)host->rank,
                                    host->status, host->error[0] ? ": " : "", host->error));
    } else if (host->error[0]) {
        json_array_append_new(problems,
                              textf("rank %" PRId64 ": %s", (int64_t)host->rank, host->error));
    }
    if (host->binding_verdict != NPRB_BINDING_OK && host->binding_check[0])
        json_array_append_new(problems, textf("rank %" PRId64 ": binding: %s", (int64_t)host->rank,
                                              host->binding_check));
    return e;
}

static void write_finished(struct nprb_summary *s, bool all);

/* One more of @p e's ranks is in: a host whose last it was is written out. */
static void rank_done(struct nprb_summary *s, struct host_entry *e)
{
    e->ranks_left--;
    write_finished(s, false);
}

int nprb_summary_add_host(struct nprb_summary *s, const struct nprb_host_row *host)
{
    struct host_entry *e = add_rank_row(s, host);
    if (e == NULL)
        return -1;
    rank_done(s, e);
    return 0;
}

int nprb_summary_add_rank(struct nprb_summary *s, const struct nprb_results *rows)
{
    const struct nprb_rows *hosts = &rows->tables[NPRB_TABLE_HOSTS];
    if (hosts->count == 0)
        return 0;
    const struct nprb_host_row *host = nprb_row_at(hosts, 0);
    struct host_entry *e = add_rank_row(s, host);
    if (e == NULL ||
        latency_cells(&rows->tables[NPRB_TABLE_LATENCY], &e->lat, &e->worst_remote,
                      &e->worst_remote_u) ||
        local_bandwidth(&rows->tables[NPRB_TABLE_BANDWIDTH], NPRB_KERNEL_READ, &e->read) != 0 ||
        local_bandwidth(&rows->tables[NPRB_TABLE_BANDWIDTH], NPRB_KERNEL_TRIAD, &e->triad) != 0)
        return -1;
    json_t *problems = json_object_get(e->obj, "problems");
    size_t invalid = count_bad(rows, NPRB_ROW_INVALID), failed = count_bad(rows, NPRB_ROW_FAILED);
    if (invalid > 0)
        json_array_append_new(problems,
                              textf("rank %" PRId64
                                    ": %zu measurement(s) invalid (validation or placement)",
                                    (int64_t)host->rank, invalid));
    if (failed > 0)
        json_array_append_new(problems, textf("rank %" PRId64 ": %zu measurement(s) failed",
                                              (int64_t)host->rank, failed));
    rank_done(s, e);
    return 0;
}

/* Sets figure @p name of @p o, and its uncertainty and noisy mark under the same name in the
 * host's "uncertainty_pct" and "noisy" objects (null and false where the figure is none). */
static void set_figure(json_t *o, const char *name, double value, double uncertainty_pct)
{
    bool known = isfinite(value);
    json_object_set_new(o, name, figure(value));
    json_object_set_new(json_object_get(o, "uncertainty_pct"), name,
                        figure(known ? uncertainty_pct : NAN));
    json_object_set_new(json_object_get(o, "noisy"), name,
                        json_boolean(known && nprb_is_noisy(uncertainty_pct)));
}

/* The host's figures, from the values of all its ranks: medians, and the worst remote cell over
 * the local median (1.0 or more; null on a host with one node), each with its uncertainty: a
 * median's is the largest of its cells', a ratio's the sum of its two figures' (relative
 * uncertainties of a quotient add, to first order). */
static json_t *host_json(struct host_entry *e)
{
    json_t *o = json_deep_copy(e->obj);
    json_object_set_new(o, "uncertainty_pct", json_object());
    json_object_set_new(o, "noisy", json_object());
    double local_ns = nprb_median(e->lat.v, e->lat.n);
    set_figure(o, "local_latency_ns", local_ns, e->lat.uncertainty_pct);
    set_figure(o, "local_read_gbs", nprb_median(e->read.v, e->read.n), e->read.uncertainty_pct);
    set_figure(o, "local_triad_gbs", nprb_median(e->triad.v, e->triad.n), e->triad.uncertainty_pct);
    set_figure(o, "worst_remote_latency_ratio", local_ns > 0 ? e->worst_remote / local_ns : NAN,
               e->worst_remote_u + e->lat.uncertainty_pct);
    return o;
}

/* Every JSON text of the summary is jansson's, with these flags. */
#define DUMP_FLAGS (JSON_INDENT(2) | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(6))

/* jansson's text of a value nested in the document: each line after its first indented by
 * @p pad, as the value would be printed in place. */
struct indented {
    FILE *out;
    const char *pad;
};

static int put_indented(const char *buffer, size_t size, void *arg)
{
    const struct indented *in = arg;
    while (size > 0) {
        const char *nl = memchr(buffer, '\n', size);
        size_t n = nl != NULL ? (size_t)(nl - buffer) + 1 : size;
        if (fwrite(buffer, 1, n, in->out) != n || (nl != NULL && fputs(in->pad, in->out) == EOF))
            return -1;
        buffer += n;
        size -= n;
    }
    return 0;
}

/* Writes the open hosts out from the first while each has all its ranks (every open host with
 * @p all), in the order their first ranks came. A host that cannot be written is remembered as
 * the summary's failure (nprb_summary_write() says it), and the job goes on. */
static void write_finished(struct nprb_summary *s, bool all)
{
    while (s->first < s->count && (all || s->hosts[s->first].ranks_left <= 0)) {
        struct host_entry *e = &s->hosts[s->first++];
        json_t *o = s->done_errno == 0 ? host_json(e) : NULL;
        struct indented in = {s->done, "    "};
        errno = 0;
        if (o != NULL && fputs(s->done_count > 0 ? ",\n    " : "\n    ", s->done) != EOF &&
            json_dump_callback(o, put_indented, &in, DUMP_FLAGS) == 0)
            s->done_count++;
        else if (s->done_errno == 0)
            s->done_errno = errno != 0 ? errno : ENOMEM;
        json_decref(o);
        free_entry(e);
    }
    if (s->first == s->count)
        s->first = s->count = 0;
}

/* The document for nprb_output_replace(): the job's keys, then the hosts as written out. */
struct document {
    json_t *root;
    struct nprb_summary *s;
};

static int copy_hosts(FILE *out, FILE *done)
{
    char buf[65536];
    size_t n;
    if (fflush(done) != 0 || fseeko(done, 0, SEEK_SET) != 0)
        return -1;
    while ((n = fread(buf, 1, sizeof buf, done)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            return -1;
    return ferror(done) || fseeko(done, 0, SEEK_END) != 0 ? -1 : 0;
}

/* The summary as jansson would print the root object with "hosts" last, the hosts copied in. */
static int dump_document(FILE *out, void *arg)
{
    const struct document *d = arg;
    const char *key;
    json_t *value;
    struct indented in = {out, "  "};
    const char *sep = "{\n  ";
    json_object_foreach(d->root, key, value)
    {
        if (fprintf(out, "%s\"%s\": ", sep, key) < 0 ||
            json_dump_callback(value, put_indented, &in, DUMP_FLAGS | JSON_ENCODE_ANY) != 0)
            return -1;
        sep = ",\n  ";
    }
    if (fprintf(out, "%s\"hosts\": [", sep) < 0 || copy_hosts(out, d->s->done) != 0)
        return -1;
    return fputs(d->s->done_count > 0 ? "\n  ]\n}\n" : "]\n}\n", out) == EOF ? -1 : 0;
}

int nprb_summary_write(struct nprb_summary *s, const struct nprb_summary_job *job, const char *path,
                       char *err, size_t errlen)
{
    write_finished(s, true);
    if (s->done_errno != 0) {
        snprintf(err, errlen, "cannot write the summary to %s: %s (its hosts' temporary file)",
                 path != NULL ? path : "stdout", strerror(s->done_errno));
        return -1;
    }
    json_t *root = json_object();
    json_object_set_new(root, "summary_version", json_string(NPRB_SUMMARY_VERSION));
    json_object_set_new(root, "software_version", text(job->software_version));
    json_object_set_new(root, "run_id", text(job->run_id));
    json_object_set_new(root, "config_fingerprint", text(job->config_fingerprint));
    json_object_set_new(root, "start_utc", text(job->start_utc));
    json_object_set_new(root, "end_utc", text(job->end_utc));
    json_object_set_new(root, "results_file", text(job->results_file));
    json_object_set_new(root, "results_written", json_boolean(job->results_written));
    json_object_set_new(root, "status", text(job->status));
    json_object_set_new(root, "exit_code", json_integer(job->exit_code));
    json_object_set_new(root, "ranks", json_integer(job->ranks));
    json_object_set_new(root, "host_count", json_integer(job->hosts));
    json_object_set_new(root, "hosts_failed", json_integer(job->hosts_failed));

    struct document d = {root, s};
    if (path == NULL) {
        errno = 0;
        int rc = dump_document(stdout, &d) == 0 && fflush(stdout) == 0 ? 0 : -1;
        json_decref(root);
        if (rc != 0)
            snprintf(err, errlen, "cannot write the summary to stdout: %s",
                     strerror(errno != 0 ? errno : EIO));
        return rc;
    }
    /* As the results file: complete under its final name or not there at all. */
    int rc = nprb_output_replace(path, dump_document, &d, 0);
    int e = errno;
    json_decref(root);
    if (rc != 0) {
        snprintf(err, errlen, "cannot write the summary to %s: %s", path, strerror(e));
        return -1;
    }
    return 0;
}
