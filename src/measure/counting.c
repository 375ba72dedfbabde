/* SPDX-License-Identifier: BSD-3-Clause */
/* The counters beside every measurement: the kernel's per-node allocation counters (/numastat),
 * and the /counters rows: what the measured threads counted (software and core events), what the
 * memory controllers counted (uncore) and what /proc/vmstat counted (system-wide), plus one row
 * per rank for each event this host cannot count. */
#include "measure/experiment.h"

#include "host/numastat.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nprb_kernel_snapshot_take(const struct nprb_context *ctx, struct nprb_kernel_snapshot *snap)
{
    snap->nodes = nprb_topo_node_count(ctx->topo);
    snap->numastat = calloc((size_t)snap->nodes * NPRB_NUMASTAT_FIELDS, sizeof *snap->numastat);
    for (int i = 0; snap->numastat != NULL && i < snap->nodes; i++) {
        if (nprb_numastat_read(nprb_topo_node(ctx->topo, i)->os_index,
                               snap->numastat + (size_t)i * NPRB_NUMASTAT_FIELDS) != 0) {
            free(snap->numastat);
            snap->numastat = NULL;
        }
    }
    snap->vmstat_ok =
        (nprb_config_counter_groups(ctx->cfg) & NPRB_COUNTER_GROUP_BIT(NPRB_COUNTERS_VMSTAT)) &&
        nprb_vmstat_read(NULL, &snap->vmstat) == 0;
}

void nprb_kernel_snapshot_free(struct nprb_kernel_snapshot *snap)
{
    free(snap->numastat);
    snap->numastat = NULL;
}

static void record_numastat(struct nprb_context *ctx, int32_t measurement,
                            enum nprb_experiment_id experiment,
                            const struct nprb_kernel_snapshot *before,
                            const struct nprb_kernel_snapshot *after)
{
    for (int i = 0; before->numastat != NULL && after->numastat != NULL && i < after->nodes; i++) {
        const uint64_t *b = before->numastat + (size_t)i * NPRB_NUMASTAT_FIELDS;
        const uint64_t *a = after->numastat + (size_t)i * NPRB_NUMASTAT_FIELDS;
        struct nprb_numastat_row row = {
            .rank = ctx->rank,
            .measurement = measurement,
            .node = (int32_t)nprb_topo_node(ctx->topo, i)->os_index,
            .numa_hit = (int64_t)(a[NPRB_NUMASTAT_HIT] - b[NPRB_NUMASTAT_HIT]),
            .numa_miss = (int64_t)(a[NPRB_NUMASTAT_MISS] - b[NPRB_NUMASTAT_MISS]),
            .numa_foreign = (int64_t)(a[NPRB_NUMASTAT_FOREIGN] - b[NPRB_NUMASTAT_FOREIGN]),
            .interleave_hit =
                (int64_t)(a[NPRB_NUMASTAT_INTERLEAVE_HIT] - b[NPRB_NUMASTAT_INTERLEAVE_HIT]),
            .local_node = (int64_t)(a[NPRB_NUMASTAT_LOCAL] - b[NPRB_NUMASTAT_LOCAL]),
            .other_node = (int64_t)(a[NPRB_NUMASTAT_OTHER] - b[NPRB_NUMASTAT_OTHER]),
        };
        NPRB_SET_EXPERIMENT(&row, experiment);
        nprb_results_add(ctx->results, NPRB_TABLE_NUMASTAT, &row);
    }
}

/* A /counters row with its identity filled in; the caller sets the figures. */
static struct nprb_counter_row counter_row(const struct nprb_context *ctx, int32_t measurement,
                                           enum nprb_experiment_id experiment, const char *event,
                                           enum nprb_counter_group group, const char *scope,
                                           const char *unit)
{
    struct nprb_counter_row row = {.rank = ctx->rank, .measurement = measurement, .socket = -1};
    NPRB_SET_EXPERIMENT(&row, experiment);
    NPRB_SET_TEXT(row.event, event);
    NPRB_SET_TEXT(row.group, nprb_counter_group_name(group));
    NPRB_SET_TEXT(row.scope, scope);
    NPRB_SET_TEXT(row.unit, unit);
    NPRB_SET_TEXT(row.status, NPRB_ROW_OK);
    return row;
}

static void add_row(struct nprb_context *ctx, const struct nprb_counter_row *row)
{
    if (nprb_results_add(ctx->results, NPRB_TABLE_COUNTERS, row) != 0)
        NPRB_WARN(ctx->log, "out of memory recording counter %s", row->event);
}

static void record_thread_counts(struct nprb_context *ctx, int32_t measurement,
                                 enum nprb_experiment_id experiment,
                                 const struct nprb_counts *counts)
{
    for (int e = 0; e < NPRB_N_THREAD_EVENTS; e++) {
        enum nprb_thread_event ev = (enum nprb_thread_event)e;
        const struct nprb_count *c = &counts->event[e];
        char why[8];
        /* An event the host cannot count has the rank's not_applicable row instead. */
        if (!(counts->groups & NPRB_COUNTER_GROUP_BIT(nprb_thread_event_group(ev))) ||
            nprb_thread_event_unavailable(ev, why, sizeof why) ||
            (c->threads == 0 && c->failed == 0))
            continue;
        struct nprb_counter_row row =
            counter_row(ctx, measurement, experiment, nprb_thread_event_name(ev),
                        nprb_thread_event_group(ev), "thread", nprb_thread_event_unit(ev));
        row.threads = c->threads;
        row.value = c->value;
        row.time_enabled_s = (double)c->enabled_ns * 1e-9;
        row.time_running_s = (double)c->running_ns * 1e-9;
        row.value_scaled = c->threads > 0 ? c->scaled : NAN;
        if (c->failed > 0) {
            NPRB_SET_TEXT(row.status, NPRB_ROW_FAILED);
            snprintf(row.note, sizeof row.note, "%d of %d threads could not count it: %s",
                     c->failed, c->failed + c->threads, strerror(c->error));
        } else if (c->never_enabled > 0) {
            /* Its zero would read as "no migration, no preemption": a verdict never seen. */
            NPRB_SET_TEXT(row.status, NPRB_ROW_FAILED);
            row.value_scaled = NAN;
            snprintf(row.note, sizeof row.note,
                     "not counted: %d of %d threads' counters were never enabled (0 s enabled; "
                     "the kernel's perf, as in an emulated guest)",
                     c->never_enabled, c->threads);
        } else if (c->stalled > 0) {
            /* A part of the samples read as the whole would undercount every event. */
            NPRB_SET_TEXT(row.status, NPRB_ROW_FAILED);
            row.value_scaled = NAN;
            snprintf(row.note, sizeof row.note,
                     "not counted: %d of %d threads' counters were enabled for under half the "
                     "time their samples took, with no context switch (the kernel's clock for "
                     "them stalled)",
                     c->stalled, c->threads);
        } else if (isnan(row.value_scaled)) {
            NPRB_SET_TEXT(row.status, NPRB_ROW_FAILED);
            NPRB_SET_TEXT(row.note, "never on the PMU: the kernel multiplexed it out entirely");
        } else if (c->user_only) {
            NPRB_SET_TEXT(row.note, "user space only (kernel.perf_event_paranoid)");
        }
        add_row(ctx, &row);
    }
}

static void record_uncore(struct nprb_context *ctx, int32_t measurement,
                          enum nprb_experiment_id experiment,
                          const struct nprb_uncore_counts *uncore)
{
    for (int e = 0; e < NPRB_N_UNCORE_EVENTS; e++) {
        for (int s = 0; s < uncore->sockets; s++) {
            struct nprb_counter_row row = counter_row(
                ctx, measurement, experiment, nprb_uncore_event_name((enum nprb_uncore_event)e),
                NPRB_COUNTERS_UNCORE, "socket", "B");
            row.socket = s;
            row.value = uncore->value[e][s];
            row.time_enabled_s = (double)uncore->enabled_ns[e][s] * 1e-9;
            row.time_running_s = (double)uncore->running_ns[e][s] * 1e-9;
            row.value_scaled = uncore->bytes[e][s];
            NPRB_SET_TEXT(row.note, "every process's traffic on the socket, not only ours");
            if (isnan(row.value_scaled)) {
                NPRB_SET_TEXT(row.status, NPRB_ROW_FAILED);
                NPRB_SET_TEXT(row.note, uncore->enabled_ns[e][s] == 0
                                            ? "not counted: the counter was never enabled"
                                            : "not counted: never on the PMU (multiplexed out)");
            }
            add_row(ctx, &row);
        }
    }
}

static void record_vmstat(struct nprb_context *ctx, int32_t measurement,
                          enum nprb_experiment_id experiment,
                          const struct nprb_kernel_snapshot *before,
                          const struct nprb_kernel_snapshot *after)
{
    if (!before->vmstat_ok || !after->vmstat_ok)
        return;
    for (int f = 0; f < NPRB_N_VMSTAT_FIELDS; f++) {
        enum nprb_vmstat_field field = (enum nprb_vmstat_field)f;
        if (!(after->vmstat.present & (1u << f)))
            continue; /* the rank's not_applicable row says so */
        uint64_t delta = nprb_vmstat_delta(&before->vmstat, &after->vmstat, field);
        bool pages = field == NPRB_VMSTAT_NUMA_PAGES_MIGRATED ||
                     field == NPRB_VMSTAT_PGMIGRATE_SUCCESS || field == NPRB_VMSTAT_PGMIGRATE_FAIL;
        struct nprb_counter_row row =
            counter_row(ctx, measurement, experiment, nprb_vmstat_name(field), NPRB_COUNTERS_VMSTAT,
                        "system", pages ? "pages" : "events");
        row.value = delta;
        row.value_scaled = (double)delta;
        add_row(ctx, &row);
    }
}

void nprb_record_counters(struct nprb_context *ctx, int32_t measurement,
                          enum nprb_experiment_id experiment,
                          const struct nprb_kernel_snapshot *before,
                          const struct nprb_counts *counts, const struct nprb_uncore_counts *uncore)
{
    struct nprb_kernel_snapshot after;
    nprb_kernel_snapshot_take(ctx, &after);
    record_numastat(ctx, measurement, experiment, before, &after);
    if (counts != NULL)
        record_thread_counts(ctx, measurement, experiment, counts);
    if (uncore != NULL)
        record_uncore(ctx, measurement, experiment, uncore);
    record_vmstat(ctx, measurement, experiment, before, &after);
    nprb_kernel_snapshot_free(&after);
}

void nprb_record_thread_counters(struct nprb_context *ctx, int32_t measurement,
                                 enum nprb_experiment_id experiment,
                                 const struct nprb_counts *counts)
{
    record_thread_counts(ctx, measurement, experiment, counts);
}

static void unavailable_row(struct nprb_context *ctx, const char *event,
                            enum nprb_counter_group group, const char *scope, const char *why)
{
    struct nprb_counter_row row =
        counter_row(ctx, -1, NPRB_EXPERIMENT_NONE, event, group, scope, "");
    row.value_scaled = NAN;
    NPRB_SET_TEXT(row.status, NPRB_ROW_NOT_APPLICABLE);
    NPRB_SET_TEXT(row.note, why);
    add_row(ctx, &row);
}

void nprb_record_counters_unavailable(struct nprb_context *ctx)
{
    unsigned groups = nprb_config_counter_groups(ctx->cfg);
    char why[NPRB_NOTE_LEN];
    for (int e = 0; e < NPRB_N_THREAD_EVENTS; e++) {
        enum nprb_thread_event ev = (enum nprb_thread_event)e;
        if ((groups & NPRB_COUNTER_GROUP_BIT(nprb_thread_event_group(ev))) &&
            nprb_thread_event_unavailable(ev, why, sizeof why))
            unavailable_row(ctx, nprb_thread_event_name(ev), nprb_thread_event_group(ev), "thread",
                            why);
    }
    if ((groups & NPRB_COUNTER_GROUP_BIT(NPRB_COUNTERS_UNCORE)) &&
        nprb_uncore_unavailable(why, sizeof why))
        for (int e = 0; e < NPRB_N_UNCORE_EVENTS; e++)
            unavailable_row(ctx, nprb_uncore_event_name((enum nprb_uncore_event)e),
                            NPRB_COUNTERS_UNCORE, "socket", why);
    if (!(groups & NPRB_COUNTER_GROUP_BIT(NPRB_COUNTERS_VMSTAT)))
        return;
    struct nprb_vmstat now;
    if (nprb_vmstat_read(NULL, &now) != 0)
        snprintf(why, sizeof why, "/proc/vmstat: %s", strerror(errno));
    for (int f = 0; f < NPRB_N_VMSTAT_FIELDS; f++) {
        if (now.present & (1u << f))
            continue;
        if (now.present != 0)
            snprintf(why, sizeof why, "this kernel's /proc/vmstat has no %s",
                     nprb_vmstat_name((enum nprb_vmstat_field)f));
        unavailable_row(ctx, nprb_vmstat_name((enum nprb_vmstat_field)f), NPRB_COUNTERS_VMSTAT,
                        "system", why);
    }
}
