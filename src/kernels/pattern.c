/* SPDX-License-Identifier: BSD-3-Clause */
/* The latency pattern table: each pattern's name, slot spacing, build and walk. */
#include "kernels/pattern.h"

#include "kernels/chain.h"
#include "kernels/chase.h"
#include "kernels/indexed.h"
#include "kernels/stream.h"
#include "util/names.h"
#include "util/units.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Random chains space their slots 256 bytes apart, each load touching the first line of its
 * slot. Adjacent-line and pair prefetchers fetch the neighbour of every missed line (128-byte
 * pairs); with 64-byte slots that neighbour is a slot the chain visits soon within a TLB window,
 * and the figure dropped by a quarter on the development machine. 256 is multichase's default
 * stride for the same reason. */
#define RANDOM_SLOT_BYTES 256

/* Results leave through volatile stores, so the compiler must keep every load feeding them. */
static void *volatile chase_sink;

static int build_random(struct nprb_walker *w, const struct nprb_walk_setup *s)
{
    w->position =
        nprb_chain_build_random(s->data, s->bytes, s->slot_bytes, s->window_bytes, s->seed);
    return w->position != NULL ? 0 : -1;
}

static int build_sequential(struct nprb_walker *w, const struct nprb_walk_setup *s)
{
    w->position = nprb_chain_build_sequential(s->data, s->bytes, s->slot_bytes);
    return w->position != NULL ? 0 : -1;
}

/* Every element 1.0 and the index a random permutation: what read_random starts from. */
static int build_index(struct nprb_walker *w, const struct nprb_walk_setup *s)
{
    struct nprb_stream_args args = {
        .a = s->data, .n = s->bytes / sizeof(double), .index = s->index};
    nprb_stream_init(&args, s->seed);
    w->position = NULL;
    w->data = args.a;
    w->index = args.index;
    w->elements = args.n;
    return 0;
}

static void walk_chase(struct nprb_walker *w, uint64_t steps)
{
    w->position = nprb_chase(w->position, steps);
    chase_sink = w->position;
}

static void walk_index(struct nprb_walker *w, uint64_t steps)
{
    w->last_sum = nprb_index_read(w->data, w->index, w->elements, steps);
    w->last_steps = steps;
}

/* In the order of the "expected" message; "stride" takes its size after a colon. */
static const struct nprb_pattern_desc patterns[] = {
    {.name = "random",
     .slot_bytes = RANDOM_SLOT_BYTES,
     .build = build_random,
     .walk = walk_chase,
     .kind = NPRB_PATTERN_RANDOM,
     .windowed = true,
     .spread = true},
    {.name = "random_full",
     .slot_bytes = RANDOM_SLOT_BYTES,
     .build = build_random,
     .walk = walk_chase,
     .kind = NPRB_PATTERN_RANDOM_FULL,
     .spread = true},
    {.name = "index_random",
     .slot_bytes = sizeof(double),
     .build = build_index,
     .walk = walk_index,
     .kind = NPRB_PATTERN_INDEX,
     .indexed = true},
    {.name = "stride",
     .slot_bytes = 0,
     .build = build_sequential,
     .walk = walk_chase,
     .kind = NPRB_PATTERN_STRIDE},
};
#define N_PATTERNS (sizeof patterns / sizeof patterns[0])

int nprb_pattern_parse(const char *text, struct nprb_pattern *pattern, char *why, size_t len)
{
    memset(pattern, 0, sizeof *pattern);
    char choices[128] = "";
    for (size_t i = 0; i < N_PATTERNS; i++) {
        const struct nprb_pattern_desc *d = &patterns[i];
        bool last = i + 1 == N_PATTERNS;
        if (d->slot_bytes != 0) {
            nprb_choice_append(choices, sizeof choices, d->name, last);
            if (strcmp(text, d->name) != 0)
                continue;
            snprintf(pattern->name, sizeof pattern->name, "%s", d->name);
        } else {
            char spelled[32];
            snprintf(spelled, sizeof spelled, "%s:BYTES", d->name);
            nprb_choice_append(choices, sizeof choices, spelled, last);
            size_t n = strlen(d->name);
            uint64_t stride;
            if (strncmp(text, d->name, n) != 0 || text[n] != ':' ||
                nprb_parse_size(text + n + 1, &stride) != 0)
                continue;
            if (stride == 0 || stride % 8 != 0 || stride > (UINT64_C(1) << 30)) {
                snprintf(why, len, "stride %s must be a multiple of 8 bytes from 8B to 1GiB",
                         text + n + 1);
                return -1;
            }
            pattern->stride_bytes = stride;
            snprintf(pattern->name, sizeof pattern->name, "%s:%llu", d->name,
                     (unsigned long long)stride);
        }
        pattern->kind = d->kind;
        pattern->desc = d;
        return 0;
    }
    snprintf(why, len, "unknown pattern '%s' (expected %s)", text, choices);
    return -1;
}

uint64_t nprb_pattern_slot_bytes(const struct nprb_pattern *pattern)
{
    return pattern->desc->slot_bytes != 0 ? pattern->desc->slot_bytes : pattern->stride_bytes;
}
