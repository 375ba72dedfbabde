/* SPDX-License-Identifier: BSD-3-Clause */
#include "host/verify.h"

#include "host/numa_maps.h"
#include "host/sole_node.h"
#include "util/fault.h"

#include <errno.h>
#include <fcntl.h>
#include <numaif.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define BATCH 16384
#define PAGEMAP_PRESENT (1ULL << 63)
#define PAGEMAP_PFN_MASK ((1ULL << 55) - 1)

/* This host's frame spans, read once. */
static struct {
    pthread_once_t once;
    struct nprb_frame_spans spans;
} frame_map = {.once = PTHREAD_ONCE_INIT};

void nprb_frame_spans_read(FILE *zoneinfo, struct nprb_frame_spans *spans)
{
    char line[256];
    int node = -1;
    unsigned long long spanned = 0, start = 0;
    spans->count = 0;
    while (fgets(line, sizeof line, zoneinfo) != NULL && spans->count < NPRB_MAX_FRAME_SPANS) {
        char zone[32];
        if (sscanf(line, "Node %d, zone %31s", &node, zone) == 2)
            spanned = 0;
        else if (sscanf(line, " spanned %llu", &spanned) == 1)
            continue;
        else if (sscanf(line, " start_pfn: %llu", &start) == 1 && spanned > 0 && node >= 0 &&
                 node < NPRB_MAX_NODES)
            spans->span[spans->count++] =
                (struct nprb_frame_span){.first = start, .end = start + spanned, .node = node};
    }
}

int nprb_frame_spans_node(const struct nprb_frame_spans *spans, uint64_t pfn)
{
    int found = -1;
    for (int i = 0; i < spans->count; i++) {
        if (pfn < spans->span[i].first || pfn >= spans->span[i].end)
            continue;
        if (found >= 0 && found != spans->span[i].node)
            return -1; /* two nodes' spans overlap here */
        found = spans->span[i].node;
    }
    return found;
}

static void frame_map_load(void)
{
    FILE *f = fopen("/proc/zoneinfo", "r");
    if (f == NULL)
        return;
    nprb_frame_spans_read(f, &frame_map.spans);
    fclose(f);
}

int nprb_frame_node(uint64_t pfn)
{
    pthread_once(&frame_map.once, frame_map_load);
    return nprb_frame_spans_node(&frame_map.spans, pfn);
}

/* The node of a resident page from its frame; -1 when the frame is hidden (no CAP_SYS_ADMIN)
 * or its block is unknown. */
static int node_by_frame(int pagemap, const void *page_addr, size_t page)
{
    uint64_t entry;
    off_t at = (off_t)((uintptr_t)page_addr / page * sizeof entry);
    if (pagemap < 0 || pread(pagemap, &entry, sizeof entry, at) != (ssize_t)sizeof entry)
        return -1;
    if (!(entry & PAGEMAP_PRESENT) || (entry & PAGEMAP_PFN_MASK) == 0)
        return -1;
    return nprb_frame_node(entry & PAGEMAP_PFN_MASK);
}

/* Whether reading the page can move it: a NUMA hinting fault migrates a page only under a policy
 * marked "migrate on fault", which the kernel gives its default policy alone, never a policy set
 * with mbind or set_mempolicy (the mapping's, or else the task's). */
static bool touch_cannot_move(const void *page_addr)
{
    int mode = MPOL_DEFAULT;
    if (get_mempolicy(&mode, NULL, 0, (void *)page_addr, MPOL_F_ADDR) == 0 && mode != MPOL_DEFAULT)
        return true;
    return get_mempolicy(&mode, NULL, 0, NULL, 0) == 0 && mode != MPOL_DEFAULT;
}

/* A resident page under an explicit policy is read (the hinting fault restores its mapping
 * where it is) and asked about again. */
static int node_after_touch(const void *page_addr)
{
    if (!touch_cannot_move(page_addr))
        return -1;
    (void)*(const volatile char *)page_addr;
    void *one = (void *)page_addr;
    int status = -1;
    if (move_pages(0, 1, &one, NULL, &status, 0) != 0)
        return -1;
    return status;
}

/* Pages move_pages did not place (status < 0) are asked about again, then sorted into resident
 * (found by frame, or unreported) and not resident (unplaced). */
/* hidden: the hidden_frames fault, under which nothing but mincore answers. */
static void account_failed(void **pages, int *status, size_t n, size_t page, bool hidden,
                           int *pagemap, struct nprb_census *census)
{
    size_t failed = 0;
    for (size_t i = 0; i < n; i++)
        if (status[i] < 0 || status[i] >= NPRB_MAX_NODES)
            pages[failed++] = pages[i];
    if (failed == 0)
        return;
    if (hidden || move_pages(0, (unsigned long)failed, pages, NULL, status, 0) != 0)
        for (size_t i = 0; i < failed; i++)
            status[i] = -EFAULT;
    if (!hidden && *pagemap == -2)
        *pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    for (size_t i = 0; i < failed; i++) {
        if (status[i] >= 0 && status[i] < NPRB_MAX_NODES) {
            census->per_node[status[i]]++;
            continue;
        }
        char *aligned = (char *)pages[i] - ((uintptr_t)pages[i] & (page - 1));
        unsigned char resident = 0;
        if (mincore(aligned, page, &resident) != 0 || !(resident & 1)) {
            census->unplaced++;
            continue;
        }
        int node = hidden ? -1 : node_by_frame(*pagemap, aligned, page);
        if (node < 0 && !hidden)
            node = node_after_touch(aligned);
        if (node >= 0 && node < NPRB_MAX_NODES)
            census->per_node[node]++;
        else
            census->unreported++;
    }
}

/* Pages still unreported (default policy, frames hidden) are counted from the mappings' own
 * tallies, when those describe the census range alone and account for exactly the pages that
 * did not report: the mappings' count on a node minus the pages found there is what hides. */
static void account_by_mappings(const void *addr, size_t bytes, struct nprb_census *census)
{
    static uint64_t mapped[NPRB_MAX_NODES];
    memset(mapped, 0, sizeof mapped);
    if (nprb_numa_maps_range(addr, bytes, mapped) != 0)
        return;
    uint64_t hidden = 0;
    for (int node = 0; node < NPRB_MAX_NODES; node++) {
        if (mapped[node] < census->per_node[node])
            return; /* the pages moved between the two looks */
        hidden += mapped[node] - census->per_node[node];
    }
    if (hidden != census->unreported)
        return;
    for (int node = 0; node < NPRB_MAX_NODES; node++)
        census->per_node[node] = mapped[node];
    census->unreported = 0;
}

/* Where move_pages is missing and the host has one memory node (sole_node.h), a resident page
 * can only be on that node. The batch's pages follow one another, so one mincore call over them
 * (from the first one's page boundary: a census range need not start on one) says which are
 * resident. */
static int count_by_residency(void **pages, size_t n, size_t page, struct nprb_census *census)
{
    int node = nprb_sole_node();
    if (node < 0 || node >= NPRB_MAX_NODES || n > BATCH)
        return -1;
    unsigned char resident[BATCH];
    char *first = (char *)pages[0] - ((uintptr_t)pages[0] & (page - 1));
    if (mincore(first, n * page, resident) != 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (resident[i] & 1)
            census->per_node[node]++;
        else
            census->unplaced++;
    }
    census->pages += n;
    census->by_residency = true;
    return 0;
}

int nprb_census_take(const void *addr, size_t bytes, struct nprb_census *census)
{
    bool hidden = nprb_fault(NPRB_FAULT_HIDDEN_FRAMES);
    memset(census, 0, sizeof *census);
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0)
        page = 4096;
    size_t count = (bytes + (size_t)page - 1) / (size_t)page;
    void **pages = malloc(BATCH * sizeof *pages);
    int *status = malloc(BATCH * sizeof *status);
    if (pages == NULL || status == NULL) {
        free(pages);
        free(status);
        errno = ENOMEM;
        return -1;
    }
    int rc = 0, pagemap = -2; /* -2: not opened yet, -1: cannot be */
    for (size_t first = 0; first < count; first += BATCH) {
        size_t n = count - first < BATCH ? count - first : BATCH;
        for (size_t i = 0; i < n; i++)
            pages[i] = (char *)addr + (first + i) * (size_t)page;
        if (move_pages(0, (unsigned long)n, pages, NULL, status, 0) != 0) {
            if (errno == ENOSYS && count_by_residency(pages, n, (size_t)page, census) == 0)
                continue;
            rc = -1;
            break;
        }
        if (hidden)
            for (size_t i = 0; i < n; i++)
                status[i] = -EFAULT;
        for (size_t i = 0; i < n; i++)
            if (status[i] >= 0 && status[i] < NPRB_MAX_NODES)
                census->per_node[status[i]]++;
        account_failed(pages, status, n, (size_t)page, hidden, &pagemap, census);
        census->pages += n;
    }
    int e = errno;
    if (rc == 0 && census->unreported > 0)
        account_by_mappings(addr, bytes, census);
    if (pagemap >= 0)
        close(pagemap);
    free(pages);
    free(status);
    errno = e;
    return rc;
}

static bool any_unreported(const struct nprb_census *census, int count)
{
    for (int i = 0; i < count; i++)
        if (census[i].unreported > 0)
            return true;
    return false;
}

/* Two hints that change nothing for anonymous memory but make a mapping differ from both its
 * neighbours, so that the kernel keeps each piece a mapping of its own until MADV_NORMAL. */
static int split_into_pieces(const struct nprb_piece *pieces, int count, size_t page)
{
    for (int i = 0; i < count; i++) {
        char *start = (char *)pieces[i].addr;
        size_t len = (pieces[i].bytes + page - 1) & ~(page - 1);
        if (((uintptr_t)start & (page - 1)) != 0 ||
            madvise(start, len, i % 2 ? MADV_SEQUENTIAL : MADV_RANDOM) != 0)
            return -1;
    }
    return 0;
}

int nprb_census_take_pieces(const struct nprb_piece *pieces, int count, bool may_split,
                            struct nprb_census *census)
{
    for (int i = 0; i < count; i++)
        if (nprb_census_take(pieces[i].addr, pieces[i].bytes, &census[i]) != 0)
            return -1;
    if (count < 2 || !may_split || !any_unreported(census, count))
        return 0;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    char *lo = (char *)pieces[0].addr - ((uintptr_t)pieces[0].addr & (page - 1));
    char *hi = (char *)pieces[count - 1].addr + pieces[count - 1].bytes;
    hi += (page - ((uintptr_t)hi & (page - 1))) & (page - 1);
    int rc = 0;
    if (split_into_pieces(pieces, count, page) == 0)
        for (int i = 0; i < count && rc == 0; i++)
            if (census[i].unreported > 0)
                rc = nprb_census_take(pieces[i].addr, pieces[i].bytes, &census[i]);
    int e = errno;
    (void)madvise(lo, (size_t)(hi - lo), MADV_NORMAL);
    errno = e;
    return rc;
}

void nprb_census_add(struct nprb_census *into, const struct nprb_census *more)
{
    into->pages += more->pages;
    into->unplaced += more->unplaced;
    into->unreported += more->unreported;
    into->by_residency = into->by_residency || more->by_residency;
    for (int i = 0; i < NPRB_MAX_NODES; i++)
        into->per_node[i] += more->per_node[i];
}

uint64_t nprb_census_reported(const struct nprb_census *census)
{
    return census->pages - census->unreported;
}

double nprb_census_fraction_on(const struct nprb_census *census, const unsigned *nodes,
                               int node_count)
{
    uint64_t reported = nprb_census_reported(census);
    if (reported == 0)
        return 0.0;
    uint64_t on = 0;
    for (int i = 0; i < node_count; i++)
        if (nodes[i] < NPRB_MAX_NODES)
            on += census->per_node[nodes[i]];
    return (double)on / (double)reported;
}
