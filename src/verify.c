#include "verify.h"

#include <dirent.h>
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

/* Memory block -> node, read once from sysfs: blocks are the kernel's unit of memory hotplug
 * (128 MiB to 2 GiB), and every frame of a block is on one node. */
static struct {
    pthread_once_t once;
    uint64_t block_bytes;
    int16_t *node_of_block; /* -1: no node */
    size_t blocks;
} frame_map = {.once = PTHREAD_ONCE_INIT};

static void frame_map_load(void)
{
    FILE *f = fopen("/sys/devices/system/memory/block_size_bytes", "r");
    unsigned long long block = 0;
    if (f == NULL)
        return;
    int got = fscanf(f, "%llx", &block);
    fclose(f);
    if (got != 1 || block == 0)
        return;
    for (int node = 0; node < NPRB_MAX_NODES; node++) {
        char path[64];
        snprintf(path, sizeof path, "/sys/devices/system/node/node%d", node);
        DIR *dir = opendir(path);
        if (dir == NULL)
            continue;
        struct dirent *e;
        while ((e = readdir(dir)) != NULL) {
            char *end;
            if (strncmp(e->d_name, "memory", 6) != 0)
                continue;
            unsigned long long index = strtoull(e->d_name + 6, &end, 10);
            if (end == e->d_name + 6 || *end != '\0' || index > (1ULL << 24))
                continue;
            if (index >= frame_map.blocks) {
                size_t grown = (size_t)index + 1024;
                int16_t *map = realloc(frame_map.node_of_block, grown * sizeof *map);
                if (map == NULL)
                    break;
                for (size_t b = frame_map.blocks; b < grown; b++)
                    map[b] = -1;
                frame_map.node_of_block = map;
                frame_map.blocks = grown;
            }
            frame_map.node_of_block[index] = (int16_t)node;
        }
        closedir(dir);
    }
    frame_map.block_bytes = block;
}

int nprb_frame_node(uint64_t pfn)
{
    pthread_once(&frame_map.once, frame_map_load);
    long page = sysconf(_SC_PAGESIZE);
    if (frame_map.block_bytes == 0 || page <= 0)
        return -1;
    uint64_t block = pfn * (uint64_t)page / frame_map.block_bytes;
    return block < frame_map.blocks ? frame_map.node_of_block[block] : -1;
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
static void account_failed(void **pages, int *status, size_t n, size_t page, int *pagemap,
                           struct nprb_census *census)
{
    size_t failed = 0;
    for (size_t i = 0; i < n; i++)
        if (status[i] < 0 || status[i] >= NPRB_MAX_NODES)
            pages[failed++] = pages[i];
    if (failed == 0)
        return;
    if (move_pages(0, (unsigned long)failed, pages, NULL, status, 0) != 0)
        for (size_t i = 0; i < failed; i++)
            status[i] = -EFAULT;
    if (*pagemap == -2)
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
        int node = node_by_frame(*pagemap, aligned, page);
        if (node < 0)
            node = node_after_touch(aligned);
        if (node >= 0 && node < NPRB_MAX_NODES)
            census->per_node[node]++;
        else
            census->unreported++;
    }
}

int nprb_census_take(const void *addr, size_t bytes, struct nprb_census *census)
{
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
            rc = -1;
            break;
        }
        for (size_t i = 0; i < n; i++)
            if (status[i] >= 0 && status[i] < NPRB_MAX_NODES)
                census->per_node[status[i]]++;
        account_failed(pages, status, n, (size_t)page, &pagemap, census);
        census->pages += n;
    }
    int e = errno;
    if (pagemap >= 0)
        close(pagemap);
    free(pages);
    free(status);
    errno = e;
    return rc;
}

void nprb_census_add(struct nprb_census *into, const struct nprb_census *more)
{
    into->pages += more->pages;
    into->unplaced += more->unplaced;
    into->unreported += more->unreported;
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
