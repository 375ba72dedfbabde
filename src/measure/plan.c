/* SPDX-License-Identifier: BSD-3-Clause */
#include "measure/plan.h"

#include "measure/descriptor.h"
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
 * links) and a pass over it. Setting up a fresh buffer then runs at 1.5 GB/s. */
#define FAULT_BPS NPRB_PLAN_FAULT_BPS
#define SETUP_WORK_BPS 3e9
#define STREAM_BPS 5e9

struct nprb_item_cost nprb_plan_item_cost(const struct nprb_plan_item *item)
{
    struct nprb_item_cost cost = {.scaled_s = 1e-3};
    if (item->skip_reason[0] != '\0')
        return cost;
    double bytes = (double)item->size_bytes;
    cost.setup_bytes = cost.fault_bytes = bytes + (double)item->extra_bytes;
    cost.scaled_s += cost.setup_bytes / SETUP_WORK_BPS + cost.fault_bytes / FAULT_BPS;
    cost.fixed_s = item->samples * item->sample_s + item->extra_s;
    if (item->repetitions > 0) {
        double pass = bytes / STREAM_BPS;
        if (item->sample_s > pass)
            cost.fixed_s += item->repetitions * item->sample_s;
        else
            cost.scaled_s += item->repetitions * pass;
    }
    return cost;
}

struct nprb_item_cost nprb_plan_cost_at(const struct nprb_plan *plan, size_t k)
{
    const struct nprb_plan_item *item = &plan->items[k];
    struct nprb_item_cost cost = nprb_plan_item_cost(item);
    if (!item->experiment->keeps_buffers || cost.fault_bytes == 0)
        return cost;
    /* A sweep's buffers are kept between its points: only growth past the largest point before
     * this one is new memory. */
    uint64_t largest = item->kept_bytes;
    double grown = item->size_bytes > largest ? (double)(item->size_bytes - largest) : 0;
    cost.scaled_s -= (cost.fault_bytes - grown) / FAULT_BPS;
    cost.fault_bytes = grown;
    return cost;
}

struct nprb_estimate nprb_plan_estimate(const struct nprb_plan *plan, double first_touch_bps)
{
    /* Seconds a byte of new memory costs here beyond the model's. */
    double extra = first_touch_bps > 0 ? 1 / first_touch_bps - 1 / FAULT_BPS : 0;
    double machine = 0, fixed = 0;
    for (size_t k = 0; k < plan->count; k++) {
        struct nprb_item_cost c = nprb_plan_cost_at(plan, k);
        machine += c.scaled_s + c.fault_bytes * extra;
        fixed += c.fixed_s;
    }
    /* A neighbour streaming through the same memory controllers halves what a pass gets, and
     * on a shared VM the observed runs took up to about twice the idle figure's machine-bound
     * part (bench/README.md, "Estimate and time budget"); time by design does not stretch. */
    return (struct nprb_estimate){machine + fixed, 2 * machine + fixed};
}

void nprb_plan_free(struct nprb_plan *plan)
{
    free(plan->items);
    memset(plan, 0, sizeof *plan);
}
