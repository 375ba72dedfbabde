/* SPDX-License-Identifier: BSD-3-Clause */
/* Real placement on this host: memory bound to each node lands there (move_pages says so),
 * threads pinned to a PU run there and get their old binding back. Skips (77) where the kernel
 * refuses mbind or move_pages (some containers). */
#include "check.h"
#include "util/fault.h"
#include "host/place.h"
#include "host/topo.h"
#include "host/verify.h"
#include "util/populate.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>

int main(void)
{
    struct nprb_topo *t = NULL;
    char err[256];
    if (nprb_topo_create(&t, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    size_t bytes = 8u << 20;
    for (int i = 0; i < nprb_topo_node_count(t); i++) {
        unsigned node = nprb_topo_node(t, i)->os_index;
        struct nprb_buffer buf;
        if (nprb_buffer_alloc(&buf, bytes, NPRB_MEM_BIND, &node, 1, NPRB_THP_OFF, err,
                              sizeof err) != 0) {
            fprintf(stderr, "skip: %s\n", err);
            nprb_topo_destroy(t);
            return errno == EPERM || errno == ENOSYS ? SKIP_TEST : 1;
        }
        CHECK(((uintptr_t)buf.addr & ((2u << 20) - 1)) == 0);
        memset(buf.addr, 1, buf.bytes);
        struct nprb_census census;
        if (nprb_census_take(buf.addr, buf.bytes, &census) != 0) {
            fprintf(stderr, "skip: move_pages: %s\n", strerror(errno));
            nprb_topo_destroy(t);
            return SKIP_TEST;
        }
        CHECK(census.pages == bytes / 4096);
        CHECK(census.per_node[node] == census.pages);
        CHECK(nprb_census_fraction_on(&census, &node, 1) == 1.0);
        CHECK(nprb_buffer_huge_fraction(&buf) == 0.0); /* THP refused by madvise */
        nprb_buffer_free(&buf);
    }

    /* A request larger than the node can hold is refused with the node named, not OOM-killed. */
    unsigned node0 = nprb_topo_node(t, 0)->os_index;
    struct nprb_buffer huge;
    errno = 0;
    CHECK(nprb_buffer_alloc(&huge, (size_t)nprb_topo_node(t, 0)->memory_bytes, NPRB_MEM_BIND,
                            &node0, 1, NPRB_THP_SYSTEM, err, sizeof err) == -1);
    CHECK(errno == ENOMEM);
    CHECK_STR_CONTAINS(err, "cannot place");
    /* First touch spills to other nodes, so the host's memory bounds it: all of it is more
     * than is free. */
    size_t all_memory = 0;
    for (int i = 0; i < nprb_topo_node_count(t); i++)
        all_memory += (size_t)nprb_topo_node(t, i)->memory_bytes;
    errno = 0;
    CHECK(nprb_buffer_alloc(&huge, all_memory, NPRB_MEM_FIRST_TOUCH, NULL, 0, NPRB_THP_SYSTEM, err,
                            sizeof err) == -1);
    CHECK(errno == ENOMEM);
    CHECK_STR_CONTAINS(err, "by first touch: the host has");
    /* The estimate's first-touch rate: a rate, whatever the machine. */
    CHECK(nprb_first_touch_bps(8 << 20, NPRB_THP_OFF) > 0);

    /* A sweep's kept buffers: handed back to a request of the same placement that fits in
     * them, grown into with pages where the policy puts them; any other placement, or a request
     * past the capacity, gets a mapping of its own; after the end, a buffer is unmapped. */
    const size_t mib = 1u << 20;
    unsigned last = nprb_topo_node(t, nprb_topo_node_count(t) - 1)->os_index;
    struct nprb_buffer kept, other, big;
    nprb_buffer_keep_begin(16 * mib);
    CHECK(nprb_buffer_alloc(&kept, mib, NPRB_MEM_BIND, &node0, 1, NPRB_THP_OFF, err, sizeof err) ==
          0);
    CHECK(kept.capacity == 16 * mib);
    memset(kept.addr, 1, kept.bytes);
    void *first = kept.addr;
    nprb_buffer_free(&kept);
    CHECK(nprb_buffer_alloc(&kept, 8 * mib, NPRB_MEM_BIND, &node0, 1, NPRB_THP_OFF, err,
                            sizeof err) == 0);
    CHECK(kept.addr == first);
    CHECK(kept.bytes == 8 * mib && kept.touched == 8 * mib);
    memset(kept.addr, 2, kept.bytes);
    struct nprb_census grown;
    CHECK(nprb_census_take(kept.addr, kept.bytes, &grown) == 0);
    CHECK(grown.pages == 8 * mib / 4096);
    CHECK(grown.per_node[node0] == grown.pages);
    CHECK(nprb_buffer_huge_fraction(&kept) == 0.0);
    nprb_buffer_free(&kept);
    CHECK(nprb_buffer_alloc(&other, mib, NPRB_MEM_BIND, &node0, 1, NPRB_THP_SYSTEM, err,
                            sizeof err) == 0);
    CHECK(other.addr != first); /* another page mode */
    nprb_buffer_free(&other);
    CHECK(nprb_buffer_alloc(&other, mib, NPRB_MEM_INTERLEAVE, &node0, 1, NPRB_THP_OFF, err,
                            sizeof err) == 0);
    CHECK(other.addr != first); /* another policy */
    nprb_buffer_free(&other);
    if (last != node0) {
        CHECK(nprb_buffer_alloc(&other, mib, NPRB_MEM_BIND, &last, 1, NPRB_THP_OFF, err,
                                sizeof err) == 0);
        CHECK(other.addr != first); /* another node */
        memset(other.addr, 3, other.bytes);
        struct nprb_census there;
        CHECK(nprb_census_take(other.addr, other.bytes, &there) == 0);
        CHECK(there.per_node[last] == there.pages);
        nprb_buffer_free(&other);
    }
    CHECK(nprb_buffer_alloc(&big, 32 * mib, NPRB_MEM_BIND, &node0, 1, NPRB_THP_OFF, err,
                            sizeof err) == 0);
    CHECK(big.addr != first && big.capacity == 32 * mib);
    nprb_buffer_free(&big);
    CHECK(nprb_buffer_alloc(&kept, 2 * mib, NPRB_MEM_BIND, &node0, 1, NPRB_THP_OFF, err,
                            sizeof err) == 0);
    CHECK(kept.touched == 32 * mib || kept.touched == 8 * mib); /* a kept one, most touched */
    nprb_buffer_free(&kept);
    /* First-touch pages lie where their toucher ran, which the key does not say: never kept. */
    CHECK(nprb_buffer_alloc(&other, 4 * mib, NPRB_MEM_FIRST_TOUCH, NULL, 0, NPRB_THP_OFF, err,
                            sizeof err) == 0);
    memset(other.addr, 4, other.bytes);
    nprb_buffer_free(&other);
    CHECK(nprb_buffer_alloc(&other, mib, NPRB_MEM_FIRST_TOUCH, NULL, 0, NPRB_THP_OFF, err,
                            sizeof err) == 0);
    CHECK(other.touched == mib); /* a fresh mapping: a kept one would say 4 MiB */
    nprb_buffer_free(&other);
    nprb_buffer_keep_end();
    CHECK(nprb_buffer_alloc(&kept, mib, NPRB_MEM_BIND, &node0, 1, NPRB_THP_OFF, err, sizeof err) ==
          0);
    CHECK(kept.capacity == mib && kept.touched == mib); /* not keeping: its own size */
    nprb_buffer_free(&kept);
    CHECK(kept.addr == NULL);

    /* The pages numaprobe keeps are room it can give back. On nodes that say they have 64 MiB
     * free (57 MiB once a tenth is spared), a kept 32 MiB bind mapping on node 0 makes room
     * for 80 MiB of another placement there, as for the bind cell and then the preferred and
     * first-touch cells of one pair on a small guest, and is unmapped first, so the new pages
     * find it free instead of spilling. Whether it went shows in the next bind request of its
     * key: a fresh mapping's touched bytes are its own. */
    setenv("NUMAPROBE_FAULT", "small_nodes", 1);
    nprb_fault_reload();
    CHECK(nprb_node_free_bytes(node0) == 64 * mib);
    nprb_buffer_keep_begin(32 * mib);
    const enum nprb_mem_policy others[] = {NPRB_MEM_PREFERRED, NPRB_MEM_INTERLEAVE,
                                           NPRB_MEM_FIRST_TOUCH};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        CHECK(nprb_buffer_alloc(&kept, 32 * mib, NPRB_MEM_BIND, &node0, 1, NPRB_THP_OFF, err,
                                sizeof err) == 0);
        memset(kept.addr, 5, kept.bytes);
        nprb_buffer_free(&kept);
        if (nprb_buffer_alloc(&other, 80 * mib, others[i], &node0, 1, NPRB_THP_OFF, err,
                              sizeof err) != 0) {
            fprintf(stderr, "%s: 80 MiB refused: %s\n", nprb_mem_policy_name(others[i]), err);
            check_failures++;
            continue;
        }
        nprb_buffer_free(&other);
        CHECK(nprb_buffer_alloc(&kept, mib, NPRB_MEM_BIND, &node0, 1, NPRB_THP_OFF, err,
                                sizeof err) == 0);
        CHECK(kept.touched == mib); /* 32 MiB: still kept, in the way */
        nprb_buffer_free(&kept);
    }
    /* Past what is free and kept together, the refusal names both: 64 + 32 MiB. */
    CHECK(nprb_buffer_alloc(&kept, 32 * mib, NPRB_MEM_BIND, &node0, 1, NPRB_THP_OFF, err,
                            sizeof err) == 0);
    memset(kept.addr, 6, kept.bytes);
    nprb_buffer_free(&kept);
    CHECK(nprb_buffer_alloc(&other, 120 * mib, NPRB_MEM_BIND, &node0, 1, NPRB_THP_SYSTEM, err,
                            sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "it has 96 MiB free");
    nprb_buffer_keep_end();
    unsetenv("NUMAPROBE_FAULT");
    nprb_fault_reload();

    /* Pages faulted in ahead of their stores: only those wholly inside the range, where the
     * policy says (the last node's, bound); nothing with the fault that stands for an old
     * kernel, whose stores then fault them as before. */
    const size_t page = 4096;
    CHECK(nprb_buffer_alloc(&other, 16 * page, NPRB_MEM_BIND, &last, 1, NPRB_THP_OFF, err,
                            sizeof err) == 0);
    char *base = other.addr;
    unsigned char resident[16];
    size_t got = nprb_populate(base + 1, 4 * page);
    struct utsname os;
    int major = 0, minor = 0;
    CHECK(uname(&os) == 0 && sscanf(os.release, "%d.%d", &major, &minor) == 2);
    CHECK(got != 0 || major < 5 || (major == 5 && minor < 14)); /* the call is there since 5.14 */
    if (got != 0) {
        CHECK(got == 3 * page);
        CHECK(mincore(base, 16 * page, resident) == 0);
        CHECK(!(resident[0] & 1) && (resident[1] & 1) && (resident[3] & 1) && !(resident[4] & 1));
        struct nprb_census landed;
        CHECK(nprb_census_take(base + page, 3 * page, &landed) == 0);
        CHECK(landed.per_node[last] == 3);
    }
    CHECK(nprb_populate(base + 1, page) == 0); /* no whole page inside */
    setenv("NUMAPROBE_FAULT", "no_populate", 1);
    nprb_fault_reload();
    CHECK(nprb_populate(base + 8 * page, 4 * page) == 0);
    CHECK(mincore(base, 16 * page, resident) == 0 && !(resident[8] & 1));
    unsetenv("NUMAPROBE_FAULT");
    nprb_fault_reload();
    nprb_buffer_free(&other);

    /* Pinning: runs where pinned, and the old binding comes back. */
    cpu_set_t before, after;
    sched_getaffinity(0, sizeof before, &before);
    unsigned pus[4];
    CHECK(nprb_topo_node_pus(t, 0, pus, 4) >= 1);
    struct nprb_pin pin;
    CHECK(nprb_pin_thread(&pin, nprb_topo_hwloc(t), pus[0]) == 0);
    CHECK(nprb_pin_holds(&pin));
    nprb_unpin_thread(&pin);
    sched_getaffinity(0, sizeof after, &after);
    CHECK(CPU_EQUAL(&before, &after));

    CHECK(strcmp(nprb_mem_policy_name(NPRB_MEM_INTERLEAVE), "interleave") == 0);
    nprb_topo_destroy(t);
    return CHECK_DONE();
}
