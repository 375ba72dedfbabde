/* SPDX-License-Identifier: BSD-3-Clause */
/* After latency_sweep: the cache capacities its random-chase curve shows, set beside hwloc's,
 * and their stdout section, which latency_sweep's own section prints below its curves. Not an
 * experiment (nothing is planned or measured for it: latency_sweep's descriptor records it from
 * its rows after its last item, after_last_item).
 * A cache holds the lines the chase touches, not its span: the random chase reads one 64 B line
 * per slot (256 B apart, so no adjacent-line prefetch helps it), so a 128 KiB chase occupies
 * 32 KiB of cache. Levels are judged on those lines; the curve's sizes stay spans. */
#include "measure/experiment.h"
#include "measure/latency_run.h"
#include "util/sweep.h"
#include "util/units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A step in latency of 30% or more between neighbouring sizes marks a level. */
#define LEVEL_RISE 1.3

struct point {
    uint64_t size; /* cache lines touched, in bytes */
    uint64_t span; /* the chase's working set */
    double ns;
};

static int by_size(const void *a, const void *b)
{
    uint64_t x = ((const struct point *)a)->size, y = ((const struct point *)b)->size;
    return (x > y) - (x < y);
}

static int collect(const struct nprb_context *ctx, struct point *pts, int cap)
{
    const struct nprb_rows *lat = &ctx->results->tables[NPRB_TABLE_LATENCY];
    int n = 0, node = -1;
    for (size_t i = 0; i < lat->count && n < cap; i++) {
        const struct nprb_latency_row *l = nprb_row_at(lat, i);
        /* One curve: the first sweeping node's own memory (pairs: all and from: every add
         * curves of other pairs, whose caches are the same but whose memory is not). */
        if (l->experiment_id == NPRB_EXPERIMENT_LATENCY_SWEEP &&
            strcmp(l->pattern, "random") == 0 && strcmp(l->status, NPRB_ROW_OK) == 0 &&
            l->cpu_node == l->mem_node && (node < 0 || l->cpu_node == node)) {
            node = l->cpu_node;
            pts[n].size = l->size_bytes / nprb_latency_span_per_line(l->slot_bytes);
            pts[n].span = l->size_bytes;
            pts[n].ns = l->latency_ns_median;
            n++;
        }
    }
    qsort(pts, (size_t)n, sizeof *pts, by_size);
    return n;
}

/* The sweep size whose chase touches @p lines bytes of lines, formatted (ratio of the last point).
 */
static const char *span_for(uint64_t lines, const struct point *pts, int n, char *buf, size_t len)
{
    uint64_t per_line = pts[n - 1].size > 0 ? pts[n - 1].span / pts[n - 1].size : 1;
    nprb_format_size(lines * per_line, buf, len);
    return buf;
}

void nprb_record_cache_levels(struct nprb_context *ctx)
{
    struct point pts[NPRB_MAX_LIST];
    int n = collect(ctx, pts, NPRB_MAX_LIST);
    if (n < 3)
        return;
    uint64_t sizes[NPRB_MAX_LIST];
    double ns[NPRB_MAX_LIST];
    for (int i = 0; i < n; i++) {
        sizes[i] = pts[i].size;
        ns[i] = pts[i].ns;
    }
    const struct nprb_topo_summary *s = nprb_topo_summary(ctx->topo);
    const uint64_t hwloc[3] = {s->l1d_bytes, s->l2_bytes, s->l3_bytes};
    for (int level = 1; level <= 3; level++) {
        uint64_t want = hwloc[level - 1];
        if (want == 0)
            continue;
        struct nprb_cache_level_row row = {
            .rank = ctx->rank, .level = level, .hwloc_bytes = want, .agrees = -1};
        char hw[32], seen[32];
        nprb_format_size(want, hw, sizeof hw);
        /* Only a sweep with points well below and above a level can show it. */
        uint64_t step;
        double rise;
        bool spans = sizes[0] <= want / 2 && sizes[n - 1] >= want * 2;
        if (!spans || nprb_step_near(sizes, ns, n, want, &step, &rise) != 0) {
            if (!spans)
                snprintf(row.note, sizeof row.note,
                         "not judged: the chase's lines do not span it (sweep to %s or more)",
                         span_for(want * 2, pts, n, seen, sizeof seen));
            else
                snprintf(row.note, sizeof row.note,
                         "not judged: no two sweep points around it at most 4x apart");
            nprb_results_add(ctx->results, NPRB_TABLE_CACHE_LEVELS, &row);
            continue;
        }
        for (int i = 0; i < n; i++)
            if (sizes[i] == step)
                row.latency_ns_below = ns[i];
        nprb_format_size(step, seen, sizeof seen);
        double off = step > want ? (double)step / (double)want : (double)want / (double)step;
        row.agrees = rise >= LEVEL_RISE && off <= 2.0;
        if (rise >= LEVEL_RISE)
            row.measured_bytes = step;
        if (row.agrees)
            snprintf(row.note, sizeof row.note, "agrees: latency rises %.1fx after %s of lines",
                     rise, seen);
        else if (rise < LEVEL_RISE)
            snprintf(row.note, sizeof row.note,
                     "hwloc reports %s but latency rises at most %.2fx between %s/4 and 4x%s", hw,
                     rise, hw, hw);
        else
            snprintf(row.note, sizeof row.note,
                     "hwloc reports %s but the largest step near it is after %s of lines", hw,
                     seen);
        if (!row.agrees)
            NPRB_WARN(ctx->log, "L%d on %s: %s (the measured curve is the better guide)", level,
                      ctx->hostname, row.note);
        nprb_results_add(ctx->results, NPRB_TABLE_CACHE_LEVELS, &row);
    }
}

bool nprb_cache_levels_report(FILE *out, const struct nprb_results *rows)
{
    const struct nprb_rows *lv = &rows->tables[NPRB_TABLE_CACHE_LEVELS];
    if (lv->count == 0)
        return false;
    fprintf(out, "\ncache levels: hwloc's sizes beside the steps the random-chase curve shows\n");
    fprintf(out, "%-6s %10s %12s %12s  %s\n", "level", "hwloc", "measured", "ns below", "");
    for (size_t i = 0; i < lv->count; i++) {
        const struct nprb_cache_level_row *c = nprb_row_at(lv, i);
        char hw[32], seen[32];
        nprb_format_size(c->hwloc_bytes, hw, sizeof hw);
        if (c->measured_bytes > 0)
            nprb_format_size(c->measured_bytes, seen, sizeof seen);
        else
            snprintf(seen, sizeof seen, "-");
        fprintf(out, "L%-5d %10s %12s %12.2f  %s\n", c->level, hw, seen, c->latency_ns_below,
                c->note);
    }
    return true;
}
