/* SPDX-License-Identifier: BSD-3-Clause */
/* injection: every core of node i streaming memory bound to node j with a given read:write mix
 * on the bus, every i and j, as Intel MLC's bandwidth matrix does with its traffic types. A
 * memory channel or link that copes with reads may not cope with writes (a write costs a bus
 * turnaround, and a remote write a directory update); the mixes show where it stops. Each mix is
 * a kernel of the kernel table, validated like the others. */
#include "experiments/registry.h"
#include "measure/experiment.h"
#include "plan/items.h"
#include "util/timer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern const struct nprb_experiment nprb_exp_injection;

struct injection_config {
    bool enabled;
    enum nprb_pairs pairs;
    struct nprb_kernel_list kernels;
    bool nt_writes;
    uint64_t size_bytes;
    int threads;
    int repetitions;
};

#define OFF(field) offsetof(struct injection_config, field)
static const struct config_key keys[] = {
    {"enabled", KEY_BOOL, OFF(enabled), "false", 0, 0,
     "bandwidth by read:write mix, from every core of a node, per node pair"},
    {"pairs", KEY_NAME(nprb_pairs_names), OFF(pairs), "all", 0, 0,
     "all: cores of node i streaming memory of node j, every i and j; local: i = j only"},
    {"kernels", KEY_NAMES(nprb_kernel_names), OFF(kernels), "read,mix_3to1,mix_2to1,mix_1to1,triad",
     1, 0,
     "the mixes: read (all reads), mix_3to1, mix_2to1, mix_1to1 (reads:writes on the bus), "
     "triad (STREAM's, 3:1 with its write-allocate read), or any other kernel"},
    {"nt_writes", KEY_BOOL, OFF(nt_writes), "false", 0, 0,
     "also the mixes whose writes are non-temporal: triad_nt (2:1), copy_nt (1:1), write_nt "
     "(0:1)"},
    {"size", KEY_SIZE, OFF(size_bytes), "256MiB", 0, NPRB_TIB(64),
     "each array per memory node; 0: four times the last-level caches of a node's cores "
     "(STREAM's rule)"},
    {"threads", KEY_THREADS, OFF(threads), "all", 1, 4096,
     "threads per CPU node: all (one per usable core) or a number"},
    {"repetitions", KEY_INT, OFF(repetitions), "5", 2, 100000,
     "timed repetitions kept per measurement"},
};
NPRB_EXPERIMENT_SECTION(section, injection, keys, struct injection_config);

/* The series' point for @p kernel: every node pair, every core of the CPU node. */
static struct nprb_plan_item kernel_item(struct nprb_planner *p, const struct injection_config *c,
                                         enum nprb_kernel_id kernel)
{
    return (struct nprb_plan_item){
        .experiment = &nprb_exp_injection,
        .policy = NPRB_MEM_BIND,
        .passes = 1,
        .size_bytes = c->size_bytes > 0 ? c->size_bytes : nprb_stream_auto_bytes(p->topo),
        .threads = c->threads,
        .kernel = kernel,
        .repetitions = c->repetitions};
}

static int plan(struct nprb_planner *p)
{
    const struct injection_config *c = nprb_config_section(p->cfg, &section);
    if (c == NULL || !c->enabled)
        return 0;
    struct nprb_plan_item points[NPRB_N_KERNELS];
    int count = 0;
    bool planned[NPRB_N_KERNELS] = {false};
    for (int k = 0; k < c->kernels.count; k++) {
        if (planned[c->kernels.id[k]])
            continue;
        planned[c->kernels.id[k]] = true;
        points[count++] = kernel_item(p, c, c->kernels.id[k]);
    }
    static const enum nprb_kernel_id nt_mixes[] = {NPRB_KERNEL_TRIAD_NT, NPRB_KERNEL_COPY_NT,
                                                   NPRB_KERNEL_WRITE_NT};
    for (size_t k = 0; c->nt_writes && k < sizeof nt_mixes / sizeof nt_mixes[0]; k++)
        if (!planned[nt_mixes[k]]) {
            planned[nt_mixes[k]] = true;
            points[count++] = kernel_item(p, c, nt_mixes[k]);
        }
    /* Every kernel on a memory node before the next node: the arrays are faulted in once per
     * node and each kernel finds them kept. */
    static const struct nprb_policy_list bound_only = {0};
    return nprb_plan_matrix_series(p, points, count, "injection.size", c->pairs, &bound_only);
}

/* The classes in the order the rows first name them (local first: the plan's order). */
static void class_note(enum nprb_pair_class *classes, int *count, enum nprb_pair_class cls)
{
    for (int k = 0; k < *count; k++)
        if (classes[k] == cls)
            return;
    classes[(*count)++] = cls;
}

static bool injection_row(const struct nprb_bandwidth_row *b)
{
    return b->experiment_id == NPRB_EXPERIMENT_INJECTION && b->kernel_id < NPRB_N_KERNELS &&
           strcmp(b->status, NPRB_ROW_OK) == 0 && isfinite(b->bus_gbs_best);
}

/* The median over the pairs of one class of one mix's best bus GB/s; NaN where none. */
static double class_median(const struct nprb_rows *bw, enum nprb_kernel_id kernel,
                           enum nprb_pair_class pair_class, double *scratch)
{
    size_t n = 0;
    for (size_t i = 0; i < bw->count; i++) {
        const struct nprb_bandwidth_row *b = nprb_row_at(bw, i);
        if (injection_row(b) && b->kernel_id == kernel && b->pair_class_id == pair_class)
            scratch[n++] = b->bus_gbs_best;
    }
    return nprb_median(scratch, n);
}

/* Its part of every host's block: one line per mix, one column per pair class. */
static bool host_report(FILE *out, const struct nprb_results *rows)
{
    const struct nprb_rows *bw = &rows->tables[NPRB_TABLE_BANDWIDTH];
    enum nprb_kernel_id kernels[NPRB_N_KERNELS];
    bool known[NPRB_N_KERNELS] = {false};
    enum nprb_pair_class classes[NPRB_N_PAIR_CLASSES];
    int n_kernels = 0, n_classes = 0, threads = 0;
    for (size_t i = 0; i < bw->count; i++) {
        const struct nprb_bandwidth_row *b = nprb_row_at(bw, i);
        if (!injection_row(b))
            continue;
        class_note(classes, &n_classes, b->pair_class_id);
        threads = b->threads;
        if (!known[b->kernel_id]) {
            known[b->kernel_id] = true;
            kernels[n_kernels++] = b->kernel_id;
        }
    }
    double *scratch = n_kernels > 0 ? malloc(bw->count * sizeof *scratch) : NULL;
    if (scratch == NULL)
        return false;
    fprintf(out,
            "  injection: bus GB/s by read:write mix (best of each node pair, median over the "
            "pairs of a class; %d threads per CPU node)\n  %-10s %7s",
            threads, "mix", "r:w");
    for (int c = 0; c < n_classes; c++)
        fprintf(out, " %14s", nprb_pair_class_name(classes[c]));
    fputc('\n', out);
    for (int k = 0; k < n_kernels; k++) {
        const struct nprb_kernel *kernel = nprb_kernel_get(kernels[k]);
        char mix[16];
        snprintf(mix, sizeof mix, "%u:%u", kernel->bus_reads, kernel->bus_writes);
        fprintf(out, "  %-10s %7s", kernel->name, mix);
        for (int c = 0; c < n_classes; c++) {
            double gbs = class_median(bw, kernels[k], classes[c], scratch);
            if (isnan(gbs))
                fprintf(out, " %14s", "-");
            else
                fprintf(out, " %14.1f", gbs);
        }
        fputc('\n', out);
    }
    free(scratch);
    return true;
}

static const char about[] =
    "bandwidth by read:write mix on the bus, from every core of node i into memory bound to node "
    "j, every i and j (Intel MLC's traffic types): all reads, 3:1, 2:1, 1:1 (`mix_3to1`, "
    "`mix_2to1`, `mix_1to1` write only the lines they have just read, so the mix is exact) and "
    "STREAM's triad (3:1 with its write-allocate read); `nt_writes: true` adds non-temporal "
    "`triad_nt` (2:1), `copy_nt` (1:1) and `write_nt` (0:1); in `default.yaml` and `full.yaml`, "
    "off in `quick`; the report gives bus GB/s per mix and pair class (`/bandwidth`, experiment "
    "`injection`)";

const struct nprb_experiment nprb_exp_injection = {.id = NPRB_EXPERIMENT_INJECTION,
                                                   .table = NPRB_TABLE_BANDWIDTH,
                                                   .about = about,
                                                   .plan = plan,
                                                   .measure = nprb_measure_bandwidth,
                                                   .config = &section,
                                                   .host_report = host_report,
                                                   .keeps_buffers = true,
                                                   .priority = NPRB_PRIORITY_PER_NODE};
