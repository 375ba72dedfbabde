#include "verify.h"

#include <errno.h>
#include <numaif.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BATCH 16384

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
    int rc = 0;
    for (size_t first = 0; first < count; first += BATCH) {
        size_t n = count - first < BATCH ? count - first : BATCH;
        for (size_t i = 0; i < n; i++)
            pages[i] = (char *)addr + (first + i) * (size_t)page;
        if (move_pages(0, (unsigned long)n, pages, NULL, status, 0) != 0) {
            rc = -1;
            break;
        }
        for (size_t i = 0; i < n; i++) {
            if (status[i] >= 0 && status[i] < NPRB_MAX_NODES)
                census->per_node[status[i]]++;
            else
                census->unplaced++;
        }
        census->pages += n;
    }
    int e = errno;
    free(pages);
    free(status);
    errno = e;
    return rc;
}

void nprb_census_add(struct nprb_census *into, const struct nprb_census *more)
{
    into->pages += more->pages;
    into->unplaced += more->unplaced;
    for (int i = 0; i < NPRB_MAX_NODES; i++)
        into->per_node[i] += more->per_node[i];
}

double nprb_census_fraction_on(const struct nprb_census *census, const unsigned *nodes,
                               int node_count)
{
    if (census->pages == 0)
        return 0.0;
    uint64_t on = 0;
    for (int i = 0; i < node_count; i++)
        if (nodes[i] < NPRB_MAX_NODES)
            on += census->per_node[nodes[i]];
    return (double)on / (double)census->pages;
}
