/* SPDX-License-Identifier: BSD-3-Clause */
/* first_touch: an array read in parallel by every usable core of the host, after it was first
 * written serially from each node in turn, by the threads that read it (the same static
 * schedule), by the wrong threads (a mismatched schedule), interleaved, or bound chunk by chunk.
 * Where the pages landed is verified per thread; the read bandwidth shows what it costs. */
#include "experiments/registry.h"
#include "measure/experiment.h"
#include "plan/items.h"
#include "measure/bandwidth_run.h"

#include <stdio.h>
#include <string.h>

extern const struct nprb_experiment nprb_exp_first_touch;

struct first_touch_config {
    bool enabled;
    uint64_t size_bytes;
    struct nprb_touch_list modes; /**< serial, threaded, mismatched, interleave, bind */
    int repetitions;
    int passes; /**< the bind mode (the host-wide peak) measured this often */
};

#define OFF(field) offsetof(struct first_touch_config, field)
static const struct config_key keys[] = {
    {"enabled", KEY_BOOL, OFF(enabled), "true", 0, 0,
     "where first touch puts pages, and the parallel read bandwidth that follows"},
    {"size", KEY_SIZE, OFF(size_bytes), "256MiB", NPRB_KIB(64), NPRB_TIB(64),
     "array read by every usable core of the host"},
    {"modes", KEY_NAMES(nprb_touch_mode_names), OFF(modes),
     "serial,threaded,mismatched,interleave,bind", 1, 0,
     "serial (one thread on each node in turn writes it all) | threaded (each thread its own "
     "chunk) | mismatched (another thread's chunk) | interleave | bind (each chunk mbind-ed)"},
    {"repetitions", KEY_INT, OFF(repetitions), "5", 2, 100000, "timed repetitions kept per mode"},
    {"passes", KEY_INT, OFF(passes), "3", 1, 5,
     "times the bind mode, every node's cores reading their own node's memory at once (the "
     "host-wide peak), is measured, the later passes spread over the rest of the run"},
};
NPRB_EXPERIMENT_SECTION(section, first_touch, keys, struct first_touch_config);

static int usable_nodes(const struct nprb_topo *topo)
{
    int n = 0;
    for (int i = 0; i < nprb_topo_node_count(topo); i++)
        n += nprb_node_is_home(nprb_topo_node(topo, i));
    return n;
}

/* The buffer's policy under each first-touch mode. */
static const enum nprb_mem_policy touch_policy[NPRB_N_TOUCH_MODES] = {
    [NPRB_TOUCH_THREADED] = NPRB_MEM_FIRST_TOUCH,
    [NPRB_TOUCH_SERIAL] = NPRB_MEM_FIRST_TOUCH,
    [NPRB_TOUCH_MISMATCHED] = NPRB_MEM_FIRST_TOUCH,
    [NPRB_TOUCH_INTERLEAVE] = NPRB_MEM_INTERLEAVE,
    [NPRB_TOUCH_BIND] = NPRB_MEM_BIND,
};

static int add_mode(struct nprb_planner *p, struct nprb_plan_item item, enum nprb_touch_mode mode,
                    int passes)
{
    item.mem_node = -1;
    item.policy = touch_policy[mode];
    item.touch = mode;
    item.passes = mode == NPRB_TOUCH_BIND ? passes : 1; /* the host-wide peak: a headline */
    if (mode != NPRB_TOUCH_SERIAL)
        return nprb_plan_add(p, &item);
    /* Serial: one item per node, whose thread writes everything. */
    for (int i = 0; i < nprb_topo_node_count(p->topo); i++) {
        if (!nprb_node_is_home(nprb_topo_node(p->topo, i)))
            continue;
        item.mem_node = i;
        if (nprb_plan_add(p, &item) != 0)
            return -1;
    }
    return 0;
}

static int plan(struct nprb_planner *p)
{
    const struct first_touch_config *c = nprb_config_section(p->cfg, &section);
    if (c == NULL || !c->enabled)
        return 0;
    struct nprb_plan_item item = {.experiment = &nprb_exp_first_touch,
                                  .cpu_node = -1,
                                  .mem_node = -1,
                                  .policy = NPRB_MEM_FIRST_TOUCH,
                                  .size_bytes = c->size_bytes,
                                  .kernel = NPRB_KERNEL_READ,
                                  .repetitions = c->repetitions};
    int nodes = usable_nodes(p->topo);
    if (!p->host_leader || nodes < 2) {
        if (!p->host_leader)
            snprintf(item.skip_reason, sizeof item.skip_reason,
                     "not applicable: measured by the first rank of this host");
        else
            snprintf(item.skip_reason, sizeof item.skip_reason,
                     "not applicable: %d NUMA node with usable cores and memory; every mode "
                     "places pages on it",
                     nodes);
        return nprb_plan_add(p, &item);
    }
    for (int i = 0; i < nprb_topo_node_count(p->topo); i++)
        if (nprb_node_memory_usable(nprb_topo_node(p->topo, i)) &&
            nprb_plan_check_fits(p, "first_touch.size", c->size_bytes, i) != 0)
            return -1;
    for (int k = 0; k < c->modes.count; k++)
        if (add_mode(p, item, c->modes.mode[k], c->passes) != 0)
            return -1;
    return 0;
}

/* first_touch rows: the headline is the share of pages on the node of the thread that reads
 * them. Serial init must put everything on the writer's node, threaded init and explicit binding
 * everything local to its reader, interleave an even spread; a mismatched schedule is recorded
 * as it lands (its point is the remote traffic it causes). */
static const char *judge(const struct nprb_plan_item *item, const struct nprb_bandwidth_result *res,
                         const unsigned *targets, int target_count, struct nprb_bandwidth_row *row)
{
    row->pages_on_target_frac = res->local_frac;
    if (item->touch == NPRB_TOUCH_SERIAL || item->touch == NPRB_TOUCH_INTERLEAVE)
        return nprb_placement_ok(&res->census, targets, target_count,
                                 item->touch == NPRB_TOUCH_SERIAL ? NPRB_MEM_BIND
                                                                  : NPRB_MEM_INTERLEAVE,
                                 row->note, sizeof row->note)
                   ? NPRB_ROW_OK
                   : NPRB_ROW_INVALID;
    if (item->touch == NPRB_TOUCH_MISMATCHED)
        return NPRB_ROW_OK;
    if (res->local_frac < 0) {
        snprintf(row->note, sizeof row->note,
                 "placement unverified: no page of the threads' chunks reported its node");
        return NPRB_ROW_INVALID;
    }
    if (!(res->local_frac >= 0.99)) {
        snprintf(row->note, sizeof row->note,
                 "only %.1f%% of pages on their reader's node (need 99%%)", 100 * res->local_frac);
        return NPRB_ROW_INVALID;
    }
    return NPRB_ROW_OK;
}

/* First touch decides placement page by page: chunks must not share a page (512 doubles). */
static enum nprb_status measure(struct nprb_context *ctx, const struct nprb_plan_item *item)
{
    static const struct nprb_bandwidth_rules rules = {
        .chunk_align = 512, .per_thread_census = true, .judge = judge};
    return nprb_measure_bandwidth_with_rules(ctx, item, &rules);
}

/* One line per mode: who wrote the array first, the share of pages beside their reader, and the
 * read bandwidth that follows. */
static bool report(FILE *out, const struct nprb_results *rows)
{
    const struct nprb_rows *bw = &rows->tables[NPRB_TABLE_BANDWIDTH];
    bool header = false;
    for (size_t i = 0; i < bw->count; i++) {
        const struct nprb_bandwidth_row *b = nprb_row_at(bw, i);
        if (b->experiment_id != NPRB_EXPERIMENT_FIRST_TOUCH ||
            strcmp(b->status, NPRB_ROW_NOT_APPLICABLE) == 0)
            continue;
        if (!header) {
            fprintf(out,
                    "\nfirst_touch on %s: who writes the array first, where its pages land, "
                    "what the parallel read then gets (%d threads, every node)\n",
                    b->hostname, b->threads);
            fprintf(out, "%-22s %14s %12s  %s\n", "first written by", "beside reader", "read GB/s",
                    "status");
            header = true;
        }
        char mode[48];
        switch (b->init_mode_id) {
        case NPRB_TOUCH_SERIAL:
            snprintf(mode, sizeof mode, "one thread on node %d", b->mem_node);
            break;
        case NPRB_TOUCH_INTERLEAVE:
            snprintf(mode, sizeof mode, "threads, interleaved");
            break;
        case NPRB_TOUCH_BIND:
            snprintf(mode, sizeof mode, "threads, chunks bound");
            break;
        default:
            snprintf(mode, sizeof mode, "threads, %s", b->init_mode);
        }
        char beside[16] = "-"; /* no page of the chunks reported its node */
        if (b->pages_on_target_frac >= 0)
            snprintf(beside, sizeof beside, "%.1f%%", 100 * b->pages_on_target_frac);
        fprintf(out, "%-22s %14s %12.1f  %s\n", mode, beside, b->gbs_best, b->status);
    }
    return header;
}

static const char about[] =
    "an array read in parallel by every core of the host after it was first written by one "
    "thread on each node in turn, by its readers (the kernel's schedule), by the wrong threads "
    "(a mismatched schedule), interleaved, or bound chunk by chunk: where the pages landed (per "
    "reader, verified) and the bandwidth that follows";

const struct nprb_experiment nprb_exp_first_touch = {.id = NPRB_EXPERIMENT_FIRST_TOUCH,
                                                     .table = NPRB_TABLE_BANDWIDTH,
                                                     .about = about,
                                                     .plan = plan,
                                                     .measure = measure,
                                                     .config = &section,
                                                     .report = report,
                                                     .priority = NPRB_PRIORITY_PER_NODE};
