/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_write: the cost of the HDF5 writer's append loop at fleet scale, without MPI, the
 * collector or measurement, and a synthetic fleet file for measuring `numaprobe check` and
 * `numaprobe-report` at that scale (bench_collector drives the whole of rank 0's path).
 *
 *   bench_write HOST.h5 OUT.h5 HOSTS [TYPES]
 *
 * Writes HOSTS hosts of TYPES node types (default 3) of the synthetic fleet (fleet_synth.h: the
 * first rank of HOST.h5, scaled per type and host) through the writer the job uses, one host at
 * a time, then the root attributes the contract asks of a job's file: OUT.h5 is a file
 * `numaprobe check` calls valid. Prints the time per host and the file size. A benchmark, not a
 * test: it asserts nothing about time. */
#include "fleet_synth.h"

#include "results/h5out.h"
#include "util/timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

int main(int argc, char **argv)
{
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: %s HOST.h5 OUT.h5 HOSTS [TYPES]\n", argv[0]);
        return 2;
    }
    struct fleet_synth f;
    if (fleet_synth_open(&f, "bench_write", argv[1], atoi(argv[3]),
                         argc == 5 ? atoi(argv[4]) : 3) != 0) {
        fleet_synth_close(&f);
        return 2;
    }
    char err[512];
    struct nprb_h5 *h5 = NULL;
    uint64_t t0 = nprb_now_ns(), append_ns = 0;
    if (nprb_h5_create(&h5, argv[2], err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        fleet_synth_close(&f);
        return 1;
    }
    for (int r = 0; r < f.hosts; r++) {
        fleet_synth_host(&f, r);
        uint64_t a0 = nprb_now_ns();
        for (int t = 0; t < NPRB_N_TABLES; t++)
            if (nprb_h5_append(h5, (enum nprb_table_id)t, f.row.tables[t].data,
                               f.row.tables[t].count) != 0) {
                fprintf(stderr, "bench_write: cannot append to /%s\n",
                        nprb_table_desc((enum nprb_table_id)t)->name);
                nprb_h5_discard(h5);
                fleet_synth_close(&f);
                return 1;
            }
        append_ns += nprb_now_ns() - a0;
    }
    fleet_synth_root_attrs(&f, h5, "bench_write (synthetic fleet)");
    if (nprb_h5_commit(h5, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        fleet_synth_close(&f);
        return 1;
    }
    double total = (double)(nprb_now_ns() - t0) * 1e-9;
    struct stat st;
    stat(argv[2], &st);
    printf("%d hosts of %zu rows, %d node type(s): appending %.3f ms a host, %.2f s in all with "
           "commit; file %.2f MB (%.1f KB a host)\n",
           f.hosts, f.rows_a_host, f.types, 1e-6 * (double)append_ns / f.hosts, total,
           (double)st.st_size / 1e6, (double)st.st_size / 1e3 / f.hosts);
    fleet_synth_close(&f);
    return 0;
}
