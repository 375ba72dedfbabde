/* SPDX-License-Identifier: BSD-3-Clause */
/* What numaprobe check keeps of /hosts, and the searches over it (check_hosts.h). */
#include "tools/check_hosts.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

int nprb_check_host_by_rank(const void *a, const void *b)
{
    int32_t x = ((const struct nprb_check_host *)a)->rank,
            y = ((const struct nprb_check_host *)b)->rank;
    return (x > y) - (x < y);
}

long nprb_check_host_find(const struct nprb_check_host *hosts, size_t n, int32_t rank)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (hosts[mid].rank < rank)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && hosts[lo].rank == rank ? (long)lo : -1;
}

void nprb_check_missing_ranks(const struct nprb_check_host *hosts, size_t n, int64_t world_size,
                              char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int64_t r = 0, h = 0; r < world_size && used < len; r++) {
        while ((size_t)h < n && hosts[h].rank < r)
            h++;
        if ((size_t)h < n && hosts[h].rank == r)
            continue;
        int written = snprintf(buf + used, len - used, "%s%" PRId64, used ? "," : "", r);
        used += written > 0 ? (size_t)written : 0;
    }
}

bool nprb_check_lists_missing(const struct nprb_check_host *hosts, size_t n, int64_t world_size,
                              const char *listed)
{
    const char *p = listed;
    size_t h = 0;
    for (int64_t r = 0; r < world_size; r++) {
        while (h < n && hosts[h].rank < r)
            h++;
        if (h < n && hosts[h].rank == r)
            continue;
        char *end = NULL;
        long long named = strtoll(p, &end, 10);
        if (end == p || named != r || (*end != ',' && *end != '\0'))
            return false;
        p = *end == ',' ? end + 1 : end;
    }
    return *p == '\0';
}

size_t nprb_check_count_equal(const int32_t *v, size_t n, int32_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < n && v[end] == x)
        end++;
    return end - lo;
}
