/* SPDX-License-Identifier: BSD-3-Clause */
#include "host/place_keep.h"

#include "host/verify.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The mappings kept between the points of a sweep. The measuring thread alone maps and frees
 * buffers. */
#define KEPT_MAX 4
static struct {
    bool on;
    size_t capacity;
    int count;
    struct nprb_buffer kept[KEPT_MAX];
} keep;

void nprb_buffer_unmap(struct nprb_buffer *buf)
{
    if (buf->map_addr != NULL)
        munmap(buf->map_addr, buf->map_bytes);
    memset(buf, 0, sizeof *buf);
}

size_t nprb_keep_capacity(void)
{
    return keep.on ? keep.capacity : 0;
}

/* How well kept mapping @p k suits a request for content @p key: its content, then none (so
 * that a plain request leaves a chain for the user who will ask for it), then any. */
static int suits(const struct nprb_buffer *k, uint64_t key)
{
    if (key != 0 && k->content_key == key)
        return 2;
    return k->content_key == 0;
}

bool nprb_keep_take(struct nprb_buffer *buf, const struct nprb_buffer *want, size_t bytes,
                    uint64_t key)
{
    int best = -1;
    for (int i = 0; i < keep.count; i++) {
        const struct nprb_buffer *k = &keep.kept[i];
        if (k->capacity < bytes || k->policy != want->policy || k->thp != want->thp ||
            memcmp(k->node_mask, want->node_mask, sizeof k->node_mask) != 0)
            continue;
        const struct nprb_buffer *b = best >= 0 ? &keep.kept[best] : NULL;
        if (b == NULL || suits(k, key) > suits(b, key) ||
            (suits(k, key) == suits(b, key) && k->touched > b->touched))
            best = i;
    }
    if (best < 0)
        return false;
    *buf = keep.kept[best];
    keep.kept[best] = keep.kept[--keep.count];
    return true;
}

static bool mask_has(const struct nprb_buffer *k, unsigned node)
{
    const size_t word_bits = 8 * sizeof k->node_mask[0];
    return node < NPRB_MAX_NODES && (k->node_mask[node / word_bits] >> (node % word_bits) & 1);
}

/* Whether every node of @p k's mask is among @p nodes: then MPOL_BIND put its pages there. */
static bool mask_within(const struct nprb_buffer *k, const unsigned *nodes, int node_count)
{
    if (node_count == 0)
        return true;
    int inside = 0, in_mask = 0;
    for (unsigned node = 0; node < NPRB_MAX_NODES; node++)
        in_mask += mask_has(k, node);
    for (int i = 0; i < node_count; i++)
        inside += mask_has(k, nodes[i]);
    return inside == in_mask;
}

/* The bytes of @p k's touched pages that lie on @p nodes. A kept mapping's pages need not be
 * where its policy asked (preferred and interleaved pages spill, NUMA balancing moves some), so
 * move_pages is asked, and only what it reports there counts. */
static uint64_t resident_on(const struct nprb_buffer *k, const unsigned *nodes, int node_count)
{
    struct nprb_census census;
    if (nprb_census_take(k->addr, k->touched, &census) != 0)
        return k->policy == NPRB_MEM_BIND && mask_within(k, nodes, node_count) ? k->touched : 0;
    uint64_t pages = node_count == 0 ? census.unreported : 0;
    for (unsigned node = 0; node < NPRB_MAX_NODES; node++) {
        bool there = node_count == 0;
        for (int i = 0; i < node_count && !there; i++)
            there = nodes[i] == node;
        pages += there ? census.per_node[node] : 0;
    }
    return pages * (uint64_t)sysconf(_SC_PAGESIZE);
}

uint64_t nprb_keep_release_on(const unsigned *nodes, int node_count)
{
    uint64_t released = 0;
    for (int i = 0; i < keep.count;) {
        uint64_t there = resident_on(&keep.kept[i], nodes, node_count);
        if (there == 0) {
            i++;
            continue;
        }
        released += there;
        nprb_buffer_unmap(&keep.kept[i]);
        keep.kept[i] = keep.kept[--keep.count];
    }
    return released;
}

void nprb_buffer_keep_begin(size_t capacity)
{
    nprb_buffer_keep_end();
    keep.on = true;
    keep.capacity = capacity;
}

void nprb_buffer_keep_end(void)
{
    keep.on = false;
    while (keep.count > 0)
        nprb_buffer_unmap(&keep.kept[--keep.count]);
}

void nprb_buffer_free(struct nprb_buffer *buf)
{
    /* Never a first-touch mapping: where its pages are depends on who touched them, which the
     * key a request is matched by does not say. Nor hugetlbfs pages, reserved whole at mmap. */
    if (!keep.on || buf->map_addr == NULL || buf->thp == NPRB_THP_HUGETLB ||
        buf->policy == NPRB_MEM_FIRST_TOUCH) {
        nprb_buffer_unmap(buf);
        return;
    }
    if (keep.count == KEPT_MAX) { /* the oldest goes */
        nprb_buffer_unmap(&keep.kept[0]);
        memmove(&keep.kept[0], &keep.kept[1], (KEPT_MAX - 1) * sizeof keep.kept[0]);
        keep.count--;
    }
    keep.kept[keep.count++] = *buf;
    memset(buf, 0, sizeof *buf);
}
