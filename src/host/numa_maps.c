/* SPDX-License-Identifier: BSD-3-Clause */
#include "host/numa_maps.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_MAPPINGS 64

struct mapping {
    uintptr_t start, end;
    bool counted;
};

/* The mappings overlapping [lo, hi), from /proc/self/maps; -1 when there are too many. */
static int mappings_over(uintptr_t lo, uintptr_t hi, struct mapping *maps)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (f == NULL)
        return -1;
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        uintptr_t start, end;
        if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR, &start, &end) != 2 || end <= lo || start >= hi)
            continue;
        if (n == MAX_MAPPINGS) {
            n = -1;
            break;
        }
        maps[n++] = (struct mapping){start, end, false};
    }
    fclose(f);
    return n;
}

/* Whether [from, to) holds no resident page. */
static bool none_resident(const char *base, uintptr_t from, uintptr_t to, size_t page)
{
    if (to <= from)
        return true;
    size_t pages = (to - from) / page;
    unsigned char *vec = malloc(pages);
    /* The address from the range's own pointer, offset: no integer becomes a pointer. */
    void *at = (void *)(base + (from - (uintptr_t)base));
    bool none = vec != NULL && mincore(at, to - from, vec) == 0;
    for (size_t i = 0; none && i < pages; i++)
        none = (vec[i] & 1) == 0;
    free(vec);
    return none;
}

/* Adds the N<node>=<pages> fields of one numa_maps line, in base pages. */
static void add_line(char *fields, size_t page, uint64_t *per_node)
{
    uint64_t counts[NPRB_MAX_NODES] = {0};
    unsigned long long page_kb = page / 1024;
    char *save = NULL;
    for (char *tok = strtok_r(fields, " \n", &save); tok != NULL;
         tok = strtok_r(NULL, " \n", &save)) {
        int node;
        unsigned long long value;
        if (sscanf(tok, "N%d=%llu", &node, &value) == 2 && node >= 0 && node < NPRB_MAX_NODES)
            counts[node] = value;
        else if (sscanf(tok, "kernelpagesize_kB=%llu", &value) == 1 && value > 0)
            page_kb = value;
    }
    for (int node = 0; node < NPRB_MAX_NODES; node++)
        per_node[node] += counts[node] * (page_kb * 1024 / page);
}

int nprb_numa_maps_range(const void *addr, size_t bytes, uint64_t *per_node)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = (uintptr_t)addr & ~(uintptr_t)(page - 1);
    uintptr_t hi = ((uintptr_t)addr + bytes + page - 1) & ~(uintptr_t)(page - 1);
    struct mapping maps[MAX_MAPPINGS];
    int n = mappings_over(lo, hi, maps);
    if (n <= 0)
        return -1;
    for (int i = 0; i < n; i++)
        if (!none_resident(addr, maps[i].start, lo, page) ||
            !none_resident(addr, hi, maps[i].end, page))
            return -1;
    FILE *f = fopen("/proc/self/numa_maps", "r");
    if (f == NULL)
        return -1;
    static uint64_t found[NPRB_MAX_NODES];
    memset(found, 0, sizeof found);
    char line[4096];
    int counted = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        char *rest;
        uintptr_t start = (uintptr_t)strtoull(line, &rest, 16);
        for (int i = 0; i < n; i++)
            if (!maps[i].counted && maps[i].start == start) {
                maps[i].counted = true;
                counted++;
                add_line(rest, page, found);
            }
    }
    fclose(f);
    if (counted != n)
        return -1;
    for (int node = 0; node < NPRB_MAX_NODES; node++)
        per_node[node] += found[node];
    return 0;
}
