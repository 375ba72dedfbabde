/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_write: the cost of rank 0's write path, without MPI or measurement. Takes the rows of
 * one real results file (a host, as numaprobe measured it) and appends them HOSTS times, the
 * rank renumbered each time, through the writer the job uses, one host at a time; prints the
 * time per host and the file size. A benchmark, not a test: it asserts nothing about time.
 *
 *   bench_write HOST.h5 OUT.h5 HOSTS
 */
#include "results/h5in.h"
#include "results/h5out.h"
#include "results/results.h"
#include "util/timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Every row struct starts with its int32 rank. */
static void renumber(struct nprb_results *rows, int32_t rank)
{
    for (int t = 0; t < NPRB_N_TABLES; t++)
        for (size_t i = 0; i < rows->tables[t].count; i++)
            memcpy(rows->tables[t].data + i * rows->tables[t].row_bytes, &rank, sizeof rank);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s HOST.h5 OUT.h5 HOSTS\n", argv[0]);
        return 2;
    }
    int hosts = atoi(argv[3]);
    char err[512];
    struct nprb_h5in *in = NULL;
    struct nprb_results rows;
    nprb_results_init(&rows);
    if (nprb_h5in_open(&in, argv[1], err, sizeof err) != 0 ||
        nprb_h5in_read_all(in, &rows, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    nprb_h5in_close(in);
    size_t per_host = 0;
    for (int t = 0; t < NPRB_N_TABLES; t++)
        per_host += rows.tables[t].count;

    struct nprb_h5 *h5 = NULL;
    uint64_t t0 = nprb_now_ns(), append_ns = 0;
    if (nprb_h5_create(&h5, argv[2], err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    for (int r = 0; r < hosts; r++) {
        renumber(&rows, r);
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
    stat(argv[2], &st);
    printf("%d hosts of %zu rows: appending %.3f ms a host, %.2f s in all with commit; "
           "file %.2f MB (%.1f KB a host)\n",
           hosts, per_host, 1e-6 * (double)append_ns / hosts, total, (double)st.st_size / 1e6,
           (double)st.st_size / 1e3 / hosts);
    nprb_results_free(&rows);
    return 0;
}
