/* SPDX-License-Identifier: BSD-3-Clause */
/* page_size: what the TLB costs. From one core of the first CPU node, on its local memory, the
 * random chase over the whole working set (/latency) and a read stream over as many bytes
 * (/bandwidth), once per page size: 4 KiB pages (THP off), transparent huge pages (THP on) and
 * 2 MiB hugetlbfs pages. The rows' page_bytes and huge_page_frac say what backed each buffer.
 * hugetlbfs pages come from a pool the administrator reserves (vm.nr_hugepages): when it is too
 * small for the working set, the rows say so (not applicable), never a fallback to other pages.
 * Its config keys and struct, its plan, its measure and its stdout section are all here. */
#include "experiments/registry.h"
#include "measure/experiment.h"
#include "plan/items.h"
#include "util/units.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

extern const struct nprb_experiment nprb_exp_page_size;

struct page_size_config {
    bool enabled;
    uint64_t size_bytes; /**< the chase's working set and the read array */
    int samples;         /**< timed chase samples kept */
    double sample_s;     /**< minimum length of one chase sample */
    int threads;         /**< threads of the read (0: every usable core of the node) */
    int repetitions;     /**< timed repetitions of the read kept */
};

#define OFF(field) offsetof(struct page_size_config, field)
static const struct config_key keys[] = {
    {"enabled", KEY_BOOL, OFF(enabled), "true", 0, 0,
     "the chase and a read with 4 KiB, transparent huge and hugetlb pages side by side: what the "
     "TLB costs"},
    {"size", KEY_SIZE, OFF(size_bytes), "128MiB", INT64_C(2) << 20, INT64_C(64) << 40,
     "working set of the chase and the read, in the first CPU node's memory (past the reach of "
     "the TLB with 4 KiB pages, 12 MiB or less on current CPUs; hugetlb needs as many 2 MiB "
     "pages free in the node's pool)"},
    {"samples", KEY_INT, OFF(samples), "11", 3, 100000, "timed chase samples kept per page size"},
    {"sample_time", KEY_DURATION, OFF(sample_s), "2ms", 0, 0, "minimum length of one sample"},
    {"threads", KEY_THREADS, OFF(threads), "1", 1, 4096,
     "threads of the read: a number or all (one per usable core of the node)"},
    {"repetitions", KEY_INT, OFF(repetitions), "3", 2, 100000,
     "timed repetitions of the read kept per page size"},
};
NPRB_EXPERIMENT_SECTION(section, page_size, keys, struct page_size_config);

/* The page sizes, in the order of the plan and of the report's lines. */
static const struct {
    enum nprb_thp_mode mode;
    const char *label;
} modes[] = {
    {NPRB_THP_OFF, "4 KiB (THP off)"},
    {NPRB_THP_ON, "THP (madvise)"},
    {NPRB_THP_HUGETLB, "hugetlb 2 MiB"},
};
#define N_MODES (sizeof modes / sizeof modes[0])

static int plan(struct nprb_planner *p)
{
    const struct page_size_config *c = nprb_config_section(p->cfg, &section);
    if (c == NULL || !c->enabled)
        return 0;
    struct nprb_plan_item item = {.experiment = &nprb_exp_page_size,
                                  .policy = NPRB_MEM_BIND,
                                  .size_bytes = c->size_bytes,
                                  .own_huge_pages = true};
    item.cpu_node = item.mem_node = nprb_sweep_node(p, item.skip_reason, sizeof item.skip_reason);
    if (nprb_plan_check_fits(p, "page_size.size", c->size_bytes, item.mem_node) != 0)
        return -1;
    /* The random chase with no TLB window: every access may land on another page. */
    char why[160];
    if (nprb_pattern_parse("random", &item.pattern, why, sizeof why) != 0) {
        snprintf(p->err, p->errlen, "page_size: %s", why);
        return -1;
    }
    for (size_t m = 0; m < N_MODES; m++) {
        struct nprb_plan_item chase = item, read = item;
        chase.huge_pages = read.huge_pages = modes[m].mode;
        chase.threads = 1;
        chase.samples = c->samples;
        chase.sample_s = c->sample_s;
        read.kernel = NPRB_KERNEL_READ;
        read.threads = c->threads;
        read.repetitions = c->repetitions;
        if (nprb_plan_add(p, &chase) != 0 || nprb_plan_add(p, &read) != 0)
            return -1;
    }
    return 0;
}

/* The chase items have samples, the read items repetitions. A hugetlbfs pool too small for the
 * item is a fact of the host, said in a not-applicable row, not a failure of the run. */
static enum nprb_status measure(struct nprb_context *ctx, const struct nprb_plan_item *item)
{
    struct nprb_plan_item it = *item;
    if (it.skip_reason[0] == '\0' && it.huge_pages == NPRB_THP_HUGETLB) {
        unsigned node = nprb_topo_node(ctx->topo, it.mem_node)->os_index;
        uint64_t need = (it.size_bytes + (UINT64_C(2) << 20) - 1) >> 21;
        uint64_t free_pages = nprb_node_free_hugepages(node);
        if (free_pages < need)
            snprintf(it.skip_reason, sizeof it.skip_reason,
                     "not applicable: node %u's hugetlbfs pool has %llu free 2 MiB pages, %llu "
                     "needed (vm.nr_hugepages)",
                     node, (unsigned long long)free_pages, (unsigned long long)need);
    }
    return it.samples > 0 ? nprb_measure_latency(ctx, &it) : nprb_measure_bandwidth(ctx, &it);
}

/* One line per page size: the chase's median, the read's best, and what backed the chase's
 * buffer: its base page (page_bytes) and its share in transparent huge pages (huge_page_frac).
 * Rows come in plan order, so the k-th of each table is modes[k]. */
static bool report(FILE *out, const struct nprb_results *rows)
{
    const struct nprb_rows *lat = &rows->tables[NPRB_TABLE_LATENCY];
    const struct nprb_rows *bw = &rows->tables[NPRB_TABLE_BANDWIDTH];
    const struct nprb_latency_row *chase[N_MODES] = {0};
    const struct nprb_bandwidth_row *read[N_MODES] = {0};
    size_t nc = 0, nr = 0;
    bool any = false;
    for (size_t i = 0; i < lat->count && nc < N_MODES; i++) {
        const struct nprb_latency_row *l = nprb_row_at(lat, i);
        if (l->experiment_id == NPRB_EXPERIMENT_PAGE_SIZE) {
            chase[nc++] = l;
            any |= strcmp(l->status, NPRB_ROW_OK) == 0;
        }
    }
    for (size_t i = 0; i < bw->count && nr < N_MODES; i++) {
        const struct nprb_bandwidth_row *b = nprb_row_at(bw, i);
        if (b->experiment_id == NPRB_EXPERIMENT_PAGE_SIZE)
            read[nr++] = b;
    }
    if (!any)
        return false;
    char size[32];
    nprb_format_size(chase[0]->size_bytes, size, sizeof size);
    fprintf(out,
            "\npage_size on %s: one core of node %d, local memory, %s: the random chase and a "
            "read (%d thread(s)) by page size\n",
            chase[0]->hostname, (int)chase[0]->cpu_node, size, nr > 0 ? read[0]->threads : 0);
    fprintf(out, "%-16s %11s %10s %6s %7s  %s\n", "pages", "latency ns", "read GB/s", "page",
            "in THP", "status");
    for (size_t m = 0; m < nc; m++) {
        const struct nprb_latency_row *l = chase[m];
        const struct nprb_bandwidth_row *b = m < nr ? read[m] : NULL;
        double gbs = b != NULL && strcmp(b->status, NPRB_ROW_OK) == 0 ? b->gbs_best : NAN;
        char page[32] = "-", frac[16] = "-";
        if (l->page_bytes > 0)
            nprb_format_size(l->page_bytes, page, sizeof page);
        if (l->huge_page_frac >= 0)
            snprintf(frac, sizeof frac, "%.0f%%", 100 * l->huge_page_frac);
        /* A not-applicable row's note says so itself. */
        bool na = strcmp(l->status, NPRB_ROW_NOT_APPLICABLE) == 0;
        fprintf(out, "%-16s %11.1f %10.1f %6s %7s  %s%s%.120s\n", modes[m].label,
                l->latency_ns_median, gbs, page, frac, na ? "" : l->status,
                !na && l->note[0] != '\0' ? ": " : "", l->note);
    }
    return true;
}

static const char about[] =
    "what the TLB costs: the random chase over the whole working set (256 MiB by default) and a "
    "read stream, from one core of the first node on its own memory, with 4 KiB pages, "
    "transparent huge pages and 2 MiB hugetlbfs pages side by side (hugetlb needs pages reserved "
    "with `vm.nr_hugepages`; without enough, its rows say so)";

const struct nprb_experiment nprb_exp_page_size = {.id = NPRB_EXPERIMENT_PAGE_SIZE,
                                                   .table = NPRB_TABLE_LATENCY,
                                                   .about = about,
                                                   .plan = plan,
                                                   .measure = measure,
                                                   .config = &section,
                                                   .report = report,
                                                   .priority = NPRB_PRIORITY_SWEEP};
