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
#include <stdlib.h>
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

/* N random chains, each over its own share of the buffer. The shares start where the rotation of
 * a slot's pointer line begins again (16 KiB for 256-byte slots; a whole TLB window where the
 * window is larger and a share holds one), so each share's pointers sit where a chain over the
 * whole buffer keeps them: the buffer's one permutation check then covers every chain.
 * Each chain starts at a random place in its first TLB window. Chains built alike and started
 * alike would all enter a new window in the same round, and chains run in step read a quarter
 * fast at 8 chains (bench/README.md); independent chains have independent phases, as
 * multichase's do (all start at one slot, which sits at a random place in each chain's order).
 * One draw of the phases still moves the figure by several percent, so each sample draws anew
 * and the median spans as many draws as samples. A chain with no window boundary to cross (its
 * window holds its whole share) has no phase: moving it would only cost time. */
static void draw_phases(struct nprb_walker *w)
{
    for (unsigned j = 0; w->chains > 1 && j < w->chains; j++)
        if (w->window_slots[j] != 0)
            w->heads[j] =
                nprb_chase(w->heads[j], nprb_random_next(&w->phase_state) % w->window_slots[j]);
    w->position = w->heads[0];
}

static int build_parallel(struct nprb_walker *w, const struct nprb_walk_setup *s)
{
    const uint64_t round = 4096 * (s->slot_bytes >= 128 ? s->slot_bytes / 64 : 1);
    uint64_t share = s->chains > 0 ? s->bytes / s->chains : 0;
    uint64_t align =
        s->window_bytes > round && s->window_bytes % round == 0 && s->window_bytes <= share
            ? s->window_bytes
            : round;
    uint64_t end_bytes = s->bytes / s->slot_bytes * s->slot_bytes;
    if (s->chains < 1 || s->chains > NPRB_CHASE_MAX_CHAINS) {
        errno = EINVAL;
        return -1;
    }
    w->chains = s->chains;
    for (unsigned j = 0; j < s->chains; j++) {
        uint64_t first = s->bytes / s->chains * j / align * align;
        uint64_t end =
            j + 1 == s->chains ? end_bytes : s->bytes / s->chains * (j + 1) / align * align;
        if (end < first + 2 * s->slot_bytes) {
            errno = EINVAL; /* fewer than two slots: the working set is too small to share */
            return -1;
        }
        void **head = nprb_chain_build_random((char *)s->data + first, end - first, s->slot_bytes,
                                              s->window_bytes, s->seed + j);
        if (head == NULL)
            return -1;
        uint64_t per_window = s->window_bytes / s->slot_bytes;
        uint64_t slots = (end - first) / s->slot_bytes;
        w->window_slots[j] = per_window < slots ? per_window : 0;
        w->heads[j] = head;
    }
    w->phase_state = ~s->seed;
    draw_phases(w);
    return 0;
}

static uint64_t walk_chase(struct nprb_walker *w, uint64_t steps)
{
    w->position = nprb_chase(w->position, steps);
    chase_sink = w->position;
    return steps;
}

/* The head check writes w->position, so a corrupted first chain is seen here too. */
static uint64_t walk_parallel(struct nprb_walker *w, uint64_t steps)
{
    uint64_t per_chain = (steps + w->chains - 1) / w->chains;
    w->heads[0] = w->position;
    nprb_chase_parallel(w->heads, w->chains, per_chain);
    w->position = w->heads[0];
    for (unsigned j = 0; j < w->chains; j++)
        chase_sink = w->heads[j];
    return per_chain * w->chains;
}

static uint64_t walk_index(struct nprb_walker *w, uint64_t steps)
{
    w->last_sum = nprb_index_read(w->data, w->index, w->elements, steps);
    w->last_steps = steps;
    return steps;
}

/* In the order of the "expected" message. */
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
     .arg = NPRB_PATTERN_ARG_BYTES,
     .build = build_sequential,
     .walk = walk_chase,
     .kind = NPRB_PATTERN_STRIDE},
    {.name = "parallel",
     .slot_bytes = RANDOM_SLOT_BYTES,
     .arg = NPRB_PATTERN_ARG_COUNT,
     .build = build_parallel,
     .walk = walk_parallel,
     .between_samples = draw_phases,
     .kind = NPRB_PATTERN_PARALLEL,
     .windowed = true,
     .spread = true},
};
#define N_PATTERNS (sizeof patterns / sizeof patterns[0])

/* The argument after "NAME:" of a pattern that takes one, into @p pattern; 0 when @p text is
 * not this pattern, 1 when it is, -1 when it is but its argument is out of range. */
static int parse_arg(const struct nprb_pattern_desc *d, const char *text,
                     struct nprb_pattern *pattern, char *why, size_t len)
{
    size_t n = strlen(d->name);
    uint64_t value;
    if (strncmp(text, d->name, n) != 0 || text[n] != ':')
        return 0;
    const char *arg = text + n + 1;
    if (d->arg == NPRB_PATTERN_ARG_BYTES) {
        if (nprb_parse_size(arg, &value) != 0)
            return 0;
        if (value == 0 || value % 8 != 0 || value > (UINT64_C(1) << 30)) {
            snprintf(why, len, "stride %s must be a multiple of 8 bytes from 8B to 1GiB", arg);
            return -1;
        }
        pattern->stride_bytes = value;
    } else {
        char *end;
        errno = 0;
        value = strtoull(arg, &end, 10);
        if (end == arg || *end != '\0' || errno != 0 || arg[0] == '-' || value < 1 ||
            value > NPRB_CHASE_MAX_CHAINS) {
            snprintf(why, len, "%s takes a count of chains from 1 to %d, not '%s'", d->name,
                     NPRB_CHASE_MAX_CHAINS, arg);
            return -1;
        }
        pattern->chains = (unsigned)value;
    }
    snprintf(pattern->name, sizeof pattern->name, "%s:%llu", d->name, (unsigned long long)value);
    return 1;
}

int nprb_pattern_parse(const char *text, struct nprb_pattern *pattern, char *why, size_t len)
{
    memset(pattern, 0, sizeof *pattern);
    char choices[128] = "";
    for (size_t i = 0; i < N_PATTERNS; i++) {
        const struct nprb_pattern_desc *d = &patterns[i];
        bool last = i + 1 == N_PATTERNS;
        pattern->chains = 1;
        if (d->arg == NPRB_PATTERN_ARG_NONE) {
            nprb_choice_append(choices, sizeof choices, d->name, last);
            if (strcmp(text, d->name) != 0)
                continue;
            snprintf(pattern->name, sizeof pattern->name, "%s", d->name);
        } else {
            char spelled[32];
            snprintf(spelled, sizeof spelled, "%s:%s", d->name,
                     d->arg == NPRB_PATTERN_ARG_BYTES ? "BYTES" : "CHAINS");
            nprb_choice_append(choices, sizeof choices, spelled, last);
            int found = parse_arg(d, text, pattern, why, len);
            if (found < 0)
                return -1;
            if (found == 0)
                continue;
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
