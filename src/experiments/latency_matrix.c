/* Idle latency: one thread pinned on a core of the CPU node chases a random chain through memory
 * bound to the memory node. */
#include "experiment.h"
#include "kernels/chain.h"
#include "kernels/chase.h"
#include "place.h"
#include "timer.h"
#include "verify.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Slots 256 bytes apart, each load touching the first line of its slot. Adjacent-line and pair
 * prefetchers fetch the neighbour of every missed line (128-byte pairs); with 64-byte slots that
 * neighbour is a slot the chain visits soon within a TLB window, and the figure drops by a
 * quarter here. 256 is multichase's default stride for the same reason. */
#define SLOT_BYTES 256
#define MIN_PLACED_FRAC 0.99
/* Interleave is exact page by page with 4 KiB pages; huge pages move whole 2 MiB blocks (512
 * base pages), so a node may be a block ahead or behind. */
#define INTERLEAVE_SLACK_FRAC 0.05
#define INTERLEAVE_SLACK_PAGES 512

/* The result leaves through a volatile store, so the compiler must keep every load feeding it. */
static void *volatile chase_sink;

static void fill_common(struct nprb_latency_row *row, struct nprb_context *ctx,
                        const struct nprb_plan_item *item)
{
    memset(row, 0, sizeof *row);
    row->rank = ctx->rank;
    row->measurement = ctx->next_measurement++;
    NPRB_SET_TEXT(row->hostname, ctx->hostname);
    NPRB_SET_TEXT(row->experiment, nprb_experiment_name(item->experiment));
    row->cpu_node = (int32_t)nprb_topo_node(ctx->topo, item->cpu_node)->os_index;
    row->mem_node =
        item->mem_node >= 0 ? (int32_t)nprb_topo_node(ctx->topo, item->mem_node)->os_index : -1;
    NPRB_SET_TEXT(row->mem_policy, nprb_mem_policy_name(item->policy));
    row->size_bytes = item->size_bytes;
    NPRB_SET_TEXT(row->pattern, "random");
    row->slot_bytes = SLOT_BYTES;
    row->tlb_window_bytes = ctx->cfg->latency_matrix.tlb_window_bytes;
    row->threads = 1;
    row->latency_ns_min = row->latency_ns_median = row->latency_ns_p90 = NAN;
    row->latency_ns_p99 = row->latency_ns_max = NAN;
    row->huge_page_frac = -1;
    row->pages_on_target_frac = NAN;
}

static enum nprb_status finish(struct nprb_context *ctx, struct nprb_latency_row *row,
                               const char *status, enum nprb_status result)
{
    NPRB_SET_TEXT(row->status, status);
    if (nprb_results_add(ctx->results, NPRB_TABLE_LATENCY, row) != 0)
        return NPRB_ERR_NOMEM;
    return result;
}

/* Doubles the chase length until one sample lasts at least the configured time and 20 clock
 * ticks (STREAM's rule), so timer resolution is under 5% of every sample. */
static uint64_t calibrate_steps(void **head, double sample_s, uint64_t tick_ns)
{
    uint64_t want_ns = (uint64_t)(sample_s * 1e9);
    if (want_ns < 20 * tick_ns)
        want_ns = 20 * tick_ns;
    uint64_t steps = 1024;
    for (;;) {
        uint64_t t0 = nprb_now_ns();
        chase_sink = nprb_chase(head, steps);
        uint64_t dt = nprb_now_ns() - t0;
        if (dt >= want_ns || steps >= (UINT64_C(1) << 40))
            return steps;
        /* Jump close to the target in one step once the timing means something. */
        if (dt > 100 * tick_ns && dt * 2 < want_ns)
            steps = steps * (want_ns / dt + 1);
        else
            steps *= 2;
        steps = (steps + NPRB_CHASE_UNROLL - 1) / NPRB_CHASE_UNROLL * NPRB_CHASE_UNROLL;
    }
}

static enum nprb_status chase_samples(struct nprb_context *ctx, struct nprb_latency_row *row,
                                      void **head)
{
    const struct nprb_latency_config *lc = &ctx->cfg->latency_matrix;
    uint64_t steps = calibrate_steps(head, lc->sample_s, nprb_clock_tick_ns());
    double *ns = malloc((size_t)lc->samples * sizeof *ns);
    if (ns == NULL)
        return NPRB_ERR_NOMEM;
    void *p = head;
    /* Sample 0 is discarded: it pays for whatever the calibration left cold (TLB, caches). */
    for (int s = -1; s < lc->samples; s++) {
        uint64_t t0 = nprb_now_ns();
        p = nprb_chase(p, steps);
        uint64_t dt = nprb_now_ns() - t0;
        if (s >= 0)
            ns[s] = (double)dt / (double)steps;
    }
    chase_sink = p;
    struct nprb_stats st = nprb_stats_of(ns, (size_t)lc->samples);
    free(ns);
    row->samples = lc->samples;
    row->accesses_per_sample = steps;
    row->latency_ns_min = st.min;
    row->latency_ns_median = st.median;
    row->latency_ns_p90 = st.p90;
    row->latency_ns_p99 = st.p99;
    row->latency_ns_max = st.max;
    return NPRB_OK;
}

/* The nodes the policy targets: the bound node, or every node with memory for interleave. */
static int target_nodes(const struct nprb_context *ctx, const struct nprb_plan_item *item,
                        unsigned *nodes)
{
    if (item->mem_node >= 0) {
        nodes[0] = nprb_topo_node(ctx->topo, item->mem_node)->os_index;
        return 1;
    }
    int n = 0;
    for (int i = 0; i < nprb_topo_node_count(ctx->topo); i++)
        if (nprb_topo_node(ctx->topo, i)->memory_bytes > 0)
            nodes[n++] = nprb_topo_node(ctx->topo, i)->os_index;
    return n;
}

/* Whether placement met the policy; if not, says how in @p note. */
static bool placement_ok(const struct nprb_census *census, const unsigned *nodes, int count,
                         enum nprb_mem_policy policy, double on_target, char *note, size_t len)
{
    if (!(on_target >= MIN_PLACED_FRAC)) {
        snprintf(note, len, "only %.1f%% of pages on the target node(s) (need %.0f%%)",
                 100 * on_target, 100 * MIN_PLACED_FRAC);
        return false;
    }
    if (policy != NPRB_MEM_INTERLEAVE)
        return true;
    double expected = (double)census->pages / count;
    for (int i = 0; i < count; i++) {
        double off = (double)census->per_node[nodes[i]] - expected;
        if (off < 0)
            off = -off;
        if (off > INTERLEAVE_SLACK_FRAC * expected + INTERLEAVE_SLACK_PAGES) {
            snprintf(note, len, "interleave uneven: node %u holds %llu pages, expected %.0f",
                     nodes[i], (unsigned long long)census->per_node[nodes[i]], expected);
            return false;
        }
    }
    return true;
}

enum nprb_status nprb_measure_latency_matrix(struct nprb_context *ctx,
                                             const struct nprb_plan_item *item)
{
    struct nprb_latency_row row;
    fill_common(&row, ctx, item);
    if (item->skip_reason[0] != '\0') {
        NPRB_SET_TEXT(row.note, item->skip_reason);
        return finish(ctx, &row, NPRB_ROW_NOT_APPLICABLE, NPRB_OK);
    }
    unsigned pu;
    if (nprb_topo_node_pus(ctx->topo, item->cpu_node, &pu, 1) != 1) {
        NPRB_SET_TEXT(row.note, "no usable core on the CPU node");
        return finish(ctx, &row, NPRB_ROW_NOT_APPLICABLE, NPRB_OK);
    }
    struct nprb_pin pin;
    if (nprb_pin_thread(&pin, nprb_topo_hwloc(ctx->topo), pu) != 0) {
        snprintf(row.note, sizeof row.note, "cannot pin to CPU %u: %s", pu, strerror(errno));
        return finish(ctx, &row, NPRB_ROW_FAILED, NPRB_ERR_SYSTEM);
    }
    enum nprb_status result = NPRB_OK;
    const char *status = NPRB_ROW_OK;
    unsigned targets[NPRB_MAX_NODES];
    int target_count = target_nodes(ctx, item, targets);
    struct nprb_buffer buf;
    if (nprb_buffer_alloc(&buf, item->size_bytes, item->policy, targets, target_count,
                          ctx->cfg->huge_pages, row.note, sizeof row.note) != 0) {
        result = errno == ENOMEM ? NPRB_ERR_NOMEM : NPRB_ERR_SYSTEM;
        status = NPRB_ROW_FAILED;
        goto out_unpin;
    }
    /* Fault the pages in address order first: placement then follows the policy page by page
     * (and THP can assemble huge pages) rather than the random order of the chain. */
    memset(buf.addr, 0, buf.bytes);
    void **head = nprb_chain_build_random(
        buf.addr, buf.bytes, SLOT_BYTES, ctx->cfg->latency_matrix.tlb_window_bytes, ctx->cfg->seed);
    if (head == NULL || nprb_chain_check_permutation(buf.addr, buf.bytes, SLOT_BYTES) != 0) {
        snprintf(row.note, sizeof row.note, "chain construction failed: %s", strerror(errno));
        result = head == NULL ? NPRB_ERR_NOMEM : NPRB_ERR_VALIDATION;
        status = head == NULL ? NPRB_ROW_FAILED : NPRB_ROW_INVALID;
        goto out_free;
    }
    struct nprb_census census;
    bool placed = false;
    if (nprb_census_take(buf.addr, buf.bytes, &census) == 0) {
        row.pages_on_target_frac = nprb_census_fraction_on(&census, targets, target_count);
        nprb_record_placement(ctx, row.measurement, row.experiment, &census);
        placed = placement_ok(&census, targets, target_count, item->policy,
                              row.pages_on_target_frac, row.note, sizeof row.note);
    } else {
        snprintf(row.note, sizeof row.note, "move_pages cannot tell where pages are: %s",
                 strerror(errno));
    }
    row.huge_page_frac = nprb_buffer_huge_fraction(&buf);
    result = chase_samples(ctx, &row, head);
    if (!nprb_pin_holds(&pin)) {
        snprintf(row.note, sizeof row.note, "thread left CPU %u during the chase", pu);
        status = NPRB_ROW_INVALID;
    } else if (!placed) {
        status = NPRB_ROW_INVALID;
    }
out_free:
    nprb_buffer_free(&buf);
out_unpin:
    nprb_unpin_thread(&pin);
    row.valid = strcmp(status, NPRB_ROW_OK) == 0;
    return finish(ctx, &row, status, result);
}
