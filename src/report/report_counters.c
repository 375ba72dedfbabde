/* SPDX-License-Identifier: BSD-3-Clause */
#include "report/report_counters.h"

#include "util/timer.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* What one measurement's thread counters add up to. */
struct measured {
    double cycles, instructions, llc_misses;
    bool migrated, preempted, counted;
};

/* Each measurement's counters, indexed by measurement id (@p n of them). */
static struct measured *gather(const struct nprb_rows *counters, size_t *n)
{
    *n = 0;
    for (size_t i = 0; i < counters->count; i++) {
        const struct nprb_counter_row *c = nprb_row_at(counters, i);
        if (c->measurement >= 0 && (size_t)c->measurement + 1 > *n)
            *n = (size_t)c->measurement + 1;
    }
    struct measured *m = calloc(*n > 0 ? *n : 1, sizeof *m);
    for (size_t i = 0; m != NULL && i < counters->count; i++) {
        const struct nprb_counter_row *c = nprb_row_at(counters, i);
        if (c->measurement < 0 || strcmp(c->status, NPRB_ROW_OK) != 0)
            continue;
        struct measured *one = &m[c->measurement];
        one->counted |= strcmp(c->scope, "thread") == 0;
        if (strcmp(c->event, "cycles") == 0)
            one->cycles = c->value_scaled;
        else if (strcmp(c->event, "instructions") == 0)
            one->instructions = c->value_scaled;
        else if (strcmp(c->event, "llc_load_misses") == 0)
            one->llc_misses = c->value_scaled;
        else if (strcmp(c->event, "cpu_migrations") == 0)
            one->migrated = c->value > 0;
        else if (strcmp(c->event, "context_switches") == 0)
            one->preempted = c->value > 0 && c->threads == 1;
    }
    return m;
}

/* The chases' median IPC and LLC misses per access, from the latency matrix's rows. */
static void chase_figures(FILE *out, const struct nprb_results *rows, const struct measured *m,
                          size_t n)
{
    const struct nprb_rows *lat = &rows->tables[NPRB_TABLE_LATENCY];
    double *ipc = calloc(lat->count + 1, sizeof *ipc), *mpa = calloc(lat->count + 1, sizeof *mpa);
    size_t n_ipc = 0, n_mpa = 0;
    for (size_t i = 0; ipc != NULL && mpa != NULL && i < lat->count; i++) {
        const struct nprb_latency_row *l = nprb_row_at(lat, i);
        if (strcmp(l->status, NPRB_ROW_OK) != 0 || l->measurement < 0 ||
            (size_t)l->measurement >= n)
            continue;
        const struct measured *one = &m[l->measurement];
        if (one->cycles > 0 && one->instructions > 0)
            ipc[n_ipc++] = one->instructions / one->cycles;
        double accesses = (double)l->accesses_per_sample * l->samples;
        if (one->llc_misses > 0 && accesses > 0)
            mpa[n_mpa++] = one->llc_misses / accesses;
    }
    if (n_ipc > 0 || n_mpa > 0)
        fprintf(out,
                "  core counters: chase IPC %.2f, LLC misses per access %.2f (medians of %zu "
                "latency measurements)\n",
                nprb_median(ipc, n_ipc), nprb_median(mpa, n_mpa), n_ipc > n_mpa ? n_ipc : n_mpa);
    free(ipc);
    free(mpa);
}

/* The memory controllers' bytes over the formula's, per kernel of the bandwidth rows. */
static void bus_figures(FILE *out, const struct nprb_results *rows)
{
    const struct nprb_rows *bw = &rows->tables[NPRB_TABLE_BANDWIDTH];
    double *ratio = calloc(bw->count + 1, sizeof *ratio);
    /* The kernels in the order their first counted row came. */
    enum nprb_kernel_id kernels[NPRB_N_KERNELS];
    bool known[NPRB_N_KERNELS + 1] = {false};
    int n_kernels = 0;
    for (size_t i = 0; ratio != NULL && i < bw->count; i++) {
        const struct nprb_bandwidth_row *b = nprb_row_at(bw, i);
        if (b->kernel_id < NPRB_N_KERNELS && !known[b->kernel_id] && !isnan(b->mc_bus_ratio)) {
            known[b->kernel_id] = true;
            kernels[n_kernels++] = b->kernel_id;
        }
    }
    for (int k = 0; k < n_kernels; k++) {
        size_t n = 0;
        for (size_t i = 0; i < bw->count; i++) {
            const struct nprb_bandwidth_row *b = nprb_row_at(bw, i);
            if (b->kernel_id == kernels[k] && !isnan(b->mc_bus_ratio) &&
                strcmp(b->status, NPRB_ROW_OK) == 0)
                ratio[n++] = b->mc_bus_ratio;
        }
        fprintf(out, "%s%s %.2f%s", k == 0 ? "  memory controllers / formula's bus bytes: " : "",
                nprb_kernel_get(kernels[k])->name, nprb_median(ratio, n),
                k + 1 == n_kernels ? "\n" : ", ");
    }
    free(ratio);
}

void nprb_report_counters(FILE *out, const struct nprb_results *rows)
{
    const struct nprb_rows *counters = &rows->tables[NPRB_TABLE_COUNTERS];
    if (counters->count == 0)
        return;
    size_t n;
    struct measured *m = gather(counters, &n);
    if (m == NULL)
        return;
    size_t counted = 0, migrated = 0, preempted = 0;
    for (size_t i = 0; i < n; i++) {
        counted += m[i].counted;
        migrated += m[i].migrated;
        preempted += m[i].preempted;
    }
    if (counted > 0)
        fprintf(out,
                "  counters: %zu measurements counted; a thread migrated in %zu, a chase "
                "preempted in %zu (flags migrated, preempted)\n",
                counted, migrated, preempted);
    chase_figures(out, rows, m, n);
    bus_figures(out, rows);
    free(m);
    /* Each group this host could not count, once, with the first reason given. */
    static const char *const groups[] = {"software", "core", "uncore", "vmstat"};
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
        for (size_t i = 0; i < counters->count; i++) {
            const struct nprb_counter_row *c = nprb_row_at(counters, i);
            if (c->measurement == -1 && strcmp(c->group, groups[g]) == 0) {
                fprintf(out, "  %s counters not counted here: %s\n", groups[g], c->note);
                break;
            }
        }
    }
}
