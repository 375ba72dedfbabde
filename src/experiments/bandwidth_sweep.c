/* SPDX-License-Identifier: BSD-3-Clause */
/* bandwidth_sweep: GB/s against working-set size for each configured kernel, all usable cores
 * of one node on its local memory: the bandwidth of each cache level and of memory. */
#include "experiments/registry.h"
#include "measure/experiment.h"
#include "plan/items.h"
#include "report/report_grid.h"

#include <stdio.h>

extern const struct nprb_experiment nprb_exp_bandwidth_sweep;

struct bandwidth_sweep_config {
    bool enabled;
    struct nprb_sizes sizes; /**< per array; auto like latency_sweep */
    uint64_t max_size_bytes;
    struct nprb_kernel_list kernels;
    int threads;               /**< 0: one per usable core */
    struct nprb_sizes strides; /**< read_strided is measured at each */
    int repetitions;
    double sample_s; /**< a timed sample repeats the kernel until it lasts this long */
};

#define OFF(field) offsetof(struct bandwidth_sweep_config, field)
static const struct config_key keys[] = {
    {"enabled", KEY_BOOL, OFF(enabled), "true", 0, 0,
     "bandwidth against working-set size, per kernel, all cores of the first node"},
    {"sizes", KEY_SIZES, OFF(sizes), "auto", NPRB_KIB(2), NPRB_TIB(64),
     "bytes per array: auto or a list"},
    {"max_size", KEY_SIZE, OFF(max_size_bytes), "256MiB", 0, NPRB_TIB(64),
     "largest auto size (256 MiB: 4x the L3 one core shares on most CPUs); 0 means 4x the "
     "last-level cache hwloc reports (at most 1 GiB)"},
    {"kernels", KEY_NAMES(nprb_kernel_names), OFF(kernels), "read,copy,triad", 1, 0,
     "read write write_nt copy copy_nt copy_movsb scale add triad read_strided read_random "
     "mix_3to1 mix_2to1 mix_1to1 triad_nt write_zva"},
    {"threads", KEY_THREADS, OFF(threads), "all", 1, 4096,
     "threads: all (one per usable core) or a number"},
    {"strides", KEY_SIZES, OFF(strides), "64B", 8, NPRB_KIB(1024),
     "strides of read_strided, one curve each (textbook stride 8 and 32 doubles: [64B, 256B])"},
    {"repetitions", KEY_INT, OFF(repetitions), "3", 2, 100000, "timed samples kept per point"},
    {"sample_time", KEY_DURATION, OFF(sample_s), "1ms", 0, 0,
     "a sample repeats the kernel until it lasts this long"},
};
NPRB_EXPERIMENT_SECTION(section, bandwidth_sweep, keys, struct bandwidth_sweep_config);

static int plan(struct nprb_planner *p)
{
    const struct bandwidth_sweep_config *c = nprb_config_section(p->cfg, &section);
    if (c == NULL || !c->enabled)
        return 0;
    struct nprb_plan_item item = {.experiment = &nprb_exp_bandwidth_sweep,
                                  .policy = NPRB_MEM_BIND,
                                  .threads = c->threads,
                                  .repetitions = c->repetitions,
                                  .sample_s = c->sample_s};
    item.cpu_node = item.mem_node = nprb_sweep_node(p, item.skip_reason, sizeof item.skip_reason);
    uint64_t sizes[NPRB_MAX_LIST];
    int n = nprb_sweep_sizes(p, &c->sizes, c->max_size_bytes, 1, sizes, NPRB_MAX_LIST);
    /* Size by size, every kernel at each: the sizes ascend through the whole sweep, so its
     * arrays grow and are touched once (nprb_buffer_keep_begin). */
    for (int i = 0; i < n; i++) {
        /* Up to three arrays and an index: the node must hold all of them. */
        if (nprb_plan_check_fits(p, "bandwidth_sweep.sizes", sizes[i] * 4, item.mem_node) != 0)
            return -1;
        item.size_bytes = sizes[i];
        for (int k = 0; k < c->kernels.count; k++) {
            item.kernel = c->kernels.id[k];
            /* A strided kernel gives one curve per stride; the others ignore the stride. */
            int strides = nprb_kernel_get(item.kernel)->uses_stride ? c->strides.count : 1;
            for (int s = 0; s < strides; s++) {
                item.stride_bytes = c->strides.bytes[s];
                if (nprb_plan_add(p, &item) != 0)
                    return -1;
            }
        }
    }
    return 0;
}

static bool report(FILE *out, const struct nprb_results *rows)
{
    return nprb_bandwidth_report(out, rows, NPRB_EXPERIMENT_BANDWIDTH_SWEEP, false,
                                 "GB/s (best, bytes the program moves) by size per array");
}

static const char about[] =
    "GB/s against working set for the kernels `read`, `write`, `write_nt`, `copy`, `copy_nt`, "
    "`copy_movsb`, `scale`, `add`, `triad`, `read_strided`, `read_random` (and the mixes "
    "`mix_3to1`, `mix_2to1`, `mix_1to1`, `triad_nt`; `numaprobe --kernels` lists formulas, byte "
    "counts and the bus's read:write mix)";

const struct nprb_experiment nprb_exp_bandwidth_sweep = {.id = NPRB_EXPERIMENT_BANDWIDTH_SWEEP,
                                                         .table = NPRB_TABLE_BANDWIDTH,
                                                         .about = about,
                                                         .plan = plan,
                                                         .measure = nprb_measure_bandwidth,
                                                         .config = &section,
                                                         .report = report,
                                                         .keeps_buffers = true,
                                                         .priority = NPRB_PRIORITY_SWEEP,
                                                         .axis = NPRB_AXIS_SIZE};
