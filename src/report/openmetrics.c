/* SPDX-License-Identifier: BSD-3-Clause */
/* A host's own OpenMetrics file (openmetrics.h), in the text format the analysis's writer uses
 * (numaprobe_analysis/openmetrics.py): the families of results/contract.h, each with # HELP,
 * # TYPE and, where its name ends in a unit, # UNIT, its samples sorted, no timestamps (the
 * textfile collector refuses them), and one # EOF last. */
#include "report/openmetrics.h"

#include "report/figure.h"
#include "results/contract.h"
#include "results/output.h"
#include "util/fault.h"
#include "util/sibling.h"
#include "util/timer.h"
#include "util/utf8.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

size_t nprb_om_cells(const struct nprb_results *rows, struct nprb_om_cell *out, size_t max)
{
    const struct nprb_rows *lat = &rows->tables[NPRB_TABLE_LATENCY];
    const struct nprb_rows *bw = &rows->tables[NPRB_TABLE_BANDWIDTH];
    size_t n = 0;
    for (size_t i = 0; i < lat->count; i++) {
        const struct nprb_latency_row *l = nprb_row_at(lat, i);
        if (!nprb_latency_headline(l) || !isfinite(l->latency_ns_median))
            continue;
        if (n < max) {
            out[n] = (struct nprb_om_cell){.cpu_node = l->cpu_node,
                                           .mem_node = l->mem_node,
                                           .value = l->latency_ns_median,
                                           .uncertainty_pct = nprb_latency_uncertainty_pct(l)};
            NPRB_SET_TEXT(out[n].what, l->pattern);
        }
        n++;
    }
    for (size_t i = 0; i < bw->count; i++) {
        const struct nprb_bandwidth_row *b = nprb_row_at(bw, i);
        if (!nprb_bandwidth_headline(b) || !isfinite(b->gbs_best))
            continue;
        if (n < max) {
            out[n] = (struct nprb_om_cell){.bandwidth = 1,
                                           .cpu_node = b->cpu_node,
                                           .mem_node = b->mem_node,
                                           .value = b->gbs_best,
                                           .uncertainty_pct = nprb_bandwidth_uncertainty_pct(b)};
            NPRB_SET_TEXT(out[n].what, b->kernel);
        }
        n++;
    }
    return n;
}

/* The sample lines of one family, sorted before they are printed. */
struct lines {
    char **v;
    size_t n, cap;
};

/* One sample line being written: `NAME{labels} VALUE`. */
struct line {
    FILE *m;
    char *text;
    size_t len;
    bool first; /* no label written yet */
};

/* A label value: backslash, double quote and newline escaped, as the format asks. */
static void label(struct line *l, const char *key, const char *value)
{
    fprintf(l->m, "%s%s=\"", l->first ? "" : ",", key);
    l->first = false;
    for (const char *c = value; *c != '\0'; c++) {
        if (*c == '\\' || *c == '"')
            fputc('\\', l->m);
        if (*c == '\n')
            fputs("\\n", l->m);
        else
            fputc(*c, l->m);
    }
    fputc('"', l->m);
}

static void label_int(struct line *l, const char *key, int value)
{
    char text[16];
    snprintf(text, sizeof text, "%d", value);
    label(l, key, text);
}

/* A sample of @p family, its labels host and node_type first (as the analysis writes them). */
static int line_open(struct line *l, enum nprb_metric_family_id family,
                     const struct nprb_om_host *h)
{
    *l = (struct line){.first = true};
    if ((l->m = open_memstream(&l->text, &l->len)) == NULL)
        return -1;
    fprintf(l->m, "%s{", nprb_metric_family(family)->name);
    label(l, "host", h->host);
    label(l, "node_type", h->node_type);
    return 0;
}

/* @p v as Python's repr writes it, so that this file and the analysis's say a figure alike: the
 * fewest digits that read back as @p v, in fixed notation for exponents -4 to 15 (a whole
 * number with ".0"), in scientific notation beyond. */
static void number(char *buf, size_t len, double v)
{
    if (!isfinite(v)) {
        snprintf(buf, len, "%s", isnan(v) ? "NaN" : v > 0 ? "+Inf" : "-Inf");
        return;
    }
    int digits = 1;
    for (; digits < 17; digits++) {
        snprintf(buf, len, "%.*e", digits - 1, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    snprintf(buf, len, "%.*e", digits - 1, v);
    int exponent = atoi(strchr(buf, 'e') + 1);
    if (exponent >= -4 && exponent < 16)
        snprintf(buf, len, "%.*f", digits - 1 - exponent > 1 ? digits - 1 - exponent : 1, v);
}

/* Ends @p l with its value and keeps it in @p out. @return 0, or -1 (errno). */
static int line_close(struct line *l, struct lines *out, const char *value)
{
    fprintf(l->m, "} %s", value);
    if (fclose(l->m) != 0 || l->text == NULL)
        return -1;
    if (out->n == out->cap) {
        size_t cap = out->cap ? 2 * out->cap : 16;
        char **v = realloc(out->v, cap * sizeof *v);
        if (v == NULL) {
            free(l->text);
            return -1;
        }
        out->v = v;
        out->cap = cap;
    }
    out->v[out->n++] = l->text;
    return 0;
}

static int line_value(struct line *l, struct lines *out, double v)
{
    char text[32];
    number(text, sizeof text, v);
    return line_close(l, out, text);
}

static int line_count(struct line *l, struct lines *out, long v)
{
    char text[24];
    snprintf(text, sizeof text, "%ld", v);
    return line_close(l, out, text);
}

static int by_cell(const void *a, const void *b)
{
    const struct nprb_om_cell *x = a, *y = b;
    if (x->bandwidth != y->bandwidth)
        return x->bandwidth - y->bandwidth;
    if (x->cpu_node != y->cpu_node)
        return x->cpu_node < y->cpu_node ? -1 : 1;
    if (x->mem_node != y->mem_node)
        return x->mem_node < y->mem_node ? -1 : 1;
    return strcmp(x->what, y->what);
}

static bool same_cell(const struct nprb_om_cell *x, const struct nprb_om_cell *y)
{
    return by_cell(x, y) == 0;
}

/* The judged metrics of the analysis (metrics.py: latency local and remote over every pattern,
 * bandwidth per kernel local and remote), each with the largest uncertainty of its cells: the
 * noise rule of a host's figure. */
struct metric {
    char key[48];
    double uncertainty_pct;
};

static void metric_add(struct metric *m, size_t *count, size_t max, const struct nprb_om_cell *c,
                       double uncertainty_pct)
{
    char key[48];
    const char *where = c->cpu_node == c->mem_node ? "local" : "remote";
    if (c->bandwidth)
        snprintf(key, sizeof key, "bw_%s_%s_gbs", c->what, where);
    else
        snprintf(key, sizeof key, "latency_%s_ns", where);
    for (size_t i = 0; i < *count; i++)
        if (strcmp(m[i].key, key) == 0) {
            m[i].uncertainty_pct = fmax(m[i].uncertainty_pct, uncertainty_pct);
            return;
        }
    if (*count < max) {
        NPRB_SET_TEXT(m[*count].key, key);
        m[(*count)++].uncertainty_pct = uncertainty_pct;
    }
}

/* The figures: one sample a cell, the median over the ranks that measured it, beside the
 * largest of their uncertainties as a ratio; and the judged metrics' noise. */
static int figures(struct lines *fam, const struct nprb_om_host *h, struct nprb_om_cell *cells,
                   size_t n, struct metric *metrics, size_t *n_metrics, size_t max_metrics)
{
    double *values = malloc((n > 0 ? n : 1) * sizeof *values);
    if (values == NULL)
        return -1;
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(cells[i].value))
            cells[kept++] = cells[i];
    n = kept;
    qsort(cells, n, sizeof *cells, by_cell);
    int rc = 0;
    for (size_t i = 0, j; rc == 0 && i < n; i = j) {
        double u = NAN;
        size_t k = 0;
        for (j = i; j < n && same_cell(&cells[i], &cells[j]); j++) {
            values[k++] = cells[j].value;
            u = fmax(u, cells[j].uncertainty_pct);
        }
        const struct nprb_om_cell *c = &cells[i];
        enum nprb_metric_family_id figure =
            c->bandwidth ? NPRB_METRIC_BANDWIDTH : NPRB_METRIC_LATENCY;
        enum nprb_metric_family_id spread =
            c->bandwidth ? NPRB_METRIC_BANDWIDTH_UNCERTAINTY : NPRB_METRIC_LATENCY_UNCERTAINTY;
        for (int pass = 0; rc == 0 && pass < (isfinite(u) ? 2 : 1); pass++) {
            struct line l;
            if (line_open(&l, pass ? spread : figure, h) != 0) {
                rc = -1;
                break;
            }
            label_int(&l, "cpu_node", c->cpu_node);
            label_int(&l, "mem_node", c->mem_node);
            label(&l, c->bandwidth ? "kernel" : "pattern", c->what);
            /* In base units after the median, as the analysis reckons it: the same bits. */
            double scale = c->bandwidth ? 1e9 : 1e-9;
            rc = line_value(&l, &fam[pass ? spread : figure],
                            pass ? u / 100 : nprb_median(values, k) * scale);
        }
        metric_add(metrics, n_metrics, max_metrics, c, u);
    }
    free(values);
    return rc;
}

/* The host's own samples: ok, its run's start, its identity, its noise and its settings. */
static int host_facts(struct lines *fam, const struct nprb_om_host *h, const struct metric *metrics,
                      size_t n_metrics)
{
    struct line l;
    long noisy = 0;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n_metrics; i++) {
        if (!nprb_is_noisy(metrics[i].uncertainty_pct))
            continue;
        noisy++;
        rc = line_open(&l, NPRB_METRIC_NOISY, h);
        if (rc == 0) {
            label(&l, "metric", metrics[i].key);
            rc = line_count(&l, &fam[NPRB_METRIC_NOISY], 1);
        }
    }
    if (rc == 0 && (rc = line_open(&l, NPRB_METRIC_HOST_NOISY_FIGURES, h)) == 0)
        rc = line_count(&l, &fam[NPRB_METRIC_HOST_NOISY_FIGURES], noisy);
    if (rc == 0 && (rc = line_open(&l, NPRB_METRIC_HOST_OK, h)) == 0)
        rc = line_count(&l, &fam[NPRB_METRIC_HOST_OK], h->ok);
    if (rc == 0 && isfinite(h->start_s) && (rc = line_open(&l, NPRB_METRIC_RUN_START, h)) == 0)
        rc = line_value(&l, &fam[NPRB_METRIC_RUN_START], h->start_s);
    if (rc == 0 && (rc = line_open(&l, NPRB_METRIC_HOST_INFO, h)) == 0) {
        label(&l, "fingerprint", h->fingerprint);
        label(&l, "os_kernel", h->os_kernel);
        label(&l, "run_id", h->run_id);
        label(&l, "config_fingerprint", h->config_fingerprint);
        rc = line_count(&l, &fam[NPRB_METRIC_HOST_INFO], 1);
    }
    if (rc == 0 && (rc = line_open(&l, NPRB_METRIC_HOST_NOT_RESTORED, h)) == 0)
        rc = line_count(&l, &fam[NPRB_METRIC_HOST_NOT_RESTORED], h->not_restored);
    return rc;
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The host's text, made UTF-8 as every output makes it (util/utf8.h), into @p keep. */
static const char *utf8(const char *text, char **keep)
{
    if (text == NULL)
        return "";
    if (nprb_utf8_valid(text))
        return text;
    *keep = nprb_utf8_escaped(text);
    return *keep != NULL ? *keep : "";
}

int nprb_om_print(FILE *out, const struct nprb_om_host *host, struct nprb_om_cell *cells, size_t n)
{
    char *keep[6] = {NULL};
    struct nprb_om_host h = *host;
    h.host = utf8(host->host, &keep[0]);
    h.node_type = utf8(host->node_type, &keep[1]);
    h.fingerprint = utf8(host->fingerprint, &keep[2]);
    h.os_kernel = utf8(host->os_kernel, &keep[3]);
    h.run_id = utf8(host->run_id, &keep[4]);
    h.config_fingerprint = utf8(host->config_fingerprint, &keep[5]);
    struct lines fam[NPRB_N_METRIC_FAMILIES] = {{0}};
    struct metric metrics[2 * NPRB_N_KERNELS + 2];
    size_t n_metrics = 0;
    int rc = figures(fam, &h, cells, n, metrics, &n_metrics, sizeof metrics / sizeof metrics[0]);
    if (rc == 0)
        rc = host_facts(fam, &h, metrics, n_metrics);
    for (int id = 0; rc == 0 && id < NPRB_N_METRIC_FAMILIES; id++) {
        const struct nprb_metric_family *f = nprb_metric_family((enum nprb_metric_family_id)id);
        if (fam[id].n == 0)
            continue;
        fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", f->name, f->help, f->name, f->type);
        if (f->unit != NULL)
            fprintf(out, "# UNIT %s %s\n", f->name, f->unit);
        qsort(fam[id].v, fam[id].n, sizeof *fam[id].v, by_text);
        for (size_t i = 0; i < fam[id].n; i++)
            fprintf(out, "%s\n", fam[id].v[i]);
    }
    if (rc == 0 && fputs("# EOF\n", out) == EOF)
        rc = -1;
    for (int id = 0; id < NPRB_N_METRIC_FAMILIES; id++) {
        for (size_t i = 0; i < fam[id].n; i++)
            free(fam[id].v[i]);
        free(fam[id].v);
    }
    for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++)
        free(keep[i]);
    if (rc != 0 && errno == 0)
        errno = ENOMEM;
    return rc;
}

/* DIR/numaprobe.prom into @p path. @return 0, or -1 with the message in @p err. */
static int file_path(const char *dir, char *path, size_t len, char *err, size_t errlen)
{
    size_t n = strlen(dir);
    if (n == 0 || (size_t)snprintf(path, len, "%s%s" NPRB_OM_FILE, dir,
                                   dir[n - 1] == '/' ? "" : "/") >= len) {
        snprintf(err, errlen, "cannot write metrics to '%s': %s", dir,
                 n == 0 ? "an empty directory name" : strerror(ENAMETOOLONG));
        return -1;
    }
    return 0;
}

int nprb_om_check_dir(const char *dir, char *err, size_t errlen)
{
    char path[PATH_MAX], tmp[PATH_MAX], why[PATH_MAX + 128];
    struct stat st;
    if (file_path(dir, path, sizeof path, err, errlen) != 0)
        return -1;
    if (stat(dir, &st) != 0) {
        snprintf(err, errlen, "cannot write metrics to %s: directory %s: %s", path, dir,
                 strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "cannot write metrics to %s: %s is not a directory", path, dir);
        return -1;
    }
    /* The results file's rules of what may be replaced (a regular file only), said of this one. */
    if (nprb_output_check(path, true, why, sizeof why) != 0) {
        const char *colon = strstr(why, ": ");
        snprintf(err, errlen, "cannot write metrics to %s: %s", path,
                 colon != NULL ? colon + 2 : why);
        return -1;
    }
    /* Writable as the run will write it: a root on a read-only file system passes access(). */
    int fd = -1;
    if (nprb_output_temporary(path, tmp, sizeof tmp) != 0)
        errno = ENAMETOOLONG;
    else
        fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(err, errlen, "cannot write metrics to %s: %s", path, strerror(errno));
        return -1;
    }
    close(fd);
    unlink(tmp);
    return 0;
}

struct print_args {
    const struct nprb_om_host *host;
    struct nprb_om_cell *cells;
    size_t n;
};

static int print_file(FILE *out, void *arg)
{
    const struct print_args *a = arg;
    if (nprb_fault(NPRB_FAULT_TEXTFILE_FULL)) {
        errno = ENOSPC;
        return -1;
    }
    return nprb_om_print(out, a->host, a->cells, a->n);
}

int nprb_om_write(const char *dir, const struct nprb_om_host *host, struct nprb_om_cell *cells,
                  size_t n, char *err, size_t errlen)
{
    char path[PATH_MAX];
    if (file_path(dir, path, sizeof path, err, errlen) != 0)
        return -1;
    struct print_args args = {host, cells, n};
    if (nprb_output_replace(path, print_file, &args, 0644) != 0) {
        snprintf(err, errlen, "cannot write metrics to %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}
