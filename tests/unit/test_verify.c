/* SPDX-License-Identifier: BSD-3-Clause */
/* The page census: touched pages are found on a node, pages never touched are unplaced (not
 * resident: mincore), not unreported, and the placement fraction is over the pages that
 * reported. The frame-to-node map agrees with move_pages where frames are readable (root). */
#include "check.h"
#include "util/fault.h"
#include "host/verify.h"

#include <fcntl.h>
#include <numaif.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Lines of /proc/self/maps that overlap [addr, addr + bytes). */
static int mappings_over(const void *addr, size_t bytes)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (f == NULL)
        return -1;
    uintptr_t lo = (uintptr_t)addr, hi = lo + bytes;
    unsigned long start, end;
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "%lx-%lx", &start, &end) == 2 && start < hi && end > lo)
            n++;
    fclose(f);
    return n;
}

int main(void)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), pages = 64;
    char *buf =
        mmap(NULL, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(buf != MAP_FAILED);
    memset(buf, 1, pages / 2 * page); /* the first half touched, the second never */

    struct nprb_census c;
    CHECK(nprb_census_take(buf, pages * page, &c) == 0);
    uint64_t placed = 0;
    for (int n = 0; n < NPRB_MAX_NODES; n++)
        placed += c.per_node[n];
    CHECK(c.pages == pages);
    CHECK(placed == pages / 2);
    CHECK(c.unplaced == pages / 2);
    CHECK(c.unreported == 0);
    CHECK(nprb_census_reported(&c) == pages);

    /* Pieces of one mapping are counted each on its own, and the mapping is left whole. */
    struct nprb_piece pieces[4];
    struct nprb_census piece_census[4];
    for (int i = 0; i < 4; i++)
        pieces[i] = (struct nprb_piece){buf + (size_t)i * pages / 4 * page, pages / 4 * page};
    CHECK(nprb_census_take_pieces(pieces, 4, true, piece_census) == 0);
    for (int i = 0; i < 4; i++) {
        CHECK(piece_census[i].pages == pages / 4);
        CHECK(piece_census[i].unplaced == (i < 2 ? 0 : pages / 4));
    }
    CHECK(mappings_over(buf, pages * page) == 1);
    /* With frames hidden (an unprivileged run under NUMA balancing) a piece's pages are found
     * only in numa_maps, which counts whole mappings: each piece is cut out to be counted, and
     * the mapping is whole again afterwards. */
    setenv("NUMAPROBE_FAULT", "hidden_frames", 1);
    nprb_fault_reload();
    CHECK(nprb_census_take_pieces(pieces, 4, false, piece_census) == 0);
    CHECK(piece_census[0].unreported == pages / 4);
    CHECK(nprb_census_take_pieces(pieces, 4, true, piece_census) == 0);
    for (int i = 0; i < 4; i++) {
        uint64_t found = 0;
        for (int n = 0; n < NPRB_MAX_NODES; n++)
            found += piece_census[i].per_node[n];
        CHECK(piece_census[i].unreported == 0);
        CHECK(found == (i < 2 ? pages / 4 : 0));
    }
    CHECK(mappings_over(buf, pages * page) == 1);
    unsetenv("NUMAPROBE_FAULT");
    nprb_fault_reload();

    /* The fraction is over reported pages: unreported ones are left out, not counted as off. */
    struct nprb_census made = {.pages = 100, .unreported = 40};
    made.per_node[1] = 60;
    unsigned node1 = 1, node0 = 0;
    CHECK(nprb_census_fraction_on(&made, &node1, 1) == 1.0);
    CHECK(nprb_census_fraction_on(&made, &node0, 1) == 0.0);
    struct nprb_census none = {.pages = 10, .unreported = 10};
    CHECK(nprb_census_fraction_on(&none, &node1, 1) == 0.0);

    /* Where this process may read frames, a touched page's frame lies on the node move_pages
     * names. */
    int fd = open("/proc/self/pagemap", O_RDONLY);
    uint64_t entry = 0;
    if (fd >= 0 && pread(fd, &entry, sizeof entry, (off_t)((uintptr_t)buf / page * 8)) == 8 &&
        (entry & ((1ULL << 55) - 1)) != 0) {
        void *p = buf;
        int status = -1;
        CHECK(move_pages(0, 1, &p, NULL, &status, 0) == 0);
        CHECK(nprb_frame_node(entry & ((1ULL << 55) - 1)) == status);
    }
    if (fd >= 0)
        close(fd);
    munmap(buf, pages * page);

    /* Frame spans from zoneinfo: node 0 holds frames [1, 81920) in two zones (320 MiB, as in the
     * 8-node guest, whose 128 MiB memory blocks straddle nodes), node 1 [81920, 163840); a
     * third node's span overlapping node 1's makes that range unknown, not anyone's. */
    static const char zoneinfo[] = "Node 0, zone      DMA\n"
                                   "  pages free     100\n"
                                   "        spanned  4095\n"
                                   "  start_pfn:           1\n"
                                   "Node 0, zone    DMA32\n"
                                   "        spanned  77824\n"
                                   "  start_pfn:           4096\n"
                                   "Node 0, zone  Movable\n"
                                   "        spanned  0\n"
                                   "  start_pfn:           0\n"
                                   "Node 1, zone    DMA32\n"
                                   "        spanned  81920\n"
                                   "  start_pfn:           81920\n"
                                   "Node 2, zone   Normal\n"
                                   "        spanned  1000\n"
                                   "  start_pfn:           150000\n";
    FILE *zi = fmemopen((void *)zoneinfo, sizeof zoneinfo - 1, "r");
    static struct nprb_frame_spans spans;
    nprb_frame_spans_read(zi, &spans);
    fclose(zi);
    CHECK(spans.count == 4);
    CHECK(nprb_frame_spans_node(&spans, 0) == -1);
    CHECK(nprb_frame_spans_node(&spans, 1) == 0);
    CHECK(nprb_frame_spans_node(&spans, 70000) == 0); /* 273 MiB: in the straddling block */
    CHECK(nprb_frame_spans_node(&spans, 81919) == 0);
    CHECK(nprb_frame_spans_node(&spans, 81920) == 1);
    CHECK(nprb_frame_spans_node(&spans, 150500) == -1); /* nodes 1 and 2 overlap */
    CHECK(nprb_frame_spans_node(&spans, 163840) == -1);
    return CHECK_DONE();
}
