/* SPDX-License-Identifier: BSD-3-Clause */
#include "check.h"
#include "kernels/chain.h"
#include "kernels/chase.h"
#include "kernels/pattern.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* parallel:N: N chains over shares of one buffer, each one cycle over its own share, and the
 * interleaved chase lands each chain where the single chase would. */
static void parallel_chains(void)
{
    static const unsigned counts[] = {1, 2, 3, 5, 16};
    static const size_t windows[] = {0, 4096, 256 * 1024};
    const size_t bytes = (size_t)4 << 20;
    char *buf = aligned_alloc(4096, bytes);
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++) {
            char name[32], why[160];
            struct nprb_pattern pattern;
            snprintf(name, sizeof name, "parallel:%u", counts[c]);
            CHECK(nprb_pattern_parse(name, &pattern, why, sizeof why) == 0);
            struct nprb_walk_setup setup = {.data = buf,
                                            .bytes = bytes,
                                            .slot_bytes = nprb_pattern_slot_bytes(&pattern),
                                            .window_bytes = windows[w],
                                            .seed = 5,
                                            .chains = counts[c]};
            struct nprb_walker walker = {0};
            CHECK(pattern.desc->build(&walker, &setup) == 0 && walker.chains == counts[c]);
            CHECK(nprb_chain_check_permutation(buf, bytes, setup.slot_bytes, true) == 0);
            /* Each chain comes back to its head after exactly the slots of its share, and the
             * shares add up to the buffer. */
            size_t total = 0;
            void *start[NPRB_CHASE_MAX_CHAINS];
            for (unsigned j = 0; j < counts[c]; j++) {
                start[j] = walker.heads[j];
                void **p = walker.heads[j];
                size_t steps = 0;
                do {
                    p = *p;
                    steps++;
                } while (p != walker.heads[j] && steps <= bytes / setup.slot_bytes);
                CHECK(p == walker.heads[j]);
                total += steps;
            }
            CHECK(total == bytes / setup.slot_bytes);
            uint64_t made = pattern.desc->walk(&walker, 64 * counts[c]);
            CHECK(made == 64 * counts[c]);
            for (unsigned j = 0; j < counts[c]; j++)
                CHECK(walker.heads[j] == nprb_chase(start[j], 64));
        }
    }
    struct nprb_pattern pattern;
    char why[160];
    /* Shares smaller than the TLB window (16 chains through 1 MiB, 256 KiB windows) start on
     * the pointer rotation's boundaries instead: every slot still linked. */
    struct nprb_walk_setup small = {.data = buf,
                                    .bytes = (size_t)1 << 20,
                                    .slot_bytes = 256,
                                    .window_bytes = 256 * 1024,
                                    .seed = 3,
                                    .chains = 16};
    struct nprb_walker sixteen = {0};
    CHECK(nprb_pattern_parse("parallel:16", &pattern, why, sizeof why) == 0);
    CHECK(pattern.desc->build(&sixteen, &small) == 0);
    CHECK(nprb_chain_check_permutation(buf, small.bytes, 256, true) == 0);
    /* Each chain starts at its own place in its first TLB window: chains started alike would
     * all enter a new window in the same round, and run in step read fast. From its head, a
     * chain leaves its 256 KiB window after 1 to 1024 steps, and the eight do not all agree. */
    struct nprb_walk_setup windowed = {.data = buf,
                                       .bytes = bytes,
                                       .slot_bytes = 256,
                                       .window_bytes = 256 * 1024,
                                       .seed = 42,
                                       .chains = 8};
    struct nprb_walker eight = {0};
    CHECK(nprb_pattern_parse("parallel:8", &pattern, why, sizeof why) == 0);
    CHECK(pattern.desc->build(&eight, &windowed) == 0);
    size_t first_exit = 0;
    bool in_step = true;
    for (unsigned j = 0; j < 8; j++) {
        size_t window = (size_t)((char *)eight.heads[j] - buf) / windowed.window_bytes;
        void **p = eight.heads[j];
        size_t steps = 0;
        do {
            p = *p;
            steps++;
        } while ((size_t)((char *)p - buf) / windowed.window_bytes == window && steps <= 1024);
        CHECK(steps >= 1 && steps <= 1024);
        if (j == 0)
            first_exit = steps;
        in_step &= steps == first_exit;
    }
    CHECK(!in_step);
    /* Each sample draws the phases anew: the heads move, the first one where the walk starts. */
    void *before[8];
    for (unsigned j = 0; j < 8; j++)
        before[j] = eight.heads[j];
    pattern.desc->between_samples(&eight);
    bool moved = false;
    for (unsigned j = 0; j < 8; j++)
        moved |= eight.heads[j] != before[j];
    CHECK(moved && eight.position == eight.heads[0]);
    /* A share under two slots is refused. */
    struct nprb_walk_setup tiny = {.data = buf, .bytes = 1024, .slot_bytes = 256, .chains = 16};
    struct nprb_walker walker = {0};
    CHECK(pattern.desc->build(&walker, &tiny) == -1);
    free(buf);
}

/* One build of parallel chains serves every count: relinked from whatever count it was laid out
 * for, a buffer is byte for byte what a build for the new count makes, and each chain stays in
 * its own share (its slots, and only those, one cycle). */
static void parallel_relink(void)
{
    static const unsigned order[] = {16, 1, 2, 4, 6, 8, 10, 12, 16, 3, 7, 1, 13};
    static const size_t windows[] = {256 * 1024, 4096, 0};
    const size_t bytes = ((size_t)8 << 20) + 3 * 256;
    /* aligned_alloc wants a size that is a multiple of the alignment (ASan insists). */
    const size_t rounded = (bytes + 4095) & ~(size_t)4095;
    char *buf = aligned_alloc(4096, rounded), *fresh = aligned_alloc(4096, rounded);
    /* A build writes only each slot's link; the rest is compared too, so it starts alike (ASan
     * fills new memory with its own byte, where numaprobe's mappings start zeroed). */
    memset(buf, 0, rounded);
    memset(fresh, 0, rounded);
    for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++) {
        struct nprb_pattern pattern;
        char why[160];
        CHECK(nprb_pattern_parse("parallel:16", &pattern, why, sizeof why) == 0);
        CHECK(pattern.desc->relink != NULL);
        struct nprb_walk_setup setup = {
            .data = buf, .bytes = bytes, .slot_bytes = 256, .window_bytes = windows[w], .seed = 9};
        struct nprb_walker walker = {0};
        for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
            setup.chains = order[k];
            CHECK((k == 0 ? pattern.desc->build(&walker, &setup)
                          : pattern.desc->relink(&walker, &setup)) == 0);
            CHECK(walker.chains == order[k]);
            struct nprb_walk_setup again = setup;
            struct nprb_walker other = {0};
            again.data = fresh;
            CHECK(pattern.desc->build(&other, &again) == 0);
            size_t differ = 0;
            for (size_t off = 0; off + sizeof(void *) <= bytes; off += sizeof(void *)) {
                char *a = *(char **)(buf + off), *b = *(char **)(fresh + off);
                differ += (a == NULL) != (b == NULL) || (a != NULL && a - buf != b - fresh);
            }
            CHECK(differ == 0);
            CHECK(nprb_chain_check_permutation(buf, bytes, 256, true) == 0);
            /* Chain j: one cycle over a run of consecutive slots, its share. */
            size_t total = 0;
            for (unsigned j = 0; j < order[k]; j++) {
                void **p = walker.heads[j];
                char *lo = buf + bytes, *hi = buf;
                size_t steps = 0;
                do {
                    p = *p;
                    steps++;
                    char *slot = buf + ((char *)p - buf) / 256 * 256;
                    lo = slot < lo ? slot : lo;
                    hi = slot > hi ? slot : hi;
                } while (p != walker.heads[j] && steps <= bytes / 256);
                CHECK(p == walker.heads[j] && lo >= buf && hi < buf + bytes);
                CHECK(steps == (size_t)(hi - lo) / 256 + 1);
                total += steps;
            }
            CHECK(total == bytes / 256);
        }
    }
    free(buf);
    free(fresh);
}

int main(void)
{
    parallel_chains();
    parallel_relink();
    /* Sizes around the edges: 2 slots, odd counts, 64 B and 128 B slots. */
    static const size_t slot_counts[] = {2, 3, 17, 1000, 65536};
    static const size_t slot_sizes[] = {8, 64, 128};
    for (size_t a = 0; a < sizeof slot_counts / sizeof slot_counts[0]; a++) {
        for (size_t b = 0; b < sizeof slot_sizes / sizeof slot_sizes[0]; b++) {
            size_t bytes = slot_counts[a] * slot_sizes[b];
            void *buf = aligned_alloc(64, (bytes + 63) / 64 * 64);
            void **head = nprb_chain_build_random(buf, bytes, slot_sizes[b], 0, 1234 + a);
            CHECK(head != NULL);
            CHECK(nprb_chain_check_permutation(buf, bytes, slot_sizes[b], true) == 0);
            CHECK(nprb_chain_check_cycle(buf, bytes, slot_sizes[b], true, head) == 0);
            /* Read as a sequential layout, a spread chain (slots of 128 B and more) fails. */
            if (slot_sizes[b] >= 128 && bytes > 4096)
                CHECK(nprb_chain_check_permutation(buf, bytes, slot_sizes[b], false) == -1);
            free(buf);
        }
    }

    /* Same seed, same chain; different seed, different chain. */
    size_t bytes = 4096 * 64;
    void **x = aligned_alloc(64, bytes), **y = aligned_alloc(64, bytes);
    nprb_chain_build_random(x, bytes, 64, 0, 99);
    nprb_chain_build_random(y, bytes, 64, 0, 99);
    int same = 1;
    for (size_t k = 0; k < 4096; k++)
        same &= (char *)x[k * 8] - (char *)x == (char *)y[k * 8] - (char *)y;
    CHECK(same);
    nprb_chain_build_random(y, bytes, 64, 0, 100);
    same = 1;
    for (size_t k = 0; k < 4096; k++)
        same &= (char *)x[k * 8] - (char *)x == (char *)y[k * 8] - (char *)y;
    CHECK(!same);

    /* Corruptions the checks must catch. Two cycles: swap the targets of two slots. */
    void *t = x[0];
    x[0] = x[8];
    x[8] = t;
    CHECK(nprb_chain_check_permutation(x, bytes, 64, true) == 0); /* still a permutation ... */
    CHECK(nprb_chain_check_cycle(x, bytes, 64, true, x) == -1);   /* ... but not one cycle */
    x[8] = x[0];                                                  /* a slot pointed at twice */
    CHECK(nprb_chain_check_permutation(x, bytes, 64, true) == -1);
    x[8] = (char *)x + 3; /* a link into a slot's middle */
    CHECK(nprb_chain_check_permutation(x, bytes, 64, true) == -1);
    x[8] = (char *)x + bytes; /* a link out of the buffer */
    CHECK(nprb_chain_check_permutation(x, bytes, 64, true) == -1);

    /* The chase follows the links: after one full lap it is back at the head. */
    void **start = nprb_chain_build_random(y, bytes, 64, 0, 5);
    CHECK(nprb_chase(start, 4096) == (void *)start);
    CHECK(nprb_chase(start, 16) != (void *)start);

    /* Sequential chains (stride patterns): slot k links to k+1, the last back to the first. */
    static const size_t strides[] = {8, 64, 256, 4096};
    for (size_t s = 0; s < sizeof strides / sizeof strides[0]; s++) {
        void **h = nprb_chain_build_sequential(x, bytes, strides[s]);
        CHECK(h == x);
        CHECK(nprb_chain_check_cycle(x, bytes, strides[s], false, h) == 0);
        CHECK(*h == (char *)x + strides[s]);
        CHECK(*(void **)((char *)x + bytes / strides[s] * strides[s] - strides[s]) == (void *)x);
    }
    CHECK(nprb_chain_build_sequential(x, bytes, 12) == NULL);

    /* 256-byte slots spread their pointers over the slot's 4 lines, so every cache set is used:
     * count the distinct line offsets the chain's pointers sit at. */
    void **h256 = nprb_chain_build_random(x, bytes, 256, 0, 3);
    int used[4] = {0};
    void **q = h256;
    for (size_t k = 0; k < bytes / 256; k++) {
        used[(((char *)q - (char *)x) % 256) / 64] = 1;
        q = *q;
    }
    CHECK(used[0] && used[1] && used[2] && used[3]);

    CHECK(nprb_chain_build_random(x, 64, 64, 0, 1) == NULL); /* one slot is no chain */
    CHECK(nprb_chain_build_random(x, bytes, 12, 0, 1) == NULL);

    /* TLB windows: still one cycle over every slot, and each window's slots are visited in one
     * run, so a lap changes window exactly once per window. A partial last window too. */
    static const size_t windows[] = {4096, 8192, 64 * 100};
    for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++) {
        void **h = nprb_chain_build_random(x, bytes, 64, windows[w], 7);
        CHECK(nprb_chain_check_cycle(x, bytes, 64, true, h) == 0);
        size_t changes = 0, count = (bytes + windows[w] - 1) / windows[w];
        void **p = h;
        for (size_t k = 0; k < bytes / 64; k++) {
            void **next = *p;
            changes +=
                ((char *)next - (char *)x) / windows[w] != ((char *)p - (char *)x) / windows[w];
            p = next;
        }
        CHECK(changes == count);
    }
    free(x);
    free(y);
    return CHECK_DONE();
}
