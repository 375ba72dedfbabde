/* SPDX-License-Identifier: BSD-3-Clause */
/* stride_sweep: a sequential chase through a fixed working set, stride varied: where the
 * prefetchers stop helping and each load pays a new line, then a new page. */
#include "experiments/registry.h"
#include "measure/experiment.h"
#include "plan/items.h"
#include "report/report_grid.h"
#include "util/units.h"

#include <stdio.h>
#include <string.h>

extern const struct nprb_experiment nprb_exp_stride_sweep;

struct stride_sweep_config {
    bool enabled;
    uint64_t size_bytes;
    struct nprb_sizes strides; /**< chase strides, bytes */
    int samples;
    double sample_s;
};

#define OFF(field) offsetof(struct stride_sweep_config, field)
static const struct config_key keys[] = {
    {"enabled", KEY_BOOL, OFF(enabled), "true", 0, 0,
     "latency of a sequential chase at a fixed working set, stride varied"},
    {"size", KEY_SIZE, OFF(size_bytes), "64MiB", NPRB_KIB(2), NPRB_TIB(64), "working set"},
    {"strides", KEY_SIZES, OFF(strides), "8,16,32,64,128,256,512,1KiB,2KiB,4KiB", 8,
     NPRB_KIB(1024) * 1024, "strides in bytes"},
    {"samples", KEY_INT, OFF(samples), "11", 3, 100000, "timed samples kept per point"},
    {"sample_time", KEY_DURATION, OFF(sample_s), "2ms", 0, 0, "minimum length of one sample"},
};
NPRB_EXPERIMENT_SECTION(section, stride_sweep, keys, struct stride_sweep_config);

static int plan(struct nprb_planner *p)
{
    const struct stride_sweep_config *c = nprb_config_section(p->cfg, &section);
    if (c == NULL || !c->enabled)
        return 0;
    struct nprb_plan_item item = {.experiment = &nprb_exp_stride_sweep,
                                  .policy = NPRB_MEM_BIND,
                                  .size_bytes = c->size_bytes,
                                  .threads = 1,
                                  .samples = c->samples,
                                  .sample_s = c->sample_s};
    item.cpu_node = item.mem_node = nprb_sweep_node(p, item.skip_reason, sizeof item.skip_reason);
    if (nprb_plan_check_fits(p, "stride_sweep.size", c->size_bytes, item.mem_node) != 0)
        return -1;
    for (int i = 0; i < c->strides.count; i++) {
        char name[48], why[160];
        snprintf(name, sizeof name, "stride:%llu", (unsigned long long)c->strides.bytes[i]);
        if (nprb_pattern_parse(name, &item.pattern, why, sizeof why) != 0) {
            snprintf(p->err, p->errlen, "stride_sweep.strides: %s", why);
            return -1;
        }
        if (c->strides.bytes[i] * 2 > c->size_bytes) {
            snprintf(p->err, p->errlen,
                     "stride_sweep.strides: stride %llu B leaves fewer than 2 slots in the %llu B "
                     "working set",
                     (unsigned long long)c->strides.bytes[i], (unsigned long long)c->size_bytes);
            return -1;
        }
        if (nprb_plan_add(p, &item) != 0)
            return -1;
    }
    return 0;
}

/* ns per access by stride, one row per working set. */
static bool report(FILE *out, const struct nprb_results *rows)
{
    const struct nprb_rows *lat = &rows->tables[NPRB_TABLE_LATENCY];
    struct nprb_grid *g = nprb_grid_create();
    if (g == NULL)
        return false;
    const char *host = "";
    for (size_t i = 0; i < lat->count; i++) {
        const struct nprb_latency_row *l = nprb_row_at(lat, i);
        if (l->experiment_id != NPRB_EXPERIMENT_STRIDE_SWEEP || strcmp(l->status, NPRB_ROW_OK) != 0)
            continue;
        host = l->hostname;
        char name[24];
        nprb_format_size(l->size_bytes, name, sizeof name);
        nprb_grid_put(g, name, l->slot_bytes, l->latency_ns_median);
    }
    char title[240];
    snprintf(title, sizeof title, "stride_sweep on %s: ns per access (median) by stride", host);
    bool printed = nprb_grid_print(out, title, "working set", g, NPRB_GRID_SIZES, 2);
    nprb_grid_destroy(g);
    return printed;
}

static const char about[] =
    "a sequential chase through a fixed working set, stride varied: where prefetching stops "
    "helping";

const struct nprb_experiment nprb_exp_stride_sweep = {.id = NPRB_EXPERIMENT_STRIDE_SWEEP,
                                                      .table = NPRB_TABLE_LATENCY,
                                                      .about = about,
                                                      .plan = plan,
                                                      .measure = nprb_measure_latency,
                                                      .config = &section,
                                                      .report = report,
                                                      .keeps_buffers = true,
                                                      .priority = NPRB_PRIORITY_SWEEP,
                                                      .axis = NPRB_AXIS_STRIDE};
