/* SPDX-License-Identifier: BSD-3-Clause */
#include "host/place.h"

#include "host/place_keep.h"
#include "host/sole_node.h"
#include "host/topo.h"
#include "util/fault.h"
#include "util/populate.h"
#include "util/timer.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <numaif.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define HUGE_PAGE_BYTES (2UL << 20)
#define MASK_WORDS (NPRB_MAX_NODES / (8 * sizeof(unsigned long)))

static int linux_mode(enum nprb_mem_policy policy)
{
    switch (policy) {
    case NPRB_MEM_BIND:
        return MPOL_BIND;
    case NPRB_MEM_INTERLEAVE:
        return MPOL_INTERLEAVE;
    case NPRB_MEM_PREFERRED:
        return MPOL_PREFERRED;
    case NPRB_MEM_FIRST_TOUCH:
    case NPRB_N_MEM_POLICIES:
        return MPOL_DEFAULT;
    }
    return MPOL_DEFAULT;
}

static uint64_t meminfo_field(const char *text, const char *name)
{
    const char *p = strstr(text, name);
    unsigned long long kib = 0;
    if (p != NULL && sscanf(p + strlen(name), " %llu kB", &kib) == 1)
        return (uint64_t)kib << 10;
    return 0;
}

/* A meminfo file (the host's or a node's) into @p text; false when it cannot be read. */
static bool read_meminfo(const char *path, char *text, size_t len)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return false;
    size_t n = fread(text, 1, len - 1, f);
    fclose(f);
    text[n] = '\0';
    return true;
}

static bool read_node_meminfo(unsigned node, char *text, size_t len)
{
    char path[96];
    snprintf(path, sizeof path, "/sys/devices/system/node/node%u/meminfo", node);
    return read_meminfo(path, text, len);
}

/* Free memory in a meminfo text: MemFree and the page cache. */
static uint64_t free_in(const char *text)
{
    return meminfo_field(text, "MemFree:") + meminfo_field(text, "Inactive(file):") +
           meminfo_field(text, "Active(file):");
}

/* MemFree alone undercounts on a host whose page cache is full of a previous job's files; those
 * pages are reclaimed on demand, so they count as free for a measurement buffer. */
uint64_t nprb_node_free_bytes(unsigned node)
{
    if (nprb_fault(NPRB_FAULT_SMALL_NODES))
        return 64ULL << 20;
    char text[4096];
    if (!read_node_meminfo(node, text, sizeof text))
        return 0;
    return free_in(text);
}

/* Free memory as nprb_node_free_bytes counts it, summed over every node of the host; the host's
 * own count where the kernel has no node directories (built without NUMA). */
static uint64_t host_free_bytes(void)
{
    DIR *dir = opendir("/sys/devices/system/node");
    uint64_t sum = 0;
    unsigned node;
    char tail;
    for (struct dirent *e; dir != NULL && (e = readdir(dir)) != NULL;)
        if (sscanf(e->d_name, "node%u%c", &node, &tail) == 1)
            sum += nprb_node_free_bytes(node);
    if (dir != NULL)
        closedir(dir);
    char text[8192];
    if (sum == 0 && read_meminfo("/proc/meminfo", text, sizeof text))
        sum = free_in(text);
    return sum;
}

uint64_t nprb_node_memfree_bytes(unsigned node)
{
    char text[4096];
    return read_node_meminfo(node, text, sizeof text) ? meminfo_field(text, "MemFree:") : 0;
}

/* Leave a tenth of the free memory to the kernel and the other processes of the node: filling
 * a node to the last page under MPOL_BIND invites the OOM killer instead of an error. */
static bool fits(uint64_t bytes, uint64_t free_bytes)
{
    return free_bytes == 0 || bytes <= free_bytes / 10 * 9;
}

/* Whether @p bytes fit on @p nodes with each holding an even share (an interleaved buffer fills
 * all of them alike); @p free_bytes gets what they have free together. With no nodes named,
 * the host's free memory is the figure. */
static bool fits_on_each(size_t bytes, const unsigned *nodes, int node_count, uint64_t *free_bytes)
{
    if (node_count == 0) {
        *free_bytes = host_free_bytes();
        return fits(bytes, *free_bytes);
    }
    bool each = true;
    *free_bytes = 0;
    for (int i = 0; i < node_count; i++) {
        uint64_t node_free = nprb_node_free_bytes(nodes[i]);
        *free_bytes += node_free;
        each = each && fits(bytes / (size_t)node_count, node_free);
    }
    return each;
}

static int refuse(size_t bytes, enum nprb_mem_policy policy, const unsigned *nodes, int node_count,
                  uint64_t free_bytes, char *err, size_t errlen)
{
    if (policy == NPRB_MEM_FIRST_TOUCH)
        snprintf(err, errlen,
                 "cannot place %zu MiB by first touch: the host has %" PRIu64
                 " MiB free (numaprobe keeps 10%% spare)",
                 bytes >> 20, free_bytes >> 20);
    else if (node_count == 1)
        snprintf(err, errlen,
                 "cannot place %zu MiB on NUMA node %u: it has %" PRIu64
                 " MiB free (numaprobe keeps 10%% spare)",
                 bytes >> 20, nodes[0], free_bytes >> 20);
    else
        snprintf(err, errlen,
                 "cannot place %zu MiB on %d NUMA nodes: they have %" PRIu64 " MiB free together",
                 bytes >> 20, node_count, free_bytes >> 20);
    errno = ENOMEM;
    return -1;
}

/* Whether @p bytes fit where @p policy puts them, counting numaprobe's own kept mappings as
 * room: when the nodes lack room without them, the kept ones with pages there are unmapped
 * first, or a bound buffer would be refused, and a preferred, interleaved or first-touch one
 * would spill, for memory numaprobe holds itself. The free figures are read before that, so
 * the pages given back are counted once. First touch spills to other nodes when its own is
 * full, so only the host's free memory bounds it; past that the OOM killer answers. */
static int make_room(size_t bytes, enum nprb_mem_policy policy, const unsigned *nodes,
                     int node_count, char *err, size_t errlen)
{
    uint64_t nodes_free;
    bool room = fits_on_each(bytes, nodes, node_count, &nodes_free);
    uint64_t host_free = policy != NPRB_MEM_FIRST_TOUCH ? 0
                         : node_count == 0              ? nodes_free
                                                        : host_free_bytes();
    uint64_t released = room ? 0 : nprb_keep_release_on(nodes, node_count);
    if (policy == NPRB_MEM_FIRST_TOUCH)
        return fits(bytes, host_free + released)
                   ? 0
                   : refuse(bytes, policy, nodes, node_count, host_free + released, err, errlen);
    return fits(bytes, nodes_free + released)
               ? 0
               : refuse(bytes, policy, nodes, node_count, nodes_free + released, err, errlen);
}

/* Applies the buffer's policy over its node mask (set_key) to the whole mapping; @p nodes only
 * names the nodes in a message. */
static int apply_policy(struct nprb_buffer *buf, const unsigned *nodes, int node_count, char *err,
                        size_t errlen)
{
    if (buf->policy == NPRB_MEM_FIRST_TOUCH)
        return 0;
    /* maxnode + 1: the kernel reads one bit fewer than it is told (see mbind(2) and libnuma). */
    if (mbind(buf->addr, buf->capacity, linux_mode(buf->policy), buf->node_mask, NPRB_MAX_NODES + 1,
              0) != 0) {
        int e = errno;
        /* One memory node and no policy calls: the pages can land nowhere else. */
        if (e == ENOSYS && node_count == 1 && nprb_sole_node() == (int)nodes[0])
            return 0;
        snprintf(err, errlen, "mbind(%s) over %d node(s) starting at node %u failed: %s",
                 nprb_mem_policy_name(buf->policy), node_count, nodes[0], strerror(e));
        nprb_buffer_unmap(buf);
        errno = e;
        return -1;
    }
    return 0;
}

uint64_t nprb_node_free_hugepages(unsigned node)
{
    char path[128], line[32];
    snprintf(path, sizeof path,
             "/sys/devices/system/node/node%u/hugepages/hugepages-2048kB/free_hugepages", node);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    uint64_t n = 0;
    if (fgets(line, sizeof line, f) != NULL)
        n = strtoull(line, NULL, 10);
    fclose(f);
    return n;
}

/* hugetlbfs pages come from a pool reserved by the administrator (vm.nr_hugepages); an empty
 * pool is reported, never papered over with small pages, or the figure would not be what the
 * config asked for. */
static int map_hugetlb(struct nprb_buffer *buf, size_t bytes, enum nprb_mem_policy policy,
                       const unsigned *nodes, int node_count, char *err, size_t errlen)
{
    size_t map_bytes = (bytes + HUGE_PAGE_BYTES - 1) & ~(HUGE_PAGE_BYTES - 1);
    /* mmap reserves from the global pool, but a page bound to a node whose own pool is empty
     * would fault with SIGBUS: check the nodes' pools first. */
    if (policy != NPRB_MEM_FIRST_TOUCH) {
        uint64_t free_pages = 0;
        for (int i = 0; i < node_count; i++)
            free_pages += nprb_node_free_hugepages(nodes[i]);
        if (free_pages < map_bytes / HUGE_PAGE_BYTES) {
            snprintf(err, errlen,
                     "cannot place %zu MiB in 2 MiB hugetlbfs pages on %d node(s) starting at "
                     "node %u: %" PRIu64 " pages free there (vm.nr_hugepages)",
                     map_bytes >> 20, node_count, nodes[0], free_pages);
            errno = ENOMEM;
            return -1;
        }
    }
    void *map = mmap(NULL, map_bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | (21 << MAP_HUGE_SHIFT), -1, 0);
    if (map == MAP_FAILED) {
        int e = errno;
        snprintf(err, errlen,
                 "cannot map %zu MiB of 2 MiB hugetlbfs pages: %s (is vm.nr_hugepages large "
                 "enough?)",
                 map_bytes >> 20, strerror(e));
        errno = e;
        return -1;
    }
    buf->addr = buf->map_addr = map;
    buf->bytes = buf->capacity = bytes;
    buf->map_bytes = map_bytes;
    buf->page_bytes = HUGE_PAGE_BYTES;
    return apply_policy(buf, nodes, node_count, err, errlen);
}

static void set_key(struct nprb_buffer *buf, enum nprb_mem_policy policy, const unsigned *nodes,
                    int node_count, enum nprb_thp_mode thp)
{
    buf->policy = policy;
    buf->thp = thp;
    memset(buf->node_mask, 0, sizeof buf->node_mask);
    const size_t word_bits = 8 * sizeof buf->node_mask[0];
    for (int i = 0; policy != NPRB_MEM_FIRST_TOUCH && i < node_count; i++)
        buf->node_mask[nodes[i] / word_bits] |= 1UL << (nodes[i] % word_bits);
}

int nprb_buffer_alloc(struct nprb_buffer *buf, size_t bytes, enum nprb_mem_policy policy,
                      const unsigned *nodes, int node_count, enum nprb_thp_mode thp, char *err,
                      size_t errlen)
{
    return nprb_buffer_alloc_holding(buf, 0, bytes, policy, nodes, node_count, thp, err, errlen);
}

int nprb_buffer_alloc_holding(struct nprb_buffer *buf, uint64_t key, size_t bytes,
                              enum nprb_mem_policy policy, const unsigned *nodes, int node_count,
                              enum nprb_thp_mode thp, char *err, size_t errlen)
{
    memset(buf, 0, sizeof *buf);
    set_key(buf, policy, nodes, node_count, thp);
    struct nprb_buffer kept;
    bool reuse = thp != NPRB_THP_HUGETLB && nprb_keep_take(&kept, buf, bytes, key);
    /* Content is another user's only under the key it was left with, and at the same length. */
    if (reuse && (key == 0 || kept.content_key != key || kept.bytes != bytes))
        kept.content_key = 0;
    /* A kept mapping's touched pages are had already: only the rest must fit. */
    size_t had = reuse ? kept.touched : 0;
    size_t need = bytes > had ? bytes - had : 0;
    if (make_room(need, policy, nodes, node_count, err, errlen) != 0) {
        if (reuse)
            nprb_buffer_free(&kept);
        return -1;
    }
    if (reuse) {
        *buf = kept;
        buf->bytes = bytes;
        buf->touched = bytes > kept.touched ? bytes : kept.touched;
        return 0;
    }
    if (thp == NPRB_THP_HUGETLB)
        return map_hugetlb(buf, bytes, policy, nodes, node_count, err, errlen);
    size_t capacity = nprb_keep_capacity() > bytes ? nprb_keep_capacity() : bytes;
    /* Over-map by one huge page and align the start, so THP can back the buffer from its first
     * byte and placement is decided at the same granularity for every run. */
    size_t map_bytes = capacity + HUGE_PAGE_BYTES;
    void *map = mmap(NULL, map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED && capacity > bytes) { /* the sweep's largest may not fit: this one */
        capacity = bytes;
        map_bytes = capacity + HUGE_PAGE_BYTES;
        map = mmap(NULL, map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    }
    if (map == MAP_FAILED) {
        int e = errno;
        snprintf(err, errlen, "cannot map %zu MiB: %s", bytes >> 20, strerror(e));
        errno = e;
        return -1;
    }
    buf->page_bytes = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t start = ((uintptr_t)map + HUGE_PAGE_BYTES - 1) & ~(uintptr_t)(HUGE_PAGE_BYTES - 1);
    buf->addr = (char *)map + (start - (uintptr_t)map);
    buf->bytes = buf->touched = bytes;
    buf->capacity = capacity;
    buf->map_addr = map;
    buf->map_bytes = map_bytes;

    if (thp != NPRB_THP_SYSTEM &&
        madvise(buf->addr, capacity, thp == NPRB_THP_ON ? MADV_HUGEPAGE : MADV_NOHUGEPAGE) != 0) {
        int e = errno;
        snprintf(err, errlen, "madvise(%s) refused: %s",
                 thp == NPRB_THP_ON ? "MADV_HUGEPAGE" : "MADV_NOHUGEPAGE", strerror(e));
        nprb_buffer_unmap(buf);
        errno = e;
        return -1;
    }
    return apply_policy(buf, nodes, node_count, err, errlen);
}

double nprb_first_touch_bps(size_t bytes, enum nprb_thp_mode thp)
{
    struct nprb_buffer buf;
    char err[160];
    if (nprb_buffer_alloc(&buf, bytes, NPRB_MEM_FIRST_TOUCH, NULL, 0,
                          thp == NPRB_THP_HUGETLB ? NPRB_THP_SYSTEM : thp, err, sizeof err) != 0)
        return 0;
    uint64_t t0 = nprb_now_ns();
    nprb_populate(buf.addr, buf.bytes); /* as every measurement's first touch does */
    memset(buf.addr, 1, buf.bytes);
    uint64_t ns = nprb_now_ns() - t0;
    /* The compiler may not drop the stores: the pages are read back through a volatile. */
    volatile const char *last = (const char *)buf.addr + buf.bytes - 1;
    double bps = *last == 1 && ns > 0 ? (double)buf.bytes * 1e9 / (double)ns : 0;
    nprb_buffer_free(&buf);
    return bps;
}

int nprb_bind_range(void *addr, size_t bytes, unsigned node)
{
    unsigned long mask[MASK_WORDS];
    memset(mask, 0, sizeof mask);
    mask[node / (8 * sizeof mask[0])] |= 1UL << (node % (8 * sizeof mask[0]));
    if (mbind(addr, bytes, MPOL_BIND, mask, NPRB_MAX_NODES + 1, 0) == 0)
        return 0;
    return errno == ENOSYS && nprb_sole_node() == (int)node ? 0 : -1;
}

double nprb_buffer_huge_fraction(const struct nprb_buffer *buf)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    if (f == NULL)
        return -1;
    /* madvise() and mbind() split the mapping into several VMAs: add up every VMA that
     * overlaps the buffer. */
    uintptr_t lo_buf = (uintptr_t)buf->addr, hi_buf = lo_buf + buf->bytes;
    char line[512];
    bool in_buffer = false, seen = false;
    uint64_t huge_bytes = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {
            in_buffer = lo < hi_buf && hi > lo_buf;
            seen = seen || in_buffer;
            continue;
        }
        unsigned long long kib;
        if (in_buffer && sscanf(line, "AnonHugePages: %llu kB", &kib) == 1)
            huge_bytes += (uint64_t)kib << 10;
    }
    fclose(f);
    if (!seen)
        return -1;
    double fraction = (double)huge_bytes / (double)buf->bytes;
    return fraction > 1.0 ? 1.0 : fraction;
}

int nprb_pin_thread(struct nprb_pin *pin, hwloc_topology_t hw, unsigned pu)
{
    pin->hw = hw;
    pin->pu = pu;
    pin->saved = hwloc_bitmap_alloc();
    if (pin->saved == NULL)
        return -1;
    if (hwloc_get_cpubind(hw, pin->saved, HWLOC_CPUBIND_THREAD) != 0)
        hwloc_bitmap_fill(pin->saved);
    hwloc_bitmap_t target = hwloc_bitmap_alloc();
    hwloc_bitmap_only(target, pu);
    int rc = hwloc_set_cpubind(hw, target, HWLOC_CPUBIND_THREAD | HWLOC_CPUBIND_STRICT);
    int e = errno;
    hwloc_bitmap_free(target);
    if (rc != 0) {
        hwloc_bitmap_free(pin->saved);
        pin->saved = NULL;
        errno = e;
        return -1;
    }
    return 0;
}

bool nprb_pin_holds(const struct nprb_pin *pin)
{
    return sched_getcpu() == (int)pin->pu;
}

void nprb_unpin_thread(struct nprb_pin *pin)
{
    if (pin->saved == NULL)
        return;
    hwloc_set_cpubind(pin->hw, pin->saved, HWLOC_CPUBIND_THREAD);
    hwloc_bitmap_free(pin->saved);
    pin->saved = NULL;
}

void nprb_cpus_seen_here(struct nprb_cpus_seen *seen)
{
    int cpu = sched_getcpu();
    if (cpu >= 0 && cpu < NPRB_MAX_CPUS)
        __atomic_fetch_or(&seen->bits[cpu / 64], 1ULL << (cpu % 64), __ATOMIC_RELAXED);
}

static bool seen_has(const struct nprb_cpus_seen *seen, int cpu)
{
    return cpu < NPRB_MAX_CPUS && (seen->bits[cpu / 64] >> (cpu % 64) & 1) != 0;
}

void nprb_cpus_seen_format(const struct nprb_cpus_seen *seen, char *buf, size_t len)
{
    size_t used = 0;
    if (len == 0)
        return;
    buf[0] = '\0';
    for (int cpu = 0; cpu < NPRB_MAX_CPUS; cpu++) {
        if (!seen_has(seen, cpu))
            continue;
        int last = cpu;
        while (seen_has(seen, last + 1))
            last++;
        char range[32];
        int n = last == cpu ? snprintf(range, sizeof range, "%s%d", used ? "," : "", cpu)
                            : snprintf(range, sizeof range, "%s%d-%d", used ? "," : "", cpu, last);
        if (used + (size_t)n + 4 > len) {
            snprintf(buf + used, len - used, "...");
            return;
        }
        memcpy(buf + used, range, (size_t)n + 1);
        used += (size_t)n;
        cpu = last;
    }
}
