/* SPDX-License-Identifier: BSD-3-Clause */
/* max_bandwidth: every node's cores streaming at once, as Intel MLC's --max_bandwidth does, in
 * two layouts: each node its own memory (the host's aggregate), and each node the memory of node
 * (i + N/2) mod N (every link between nodes loaded together, which a matrix, one cell at a time,
 * never does). Besides the whole run's figure, each node gets its own: its cores' share of the
 * bytes over its slowest thread's time, while every other node streamed too, so a node with a
 * dead channel shows under full load. */
#include "experiments/registry.h"
#include "measure/experiment.h"
#include "measure/bandwidth_run.h"
#include "report/figure.h"
#include "results/contract.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

extern const struct nprb_experiment nprb_exp_max_bandwidth;

struct max_bandwidth_config {
    bool enabled;
    struct nprb_kernel_list kernels;
    bool link;
    uint64_t size_bytes;
    int repetitions;
    int passes; /**< each run measured this often, the later passes spread over the run */
};

#define OFF(field) offsetof(struct max_bandwidth_config, field)
static const struct config_key keys[] = {
    {"enabled", KEY_BOOL, OFF(enabled), "false", 0, 0,
     "every node's cores streaming at once: the host's aggregate, and every link loaded together"},
    {"kernels", KEY_NAMES(nprb_kernel_names), OFF(kernels), "read,triad", 1, 0,
     "kernels measured in each layout (read, the mixes, triad, ...: numaprobe --kernels)"},
    {"link", KEY_BOOL, OFF(link), "true", 0, 0,
     "also every node's cores streaming the memory of node (i + N/2) mod N, all at once"},
    {"size", KEY_SIZE, OFF(size_bytes), "256MiB", NPRB_KIB(64), NPRB_TIB(64),
     "each array's part on each node (the arrays span every node)"},
    {"repetitions", KEY_INT, OFF(repetitions), "5", 2, 100000,
     "timed repetitions kept per measurement"},
    {"passes", KEY_INT, OFF(passes), "3", 1, 5,
     "times each run (its row and its nodes' rows) is measured, the later passes spread over "
     "the rest of the run: its uncertainty then covers what changes over the run"},
};
NPRB_EXPERIMENT_SECTION(section, max_bandwidth, keys, struct max_bandwidth_config);

/* An item's own parameters: which layout, the class its whole row gives the pairs, and the
 * nodes with memory and no cores of their own that no layout loads (how many, the first few). */
#define SHOWN_LEFT_OUT 3
struct layout {
    bool link;
    enum nprb_pair_class pair_class; /* local; for the link the pairs' class, or mixed */
    uint8_t left_out;
    uint16_t left_out_os[SHOWN_LEFT_OUT];
};

/* The nodes whose memory the run may bind but no node's cores would load: memory-only nodes
 * (CXL, an accelerator's HBM). Each layout pairs a node's cores with one node's memory, so
 * their memory is in neither; the aggregate says so rather than leaving them out unseen. */
static void note_left_out(const struct nprb_topo *topo, struct layout *layout)
{
    layout->left_out = 0;
    for (int i = 0; i < nprb_topo_node_count(topo); i++) {
        const struct nprb_node_info *node = nprb_topo_node(topo, i);
        if (!nprb_node_memory_usable(node) || node->usable_cores > 0 || layout->left_out == 255)
            continue;
        if (layout->left_out < SHOWN_LEFT_OUT)
            layout->left_out_os[layout->left_out] = (uint16_t)node->os_index;
        layout->left_out++;
    }
}

/* The nodes with usable cores and memory, by logical index, in order. */
static int home_nodes(const struct nprb_topo *topo, int *home)
{
    int n = 0;
    for (int i = 0; i < nprb_topo_node_count(topo); i++)
        if (nprb_node_is_home(nprb_topo_node(topo, i)))
            home[n++] = i;
    return n;
}

/* The logical node whose memory home node k of n streams in the link layout. */
static int link_partner(const int *home, int n, int k)
{
    return home[(k + n / 2) % n];
}

static unsigned link_memory_node(const struct nprb_topo *topo, unsigned reader)
{
    int home[NPRB_MAX_NODES], n = home_nodes(topo, home);
    int from = nprb_topo_node_index(topo, reader);
    for (int k = 0; k < n; k++)
        if (home[k] == from)
            return nprb_topo_node(topo, link_partner(home, n, k))->os_index;
    return reader; /* not a home node: planned out, so never asked */
}

static enum nprb_pair_class link_class(const struct nprb_topo *topo, const int *home, int n)
{
    enum nprb_pair_class first = nprb_topo_pair_class(topo, home[0], link_partner(home, n, 0));
    for (int k = 1; k < n; k++)
        if (nprb_topo_pair_class(topo, home[k], link_partner(home, n, k)) != first)
            return NPRB_PAIR_MIXED;
    return first;
}

/* Why the host cannot run the layouts, or NULL: a node whose cores have no memory of their own
 * would have nothing local to read, and the run is the first rank's alone. */
static const char *cannot(const struct nprb_planner *p, char *why, size_t len)
{
    if (!p->host_leader)
        return "not applicable: measured by the first rank of this host";
    for (int i = 0; i < nprb_topo_node_count(p->topo); i++) {
        const struct nprb_node_info *node = nprb_topo_node(p->topo, i);
        if (node->usable_cores > 0 && !nprb_node_is_home(node)) {
            snprintf(why, len, "not applicable: node %u has usable cores but no usable memory",
                     node->os_index);
            return why;
        }
    }
    return NULL;
}

static int plan(struct nprb_planner *p)
{
    const struct max_bandwidth_config *c = nprb_config_section(p->cfg, &section);
    if (c == NULL || !c->enabled)
        return 0;
    int home[NPRB_MAX_NODES], n = home_nodes(p->topo, home);
    struct nprb_plan_item item = {.experiment = &nprb_exp_max_bandwidth,
                                  .cpu_node = -1,
                                  .mem_node = -1,
                                  .policy = NPRB_MEM_BIND,
                                  .touch = NPRB_TOUCH_BIND,
                                  .size_bytes = c->size_bytes * (uint64_t)(n > 0 ? n : 1),
                                  .repetitions = c->repetitions,
                                  .passes = c->passes};
    char why[sizeof item.skip_reason];
    const char *skip = cannot(p, why, sizeof why);
    if (skip == NULL && n == 0)
        skip = "not applicable: no node with both usable cores and memory";
    for (int k = 0; skip == NULL && k < n; k++)
        if (nprb_plan_check_fits(p, "max_bandwidth.size", c->size_bytes, home[k]) != 0)
            return -1;
    for (int k = 0; k < c->kernels.count; k++) {
        item.kernel = c->kernels.id[k];
        struct layout local = {.link = false, .pair_class = NPRB_PAIR_LOCAL};
        note_left_out(p->topo, &local);
        NPRB_ITEM_SET_OWN(&item, local);
        snprintf(item.skip_reason, sizeof item.skip_reason, "%s", skip != NULL ? skip : "");
        if (nprb_plan_add(p, &item) != 0)
            return -1;
        if (!c->link)
            continue;
        struct layout link = {.link = true, .pair_class = NPRB_PAIR_NONE};
        note_left_out(p->topo, &link);
        if (skip != NULL)
            snprintf(item.skip_reason, sizeof item.skip_reason, "%s", skip);
        else if (n < 2)
            snprintf(item.skip_reason, sizeof item.skip_reason,
                     "not applicable: %d NUMA node with usable cores and memory: no link between "
                     "nodes to load",
                     n);
        else
            link.pair_class = link_class(p->topo, home, n);
        NPRB_ITEM_SET_OWN(&item, link);
        if (nprb_plan_add(p, &item) != 0)
            return -1;
    }
    return 0;
}

/* The whole run's row: its layout's class, and every chunk's pages on the node it was bound to
 * (each node's row is judged on its own chunks by the engine). */
static const char *judge(const struct nprb_plan_item *item, const struct nprb_bandwidth_result *res,
                         const unsigned *targets, int target_count, struct nprb_bandwidth_row *row)
{
    (void)targets;
    (void)target_count;
    struct layout layout;
    NPRB_ITEM_GET_OWN(layout, item);
    NPRB_SET_PAIR_CLASS(row, layout.pair_class);
    row->pages_on_target_frac = res->local_frac;
    if (res->local_frac < 0) {
        snprintf(row->note, sizeof row->note,
                 "placement unverified: no page of the chunks reported its node");
        return NPRB_ROW_INVALID;
    }
    if (!(res->local_frac >= 0.99)) {
        snprintf(row->note, sizeof row->note,
                 "only %.1f%% of pages on the node they were bound to (need 99%%)",
                 100 * res->local_frac);
        return NPRB_ROW_INVALID;
    }
    if (row->note[0] == '\0')
        snprintf(row->note, sizeof row->note, "%s",
                 layout.link ? "every node's cores on node (i + N/2) mod N's memory, at once"
                             : "every node's cores on their own node's memory, at once");
    if (layout.left_out > 0) {
        char nodes[48] = "";
        for (int k = 0; k < layout.left_out && k < SHOWN_LEFT_OUT; k++) {
            size_t used = strlen(nodes);
            snprintf(nodes + used, sizeof nodes - used, "%s%u", k ? "," : "",
                     (unsigned)layout.left_out_os[k]);
        }
        size_t used = strlen(row->note);
        snprintf(row->note + used, sizeof row->note - used,
                 "; not loaded: memory-only node%s %s%s (no cores; the matrices measure %s)",
                 layout.left_out > 1 ? "s" : "", nodes,
                 layout.left_out > SHOWN_LEFT_OUT ? ",..." : "",
                 layout.left_out > 1 ? "them" : "it");
    }
    return NPRB_ROW_OK;
}

/* Chunks on page boundaries, so each is bound to its node whole. */
static enum nprb_status measure(struct nprb_context *ctx, const struct nprb_plan_item *item)
{
    static const struct nprb_bandwidth_rules local = {
        .chunk_align = 512, .per_thread_census = true, .node_rows = true, .judge = judge};
    static const struct nprb_bandwidth_rules link = {.chunk_align = 512,
                                                     .per_thread_census = true,
                                                     .memory_node = link_memory_node,
                                                     .node_rows = true,
                                                     .judge = judge};
    struct layout layout;
    NPRB_ITEM_GET_OWN(layout, item);
    return nprb_measure_bandwidth_with_rules(ctx, item, layout.link ? &link : &local);
}

static bool whole_row(const struct nprb_bandwidth_row *b)
{
    return b->experiment_id == NPRB_EXPERIMENT_MAX_BANDWIDTH && b->cpu_node < 0 &&
           strcmp(b->status, NPRB_ROW_OK) == 0;
}

static bool node_row_of_run(const struct nprb_bandwidth_row *b)
{
    return b->experiment_id == NPRB_EXPERIMENT_MAX_BANDWIDTH && b->cpu_node >= 0;
}

/* The host-wide figures that stand beside it: first_touch's bound read, and the DIMMs' peak. */
static void print_beside(FILE *out, const struct nprb_results *rows)
{
    const struct nprb_rows *bw = &rows->tables[NPRB_TABLE_BANDWIDTH];
    const struct nprb_rows *hosts = &rows->tables[NPRB_TABLE_HOSTS];
    char first_touch[32] = "not measured", peak[48] = "unknown (no DIMM speed)";
    for (size_t i = 0; i < bw->count; i++) {
        const struct nprb_bandwidth_row *b = nprb_row_at(bw, i);
        if (b->experiment_id == NPRB_EXPERIMENT_FIRST_TOUCH && b->kernel_id == NPRB_KERNEL_READ &&
            strcmp(b->status, NPRB_ROW_OK) == 0 && b->init_mode_id == NPRB_TOUCH_BIND)
            snprintf(first_touch, sizeof first_touch, "%.1f GB/s", b->gbs_best);
    }
    if (hosts->count > 0 && ((const struct nprb_host_row *)nprb_row_at(hosts, 0))->peak_gbs > 0)
        snprintf(peak, sizeof peak, "%.1f GB/s",
                 ((const struct nprb_host_row *)nprb_row_at(hosts, 0))->peak_gbs);
    fprintf(out, "  beside: first_touch's read with chunks bound %s; theoretical peak %s\n",
            first_touch, peak);
}

/* The memory-only nodes of the rank's topology (note_left_out's, from its /numa_nodes rows). */
static void print_left_out(FILE *out, const struct nprb_results *rows)
{
    const struct nprb_rows *nodes = &rows->tables[NPRB_TABLE_NUMA_NODES];
    char list[96] = "";
    int count = 0;
    for (size_t i = 0; i < nodes->count; i++) {
        const struct nprb_numa_node_row *n = nprb_row_at(nodes, i);
        if (n->memory_bytes == 0 || !n->mem_allowed || n->usable_cores > 0)
            continue;
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%d", count++ ? "," : "", (int)n->node);
    }
    if (count > 0)
        fprintf(out,
                "  not loaded by either layout: memory-only node%s %s (no cores of %s own; the "
                "matrices, mlp and injection measure %s from every node)\n",
                count > 1 ? "s" : "", list, count > 1 ? "their" : "its", count > 1 ? "them" : "it");
}

/* Its part of every host's block: one line per kernel and layout, the whole run's GB/s and each
 * node's share of it. */
static bool host_report(FILE *out, const struct nprb_results *rows)
{
    const struct nprb_rows *bw = &rows->tables[NPRB_TABLE_BANDWIDTH];
    bool header = false;
    for (size_t i = 0; i < bw->count; i++) {
        const struct nprb_bandwidth_row *whole = nprb_row_at(bw, i);
        if (!whole_row(whole))
            continue;
        if (!header)
            fprintf(out,
                    "  max_bandwidth: every node's cores streaming at once (%d threads; GB/s, "
                    "best; each node's cores: their share over their slowest thread's time)\n",
                    whole->threads);
        header = true;
        /* The node rows follow their whole run's row; in the link layout they cross nodes. */
        size_t last = i;
        bool link = false;
        while (last + 1 < bw->count && node_row_of_run(nprb_row_at(bw, last + 1))) {
            const struct nprb_bandwidth_row *node = nprb_row_at(bw, ++last);
            link |= node->cpu_node != node->mem_node;
        }
        char gbs[48];
        nprb_figure_text(gbs, sizeof gbs, whole->gbs_best, 1, "",
                         nprb_bandwidth_uncertainty_pct(whole));
        fprintf(out, "  %-10s %-24s %-18s", whole->kernel,
                link ? "node i -> (i+N/2) mod N" : "each node its own", gbs);
        for (size_t k = i + 1; k <= last; k++) {
            const struct nprb_bandwidth_row *node = nprb_row_at(bw, k);
            fprintf(out, " %d->%d %.1f", node->cpu_node, node->mem_node, node->gbs_best);
        }
        fputc('\n', out);
    }
    if (header) {
        print_left_out(out, rows);
        print_beside(out, rows);
    }
    return header;
}

static const char about[] =
    "every node's cores streaming at once (Intel MLC's `--max_bandwidth`): each node on its own "
    "memory (the host's aggregate), and each node i on node (i + N/2) mod N's memory (every link "
    "between nodes loaded together, which the matrix, one cell at a time, never does); kernels "
    "`read` and `triad` (`full.yaml`: also `mix_2to1`, `mix_1to1`); each run is one row, "
    "followed by one row per node measured in the same run (its cores' share of the bytes over "
    "its slowest thread's time, so a node that falls short under full load shows); the report "
    "puts both beside `first_touch`'s host-wide read and the theoretical peak; in `default.yaml` "
    "and `full.yaml`, off in `quick` (`/bandwidth`, experiment `max_bandwidth`)";

const struct nprb_experiment nprb_exp_max_bandwidth = {.id = NPRB_EXPERIMENT_MAX_BANDWIDTH,
                                                       .table = NPRB_TABLE_BANDWIDTH,
                                                       .about = about,
                                                       .plan = plan,
                                                       .measure = measure,
                                                       .config = &section,
                                                       .host_report = host_report,
                                                       .priority = NPRB_PRIORITY_PER_NODE};
