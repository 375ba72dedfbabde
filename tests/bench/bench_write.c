/* bench_write: the cost of rank 0's write path, without MPI or measurement. Appends the rows of
 * HOSTS hosts (each with the per-table row counts given, as one host of the plan produces) to a
 * results file through the writer the job uses, one host at a time, and prints seconds per host
 * and the file size. A benchmark, not a test: it asserts nothing about time.
 *
 *   bench_write OUT.h5 HOSTS [TABLE=ROWS ...]
 *   bench_write /tmp/w.h5 10000 latency=60 bandwidth=120 placement=400 numastat=400
 */
#include "h5out.h"
#include "results.h"
#include "timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Fills one host's rows: every row zero but for rank, measurement and a few typical texts. */
static void host_rows(struct nprb_results *rows, int rank, const size_t *counts)
{
    for (int t = 0; t < NPRB_N_TABLES; t++) {
        rows->tables[t].count = 0;
        for (size_t i = 0; i < counts[t]; i++) {
            unsigned char row[8192] = {0};
            memcpy(row, &rank, sizeof rank); /* every row struct starts with int32 rank */
            if (t == NPRB_TABLE_HOSTS) {
                struct nprb_host_row *h = (struct nprb_host_row *)(void *)row;
                snprintf(h->hostname, sizeof h->hostname, "node%05d", rank);
                snprintf(h->node_type, sizeof h->node_type, "AMD EPYC 9654 2S/8N/192C 1536G");
                snprintf(h->status, sizeof h->status, "ok");
            }
            nprb_results_add(rows, (enum nprb_table_id)t, row);
        }
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s OUT.h5 HOSTS [TABLE=ROWS ...]\n", argv[0]);
        return 2;
    }
    int hosts = atoi(argv[2]);
    size_t counts[NPRB_N_TABLES] = {0};
    counts[NPRB_TABLE_HOSTS] = 1;
    for (int a = 3; a < argc; a++) {
        char name[64];
        size_t n;
        if (sscanf(argv[a], "%63[^=]=%zu", name, &n) != 2)
            return 2;
        for (int t = 0; t < NPRB_N_TABLES; t++)
            if (strcmp(nprb_table_desc((enum nprb_table_id)t)->name, name) == 0)
                counts[t] = n;
    }
    struct nprb_results rows;
    nprb_results_init(&rows);
    char err[512];
    struct nprb_h5 *h5 = NULL;
    uint64_t t0 = nprb_now_ns();
    if (nprb_h5_create(&h5, argv[1], err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    uint64_t append_ns = 0;
    for (int r = 0; r < hosts; r++) {
        host_rows(&rows, r, counts);
        uint64_t a0 = nprb_now_ns();
        for (int t = 0; t < NPRB_N_TABLES; t++)
            if (nprb_h5_append(h5, (enum nprb_table_id)t, rows.tables[t].data,
                               rows.tables[t].count) != 0)
                return 1;
        append_ns += nprb_now_ns() - a0;
    }
    if (nprb_h5_commit(h5, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    double total = (double)(nprb_now_ns() - t0) * 1e-9;
    struct stat st;
    stat(argv[1], &st);
    printf("%d hosts: appending %.3f ms a host, %.2f s in all with commit; file %.2f MB "
           "(%.1f KB a host)\n",
           hosts, 1e-6 * (double)append_ns / hosts, total, (double)st.st_size / 1e6,
           (double)st.st_size / 1e3 / hosts);
    nprb_results_free(&rows);
    return 0;
}
