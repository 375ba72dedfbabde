/* SPDX-License-Identifier: BSD-3-Clause */
#include "plan/plan.h"

#include "plan/descriptor.h"
#include "util/list.h"
#include "util/units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The buffers item @p k finds kept from the items of its experiment just before it: carried
 * from item to item, so that an item's cost never walks back over the others. */
static uint64_t kept_before(const struct nprb_plan *plan, size_t k)
{
    if (k == 0 || plan->items[k - 1].experiment != plan->items[k].experiment)
        return 0;
    const struct nprb_plan_item *before = &plan->items[k - 1];
    uint64_t size = before->skip_reason[0] == '\0' ? before->size_bytes : 0;
    return size > before->kept_bytes ? size : before->kept_bytes;
}

void nprb_plan_settle(struct nprb_plan *plan)
{
    for (size_t k = 0; k < plan->count; k++)
        plan->items[k].kept_bytes = kept_before(plan, k);
}

/* The threads a bandwidth item runs and the nodes whose cores they are, for the time model:
 * threads 0 means one per usable core of its CPU node (every node's: cpu_node -1). A chain is
 * faulted in by every usable core of its CPU node (latency_run.c). */
static void model_team(const struct nprb_topo *topo, struct nprb_plan_item *item)
{
    int threads = 0, nodes = 0;
    for (int i = 0; topo != NULL && i < nprb_topo_node_count(topo); i++) {
        int cores = nprb_topo_node(topo, i)->usable_cores;
        if ((item->cpu_node < 0 || item->cpu_node == i) && cores > 0) {
            threads += cores;
            nodes++;
        }
    }
    item->model_threads = item->threads > 0 ? item->threads : threads > 0 ? threads : 1;
    item->model_nodes = nodes > 0 ? nodes : 1;
    if (item->pattern.desc != NULL && item->repetitions == 0)
        item->model_fault_threads = item->lone_chain ? 1 : threads > 0 ? threads : 1;
    else
        item->model_fault_threads = item->touch == NPRB_TOUCH_SERIAL ? 1 : item->model_threads;
}

/* How much faster @p threads fault new memory in than one. */
static double fault_speedup(int threads)
{
    return threads >= 2 ? NPRB_PLAN_TEAM_FAULT : 1;
}

int nprb_plan_add(struct nprb_planner *p, const struct nprb_plan_item *item)
{
    struct nprb_plan *plan = p->plan;
    /* Doubling: a matrix of a thousand nodes plans millions of items. */
    if (plan->count == plan->capacity) {
        size_t capacity = plan->capacity > 0 ? 2 * plan->capacity : 64;
        struct nprb_plan_item *items = realloc(plan->items, capacity * sizeof *items);
        if (items == NULL) {
            snprintf(p->err, p->errlen, "out of memory building the plan");
            return -1;
        }
        plan->items = items;
        plan->capacity = capacity;
    }
    struct nprb_plan_item *added = &plan->items[plan->count++];
    *added = *item;
    added->kept_bytes = kept_before(plan, plan->count - 1);
    model_team(p->topo, added);
    /* A chase needs two slots or more: a working set below that (a 4 KiB stride over 2 KiB or
     * 4 KiB, from an auto sweep) is no measurement, and its row says so. */
    uint64_t slot = added->pattern.desc != NULL ? nprb_pattern_slot_bytes(&added->pattern) : 0;
    if (slot > 0 && added->skip_reason[0] == '\0' && added->size_bytes / slot < 2) {
        char need[32];
        nprb_format_size(2 * slot, need, sizeof need);
        snprintf(added->skip_reason, sizeof added->skip_reason,
                 "not applicable: a %s chase needs 2 slots, a working set of %s or more",
                 added->pattern.name, need);
    }
    return 0;
}

/* A size that can never fit is a config error, refused before anything runs; a size that does
 * not fit in what happens to be free right now is a run-time failure of that measurement. */
int nprb_plan_check_fits(struct nprb_planner *p, const char *key, uint64_t size, int index)
{
    const struct nprb_node_info *node = nprb_topo_node(p->topo, index);
    if (node == NULL || node->memory_bytes == 0 || size <= node->memory_bytes)
        return 0;
    char want[32], have[32], origin[300];
    nprb_format_size(size, want, sizeof want);
    nprb_format_size(node->memory_bytes >> 20 << 20, have, sizeof have);
    snprintf(p->err, p->errlen, "%s%s %s is larger than NUMA node %u's memory (%s)",
             nprb_config_origin(p->cfg, key, origin, sizeof origin), key, want, node->os_index,
             have);
    return -1;
}

int nprb_plan_first_cpu_node(const struct nprb_topo *topo)
{
    for (int i = 0; i < nprb_topo_node_count(topo); i++)
        if (nprb_node_is_home(nprb_topo_node(topo, i)))
            return i;
    return -1;
}

/* Adds node @p index's os index to the comma list @p buf unless it is there already. */
static void add_node(char *buf, size_t len, const struct nprb_topo *topo, int index)
{
    char one[16];
    if (index < 0)
        snprintf(one, sizeof one, "all");
    else
        snprintf(one, sizeof one, "%u", nprb_topo_node(topo, index)->os_index);
    size_t used = strlen(buf);
    if (nprb_list_has(buf, one))
        return;
    if (used + strlen(one) + 2 < len)
        snprintf(buf + used, len - used, "%s%s", used ? "," : "", one);
}

void nprb_plan_print(FILE *out, const struct nprb_plan *plan, const struct nprb_topo *topo)
{
    fprintf(out, "plan: %zu measurement(s)\n", plan->count);
    for (size_t first = 0, end; first < plan->count; first = end) {
        const struct nprb_experiment *exp = plan->items[first].experiment;
        int pass = plan->items[first].pass;
        uint64_t lo = UINT64_MAX, hi = 0;
        char cpus[128] = "", mems[128] = "";
        const char *skip = NULL;
        size_t skipped = 0;
        for (end = first; end < plan->count && plan->items[end].experiment == exp &&
                          plan->items[end].pass == pass;
             end++) {
            const struct nprb_plan_item *item = &plan->items[end];
            lo = item->size_bytes < lo ? item->size_bytes : lo;
            hi = item->size_bytes > hi ? item->size_bytes : hi;
            if (item->skip_reason[0] != '\0') {
                skip = item->skip_reason;
                skipped++;
                continue;
            }
            add_node(cpus, sizeof cpus, topo, item->cpu_node);
            add_node(mems, sizeof mems, topo, item->mem_node);
        }
        char from[32], to[32];
        nprb_format_size(lo, from, sizeof from);
        nprb_format_size(hi, to, sizeof to);
        char name[48];
        if (pass > 0)
            snprintf(name, sizeof name, "%s pass %d", nprb_experiment_name(exp), pass + 1);
        else
            snprintf(name, sizeof name, "%s", nprb_experiment_name(exp));
        fprintf(out, "  %-17s %4zu  size %s%s%s  CPU nodes %s  memory nodes %s", name, end - first,
                from, lo == hi ? "" : " to ", lo == hi ? "" : to, cpus[0] ? cpus : "-",
                mems[0] ? mems : "-");
        if (skip != NULL)
            fprintf(out, "  (%zu skipped, e.g. %s)", skipped, skip);
        fputc('\n', out);
    }
}

/* The model's rates: new memory faulted in, a buffer's setup work (zeroing it, writing a chain's
 * links) and streaming, per thread up to a node's share of its memory channels. Setting up a
 * fresh buffer then runs at 1.5 GB/s. */
#define FAULT_BPS NPRB_PLAN_FAULT_BPS
#define SETUP_WORK_BPS NPRB_PLAN_SETUP_BPS
#define STREAM_BPS NPRB_PLAN_THREAD_BPS
#define NODE_BPS NPRB_PLAN_NODE_BPS

/* Seconds of one pass of @p item's kernel over its arrays: every array the kernel names, at
 * the threads' rate, no faster than their nodes' memory. */
static double pass_s(const struct nprb_plan_item *item)
{
    const struct nprb_kernel *k = nprb_kernel_get(item->kernel);
    double arrays = k != NULL && k->program_bytes >= 16 ? k->program_bytes / 8.0 : 1;
    int threads = item->model_threads > 0 ? item->model_threads : 1;
    double bps = threads * STREAM_BPS;
    double cap = (item->model_nodes > 0 ? item->model_nodes : 1) * NODE_BPS;
    return arrays * (double)item->size_bytes / (bps < cap ? bps : cap);
}

/* Whether @p item streams a kernel over arrays: then size_bytes is one array's. */
static bool streams(const struct nprb_plan_item *item)
{
    return item->repetitions > 0 && item->pattern.desc == NULL &&
           nprb_kernel_get(item->kernel) != NULL;
}

/* The bytes an item maps for each byte of size_bytes: a stream kernel's every array, and the
 * 4-byte index of a random read. */
static double mapped_per_byte(const struct nprb_plan_item *item)
{
    if (!streams(item))
        return 1;
    const struct nprb_kernel *k = nprb_kernel_get(item->kernel);
    return k->arrays + (k->uses_index ? 0.5 : 0);
}

/* The rate of work an item's whole team does: its streaming rate, no faster than its nodes'
 * memory. */
static double team_bps(const struct nprb_plan_item *item)
{
    int threads = item->model_threads > 0 ? item->model_threads : 1;
    double bps = threads * STREAM_BPS;
    double cap = (item->model_nodes > 0 ? item->model_nodes : 1) * NODE_BPS;
    return bps < cap ? bps : cap;
}

/* Whether @p item chases a chain it links (an index read fills two arrays instead). */
static bool links(const struct nprb_plan_item *item)
{
    return item->pattern.desc != NULL && !item->pattern.desc->indexed && item->repetitions == 0;
}

/* The rate an item's setup work runs at: a stream kernel's arrays are written by its whole team
 * (bandwidth_run.c), at its streaming rate (measured: 9.5 GB/s from one thread and 16 GB/s from
 * two on a kept 768 MiB, bench/README.md "Setting up buffers"); a chain's links, a serial first
 * touch and the rest by one thread. */
static double setup_bps(const struct nprb_plan_item *item)
{
    if (links(item))
        return NPRB_PLAN_LINK_BPS;
    if (!streams(item) || item->touch == NPRB_TOUCH_SERIAL)
        return SETUP_WORK_BPS;
    return team_bps(item);
}

struct nprb_item_cost nprb_plan_item_cost(const struct nprb_plan_item *item)
{
    struct nprb_item_cost cost = {.scaled_s = 1e-3};
    if (item->skip_reason[0] != '\0')
        return cost;
    double bytes = (double)item->size_bytes * mapped_per_byte(item);
    cost.setup_bytes = cost.fault_bytes = bytes + (double)item->extra_bytes;
    /* The extra buffers (loaded_latency's load threads' slices) are faulted in and written by
     * their threads at once. */
    cost.fault_lone_bytes = bytes / fault_speedup(item->model_fault_threads) +
                            (double)item->extra_bytes / fault_speedup(item->model_threads);
    cost.scaled_s += bytes / setup_bps(item) + (double)item->extra_bytes / team_bps(item) +
                     cost.fault_lone_bytes / FAULT_BPS;
    cost.fixed_s = item->samples * item->sample_s + item->extra_s;
    if (item->repetitions > 0) {
        double pass = pass_s(item);
        if (item->sample_s > pass)
            cost.fixed_s += item->repetitions * item->sample_s;
        else
            cost.scaled_s += item->repetitions * pass;
    }
    return cost;
}

/* Whether two items' buffers have one placement: the same policy over the same nodes (a
 * first-touch mapping is never kept: who touched it decides). */
static bool same_placement(const struct nprb_plan_item *a, const struct nprb_plan_item *b)
{
    return a->policy == b->policy && a->mem_node == b->mem_node &&
           a->policy != NPRB_MEM_FIRST_TOUCH && a->own_huge_pages == b->own_huge_pages &&
           a->huge_pages == b->huge_pages && a->skip_reason[0] == '\0';
}

/* Whether @p b finds the chain @p a built: the same chase over the same bytes (latency_run.c
 * keeps it with its mapping; an index read is built anew). One build of parallel chains serves
 * every count: another count only re-joins its pieces (kernels/pattern.c). */
static bool same_chain(const struct nprb_plan_item *a, const struct nprb_plan_item *b)
{
    const struct nprb_pattern_desc *d = a->pattern.desc;
    return d != NULL && d == b->pattern.desc && !d->indexed && a->repetitions == 0 &&
           b->repetitions == 0 && a->size_bytes == b->size_bytes &&
           a->tlb_window_bytes == b->tlb_window_bytes &&
           a->pattern.stride_bytes == b->pattern.stride_bytes &&
           (a->pattern.chains == b->pattern.chains || d->relink != NULL);
}

/* How far back a kept mapping is looked for: the keep holds four (host/place_keep.c). */
#define KEPT_PLACEMENTS 4

struct nprb_item_cost nprb_plan_cost_at(const struct nprb_plan *plan, size_t k)
{
    const struct nprb_plan_item *item = &plan->items[k];
    struct nprb_item_cost cost = nprb_plan_item_cost(item);
    if (!item->experiment->keeps_buffers || cost.fault_bytes == 0)
        return cost;
    /* The experiment's items just before this one, back to the fourth placement: a mapping of
     * this one's placement is still kept, and a chain it holds is reused. */
    const struct nprb_plan_item *found = NULL;
    int placements = 0;
    for (size_t b = k, looked = 0; b-- > 0 && plan->items[b].experiment == item->experiment &&
                                   plan->items[b].pass == item->pass &&
                                   placements < KEPT_PLACEMENTS && looked < 64 && found == NULL;
         looked++) {
        const struct nprb_plan_item *before = &plan->items[b];
        if (before->skip_reason[0] != '\0')
            continue;
        if (same_placement(before, item))
            found = before;
        else
            placements += b + 1 == k || !same_placement(before, &plan->items[b + 1]);
    }
    const struct nprb_plan_item *chain = found != NULL && same_chain(found, item) ? found : NULL;
    if (found == NULL)
        return cost;
    /* A sweep's buffers grow: only growth past the largest point before this one is new, and
     * the arrays a kernel maps beyond the ones the item before it left (triad's b and c after
     * read's a). */
    double kept = (double)item->kept_bytes * mapped_per_byte(found);
    double mapped = (double)item->size_bytes * mapped_per_byte(item);
    double grown = mapped > kept ? mapped - kept : 0;
    /* Extra buffers of the same bytes and placement are kept written (loaded_run.c). */
    bool extra_kept = found->extra_bytes == item->extra_bytes;
    double extra = extra_kept ? 0 : (double)item->extra_bytes;
    double lone = grown / fault_speedup(item->model_fault_threads) +
                  extra / fault_speedup(item->model_threads);
    cost.scaled_s -= (cost.fault_lone_bytes - lone) / FAULT_BPS;
    cost.fault_lone_bytes = lone;
    cost.fault_bytes = grown + extra;
    if (item->extra_bytes > 0 && extra_kept) {
        cost.scaled_s -= (double)item->extra_bytes / team_bps(item);
        cost.setup_bytes -= (double)item->extra_bytes;
    }
    if (chain != NULL) {
        cost.scaled_s -= (double)item->size_bytes / setup_bps(item);
        cost.setup_bytes -= (double)item->size_bytes;
    }
    /* The arrays the same kernel over the same bytes only read are kept holding their starting
     * values (bandwidth_run.c): only what it writes is written again. */
    if (streams(item) && streams(found) && found->kernel == item->kernel &&
        found->size_bytes == item->size_bytes && item->touch == NPRB_TOUCH_THREADED) {
        const struct nprb_kernel *kernel = nprb_kernel_get(item->kernel);
        double unwritten = 0;
        for (unsigned a = 0; a < kernel->arrays; a++)
            unwritten += nprb_kernel_writes(kernel, a) ? 0 : (double)item->size_bytes;
        cost.scaled_s -= unwritten / setup_bps(item);
        cost.setup_bytes -= unwritten;
    }
    return cost;
}

struct nprb_estimate nprb_plan_estimate(const struct nprb_plan *plan, double first_touch_bps)
{
    /* Seconds a byte of new memory costs here beyond the model's. */
    double extra = first_touch_bps > 0 ? 1 / first_touch_bps - 1 / FAULT_BPS : 0;
    double machine = 0, fixed = 0;
    for (size_t k = 0; k < plan->count; k++) {
        struct nprb_item_cost c = nprb_plan_cost_at(plan, k);
        machine += c.scaled_s + c.fault_lone_bytes * extra;
        fixed += c.fixed_s;
    }
    /* A neighbour streaming through the same memory controllers halves what a pass gets, and
     * on a shared VM the observed runs took up to about twice the idle figure's machine-bound
     * part (bench/README.md, "Estimate and time budget"); time by design does not stretch. The
     * low end gives the machine-bound part a fifth back: a run's page faults can beat the rate
     * of the 64 MiB probe they are priced at, and idle runs of quick came in just under it. */
    return (struct nprb_estimate){0.8 * machine + fixed, 2 * machine + fixed};
}

void nprb_plan_print_times(FILE *out, const struct nprb_plan *plan, double first_touch_bps)
{
    for (size_t first = 0; first < plan->count;) {
        const struct nprb_experiment *exp = plan->items[first].experiment;
        /* Every pass of the experiment, wherever the plan put the later ones. */
        struct nprb_plan part = {0};
        struct nprb_estimate sum = {0, 0};
        bool seen_before = false;
        for (size_t k = 0; k < first && !seen_before; k++)
            seen_before = plan->items[k].experiment == exp;
        for (size_t k = first; k < plan->count && !seen_before; k++) {
            if (plan->items[k].experiment != exp)
                continue;
            size_t end = k;
            while (end < plan->count && plan->items[end].experiment == exp)
                end++;
            part.items = &plan->items[k];
            part.count = part.capacity = end - k;
            struct nprb_estimate e = nprb_plan_estimate(&part, first_touch_bps);
            sum.idle_s += e.idle_s;
            sum.busy_s += e.busy_s;
            k = end - 1;
        }
        if (!seen_before) {
            char range[80];
            nprb_format_duration_range(sum.idle_s, sum.busy_s, range, sizeof range);
            fprintf(out, "  %-17s %s\n", nprb_experiment_name(exp), range);
        }
        while (first < plan->count && plan->items[first].experiment == exp)
            first++;
    }
}

void nprb_plan_free(struct nprb_plan *plan)
{
    free(plan->items);
    memset(plan, 0, sizeof *plan);
}
