/* SPDX-License-Identifier: BSD-3-Clause */
/* Hosts without the NUMA policy calls: where they work (every NUMA-capable kernel) nothing
 * changes; where they answer ENOSYS (a kernel without NUMA, QEMU's user-mode emulation) and the
 * host has one node, binding to it succeeds and a census counts the resident pages on it. */
#include "check.h"
#include "host/place.h"
#include "host/sole_node.h"
#include "host/verify.h"

#include <errno.h>
#include <numaif.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    int mode = 0;
    bool calls_work = get_mempolicy(&mode, NULL, 0, NULL, 0) == 0;
    bool enosys = !calls_work && errno == ENOSYS;
    int sole = nprb_sole_node();
    CHECK(nprb_sole_node() == sole); /* asked once, the same answer after */
    if (calls_work) {
        printf("NUMA policy calls work here: no sole-node fallback\n");
        CHECK(sole == -1);
        return check_failures ? 1 : 0;
    }
    CHECK(enosys);
    printf("NUMA policy calls answer ENOSYS here; sole node %d\n", sole);
    if (sole < 0)
        return check_failures ? 1 : 0; /* several nodes: nothing can be placed, and bind fails */

    const size_t pages = 64;
    long page = sysconf(_SC_PAGESIZE);
    struct nprb_buffer buf;
    char err[256] = "";
    unsigned node = (unsigned)sole;
    CHECK(nprb_buffer_alloc(&buf, pages * (size_t)page, NPRB_MEM_BIND, &node, 1, NPRB_THP_OFF, err,
                            sizeof err) == 0);
    if (err[0] != '\0')
        fprintf(stderr, "%s\n", err);
    /* Half the pages touched: the census places those on the node and the rest nowhere. */
    memset(buf.addr, 1, pages / 2 * (size_t)page);
    struct nprb_census census;
    CHECK(nprb_census_take(buf.addr, pages * (size_t)page, &census) == 0);
    CHECK(census.by_residency);
    CHECK(census.pages == pages);
    CHECK(census.per_node[sole] == pages / 2);
    CHECK(census.unplaced == pages / 2);
    /* A census summed from threads' pieces (bandwidth runs) keeps how it was counted. */
    struct nprb_census whole = {0};
    nprb_census_add(&whole, &census);
    CHECK(whole.by_residency && whole.per_node[sole] == pages / 2);
    /* The sole node binds; any other is still refused. */
    CHECK(nprb_bind_range(buf.addr, (size_t)page, node) == 0);
    CHECK(nprb_bind_range(buf.addr, (size_t)page, node + 1) == -1);
    nprb_buffer_free(&buf);
    return check_failures ? 1 : 0;
}
