/* SPDX-License-Identifier: BSD-3-Clause */
/* A host's own OpenMetrics file (report/openmetrics.h): only the headline cells of its ranks,
 * one sample a cell (the median over the ranks that measured it, beside the largest of their
 * uncertainties), the judged metrics' noise, the host's facts, the families in the contract's
 * order with their help and units, label values escaped and made UTF-8, figures written as the
 * analysis writes them; the directory's check, and the file written whole, mode 0644, or not at
 * all. */
#include "check.h"
#include "report/openmetrics.h"
#include "results/contract.h"
#include "util/fault.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static void latency(struct nprb_results *r, enum nprb_experiment_id experiment, int cpu, int mem,
                    enum nprb_mem_policy policy, const char *status, double ns, double u)
{
    struct nprb_latency_row l;
    memset(&l, 0, sizeof l);
    l.experiment_id = experiment;
    l.cpu_node = cpu;
    l.mem_node = mem;
    NPRB_SET_MEM_POLICY(&l, policy);
    NPRB_SET_TEXT(l.status, status);
    NPRB_SET_TEXT(l.pattern, "random");
    l.latency_ns_median = ns;
    l.uncertainty_pct = u;
    CHECK(nprb_results_add(r, NPRB_TABLE_LATENCY, &l) == 0);
}

static void bandwidth(struct nprb_results *r, int cpu, int mem, enum nprb_kernel_id kernel,
                      double gbs, double u)
{
    struct nprb_bandwidth_row b;
    memset(&b, 0, sizeof b);
    b.experiment_id = NPRB_EXPERIMENT_BANDWIDTH_MATRIX;
    b.cpu_node = cpu;
    b.mem_node = mem;
    NPRB_SET_MEM_POLICY(&b, NPRB_MEM_BIND);
    NPRB_SET_TEXT(b.status, NPRB_ROW_OK);
    nprb_row_set_kernel(&b, kernel);
    b.gbs_best = gbs;
    b.gbs_median = isnan(u) ? NAN : gbs; /* no burst either: the uncertainty is unknown */
    b.uncertainty_pct = u;
    CHECK(nprb_results_add(r, NPRB_TABLE_BANDWIDTH, &b) == 0);
}

/* The file's text for @p cells. */
static char *text_of(const struct nprb_om_host *h, struct nprb_om_cell *cells, size_t n)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    CHECK(m != NULL && nprb_om_print(m, h, cells, n) == 0);
    fclose(m);
    return text;
}

static size_t count_of(const char *text, const char *what)
{
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, what)) != NULL; p++)
        n++;
    return n;
}

static void file_checks(const struct nprb_om_host *h, struct nprb_om_cell *cells, size_t n)
{
    char dir[] = "/tmp/nprb-test-om-XXXXXX", path[256], other[256], err[1024];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/" NPRB_OM_FILE, dir);
    CHECK(nprb_om_check_dir(dir, err, sizeof err) == 0);
    snprintf(other, sizeof other, "%s/missing", dir);
    CHECK(nprb_om_check_dir(other, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "cannot write metrics to");
    CHECK_STR_CONTAINS(err, "No such file or directory");

    mode_t old = umask(077); /* node_exporter reads the file as another user */
    CHECK(nprb_om_write(dir, h, cells, n, err, sizeof err) == 0);
    umask(old);
    struct stat st;
    CHECK(stat(path, &st) == 0 && (st.st_mode & 07777) == 0644);
    CHECK(nprb_om_check_dir(path, err, sizeof err) == -1); /* the file, not a directory */
    CHECK_STR_CONTAINS(err, "is not a directory");

    /* Refused at the end: the file before stays, and no temporary is left. */
    FILE *f = fopen(path, "w");
    CHECK(f != NULL && fputs("# before\n", f) >= 0 && fclose(f) == 0);
    setenv("NUMAPROBE_FAULT", "textfile_full", 1);
    nprb_fault_reload();
    CHECK(nprb_om_write(dir, h, cells, n, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "No space left on device");
    unsetenv("NUMAPROBE_FAULT");
    nprb_fault_reload();
    char line[32] = "";
    f = fopen(path, "r");
    CHECK(f != NULL && fgets(line, sizeof line, f) != NULL && strcmp(line, "# before\n") == 0);
    if (f != NULL)
        fclose(f);
    DIR *d = opendir(dir);
    int entries = 0;
    for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;)
        entries += e->d_name[0] != '.';
    if (d != NULL)
        closedir(d);
    CHECK(entries == 1);

    /* A directory where the file goes: the rename would fail at the end, so refused now. */
    CHECK(unlink(path) == 0 && mkdir(path, 0755) == 0);
    CHECK(nprb_om_check_dir(dir, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "it is a directory");
    rmdir(path);
    rmdir(dir);
}

int main(void)
{
    struct nprb_results r0, r1;
    nprb_results_init(&r0);
    nprb_results_init(&r1);
    /* Rank 0: node 0's row of the matrices, and rows no headline is taken from. */
    latency(&r0, NPRB_EXPERIMENT_LATENCY_MATRIX, 0, 0, NPRB_MEM_BIND, NPRB_ROW_OK, 100, 3);
    latency(&r0, NPRB_EXPERIMENT_LATENCY_MATRIX, 0, 1, NPRB_MEM_BIND, NPRB_ROW_OK, 150, 4);
    latency(&r0, NPRB_EXPERIMENT_LATENCY_MATRIX, 0, -1, NPRB_MEM_INTERLEAVE, NPRB_ROW_OK, 130, 1);
    latency(&r0, NPRB_EXPERIMENT_LATENCY_MATRIX, 0, 1, NPRB_MEM_BIND, NPRB_ROW_FAILED, 999, 1);
    latency(&r0, NPRB_EXPERIMENT_LATENCY_SWEEP, 0, 0, NPRB_MEM_BIND, NPRB_ROW_OK, 5, 1);
    bandwidth(&r0, 0, 0, NPRB_KERNEL_READ, 40, 2);
    bandwidth(&r0, 0, 1, NPRB_KERNEL_READ, 20, 30); /* noisy: remote read is not judged */
    /* Rank 1: node 1's row, and node 0's local cell again (a host measured twice). */
    latency(&r1, NPRB_EXPERIMENT_LATENCY_MATRIX, 1, 1, NPRB_MEM_BIND, NPRB_ROW_OK, 104, 5);
    latency(&r1, NPRB_EXPERIMENT_LATENCY_MATRIX, 1, 0, NPRB_MEM_BIND, NPRB_ROW_OK, 160, 2);
    latency(&r1, NPRB_EXPERIMENT_LATENCY_MATRIX, 0, 0, NPRB_MEM_BIND, NPRB_ROW_OK, 120, 10);
    bandwidth(&r1, 1, 1, NPRB_KERNEL_READ, 42, NAN);

    CHECK(nprb_om_cells(&r0, NULL, 0) == 4 && nprb_om_cells(&r1, NULL, 0) == 4);
    struct nprb_om_cell cells[10];
    size_t n = nprb_om_cells(&r0, cells, 4);
    cells[n++] = (struct nprb_om_cell){.value = NAN}; /* an empty slot of the gather */
    n += nprb_om_cells(&r1, cells + n, 4);
    CHECK(n == 9);
    struct nprb_om_cell copy[10];
    memcpy(copy, cells, sizeof cells);

    struct nprb_om_host h = {.host = "n\"o\\d\ne\xe9",
                             .node_type = "Xeon 2S",
                             .fingerprint = "0123456789abcdef",
                             .os_kernel = "6.1.0",
                             .run_id = "run-1",
                             .config_fingerprint = "fedcba9876543210",
                             .ok = true,
                             .not_restored = true,
                             .start_s = 1767225600};
    char *text = text_of(&h, cells, n);
    CHECK(text != NULL);
    if (text == NULL)
        return CHECK_DONE();
    /* One sample a cell; node 0's local cell the median of both ranks', its largest spread. */
    CHECK(count_of(text, "\nnumaprobe_latency_seconds{") == 4);
    CHECK(count_of(text, "\nnumaprobe_bandwidth_bytes_per_second{") == 3);
    CHECK(count_of(text, "\nnumaprobe_bandwidth_uncertainty_ratio{") == 2); /* NaN: none */
    const char *labels = "{host=\"n\\\"o\\\\d\\ne\\\\xe9\",node_type=\"Xeon 2S\"";
    char want[512];
    snprintf(want, sizeof want,
             "numaprobe_latency_seconds%s,cpu_node=\"0\",mem_node=\"0\",pattern=\"random\"} "
             "1.1e-07\n",
             labels);
    CHECK_STR_CONTAINS(text, want);
    snprintf(want, sizeof want,
             "numaprobe_latency_uncertainty_ratio%s,cpu_node=\"0\",mem_node=\"0\","
             "pattern=\"random\"} 0.1\n",
             labels);
    CHECK_STR_CONTAINS(text, want);
    snprintf(want, sizeof want,
             "numaprobe_bandwidth_bytes_per_second%s,cpu_node=\"1\",mem_node=\"1\","
             "kernel=\"read\"} 42000000000.0\n",
             labels);
    CHECK_STR_CONTAINS(text, want);
    /* The judged metrics' noise: remote read only. */
    snprintf(want, sizeof want, "numaprobe_noisy%s,metric=\"bw_read_remote_gbs\"} 1\n", labels);
    CHECK_STR_CONTAINS(text, want);
    CHECK(count_of(text, "\nnumaprobe_noisy{") == 1);
    snprintf(want, sizeof want, "numaprobe_host_noisy_figures%s} 1\n", labels);
    CHECK_STR_CONTAINS(text, want);
    snprintf(want, sizeof want, "numaprobe_run_start_timestamp_seconds%s} 1767225600.0\n", labels);
    CHECK_STR_CONTAINS(text, want);
    snprintf(want, sizeof want, "numaprobe_host_not_restored%s} 1\n", labels);
    CHECK_STR_CONTAINS(text, want);
    snprintf(want, sizeof want,
             "numaprobe_host_info%s,fingerprint=\"0123456789abcdef\",os_kernel=\"6.1.0\","
             "run_id=\"run-1\",config_fingerprint=\"fedcba9876543210\"} 1\n",
             labels);
    CHECK_STR_CONTAINS(text, want);
    CHECK_STR_CONTAINS(text, "# UNIT numaprobe_latency_seconds seconds\n");
    CHECK(strstr(text, "# UNIT numaprobe_host_ok") == NULL);
    /* Every family in the contract's order, with its help; one # EOF, last. */
    const char *at = text;
    for (int id = 0; id < NPRB_N_METRIC_FAMILIES; id++) {
        const struct nprb_metric_family *f = nprb_metric_family((enum nprb_metric_family_id)id);
        snprintf(want, sizeof want, "# HELP %s %s\n# TYPE %s gauge\n", f->name, f->help, f->name);
        const char *found = strstr(text, want);
        CHECK(found != NULL && found >= at);
        at = found != NULL ? found : at;
    }
    size_t len = strlen(text);
    CHECK(len > 6 && strcmp(text + len - 6, "# EOF\n") == 0 && count_of(text, "# EOF") == 1);
    free(text);

    /* No start known: no sample of it; a host that ended badly says 0. */
    h.start_s = NAN;
    h.ok = false;
    h.not_restored = false;
    memcpy(cells, copy, sizeof cells);
    text = text_of(&h, cells, n);
    CHECK(text != NULL && strstr(text, "numaprobe_run_start_timestamp_seconds") == NULL);
    snprintf(want, sizeof want, "numaprobe_host_ok%s} 0\n", labels);
    CHECK(text != NULL && strstr(text, want) != NULL);
    free(text);

    h.start_s = 1767225600;
    memcpy(cells, copy, sizeof cells);
    file_checks(&h, cells, n);
    nprb_results_free(&r0);
    nprb_results_free(&r1);
    return CHECK_DONE();
}
