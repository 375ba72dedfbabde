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

/* Where share j of @p chains starts and ends; false when it holds fewer than two slots. */
static bool share_of(const struct nprb_walk_setup *s, unsigned chains, unsigned j, uint64_t *first,
                     uint64_t *end)
{
    const uint64_t round = 4096 * (s->slot_bytes >= 128 ? s->slot_bytes / 64 : 1);
    uint64_t share = s->bytes / chains;
    uint64_t align =
        s->window_bytes > round && s->window_bytes % round == 0 && s->window_bytes <= share
            ? s->window_bytes
            : round;
    *first = s->bytes / chains * j / align * align;
    *end = j + 1 == chains ? s->bytes / s->slot_bytes * s->slot_bytes
                           : s->bytes / chains * (j + 1) / align * align;
    return *end >= *first + 2 * s->slot_bytes;
}

static bool shares_fit(const struct nprb_walk_setup *s, unsigned chains)
{
    uint64_t first, end;
    for (unsigned j = 0; j < chains; j++)
        if (!share_of(s, chains, j, &first, &end))
            return false;
    return true;
}

/* Every count's shares start and end on a piece's edge: at most N + 1 edges of each count N. */
#define MAX_EDGES (NPRB_CHASE_MAX_CHAINS * (NPRB_CHASE_MAX_CHAINS + 3) / 2)

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The edges of the pieces of the buffer: every share's of every count of chains that fits, in
 * ascending order, each once. @return how many (pieces + 1). */
static unsigned piece_edges(const struct nprb_walk_setup *s, uint64_t *edges)
{
    unsigned n = 0;
    for (unsigned chains = 1; chains <= NPRB_CHASE_MAX_CHAINS; chains++) {
        uint64_t first, end;
        for (unsigned j = 0; shares_fit(s, chains) && j < chains; j++) {
            share_of(s, chains, j, &first, &end);
            edges[n++] = first;
            if (j + 1 == chains)
                edges[n++] = end;
        }
    }
    qsort(edges, n, sizeof *edges, cmp_u64);
    unsigned kept = 0;
    for (unsigned i = 0; i < n; i++)
        if (kept == 0 || edges[i] != edges[kept - 1])
            edges[kept++] = edges[i];
    return kept;
}

static void swap_next(void **a, void **b)
{
    void *t = *a;
    *a = *b;
    *b = t;
}

/* Joins (or parts again: each swap undoes itself) the pieces of every share of @p chains.
 * Swapping the successors of two slots in two cycles makes one cycle of them, each piece's own
 * order kept: share j's chain is its pieces' cycles one after the other. Undone in the reverse
 * order, the pieces are their own cycles again. */
static void join_pieces(const struct nprb_walk_setup *s, const uint64_t *edges, unsigned n_edges,
                        unsigned chains, bool undo)
{
    char *base = s->data;
    for (unsigned jj = 0; jj < chains; jj++) {
        unsigned j = undo ? chains - 1 - jj : jj;
        uint64_t first, end;
        share_of(s, chains, j, &first, &end);
        unsigned p0 = 0, p1 = 0;
        while (p0 < n_edges && edges[p0] < first)
            p0++;
        for (p1 = p0; p1 < n_edges && edges[p1] < end; p1++)
            ;
        /* pieces p0 .. p1 - 1; the pointer of a piece's first slot sits at its start (the
         * rotation of pointer lines starts again on every edge) */
        for (unsigned k = 1; k < p1 - p0; k++) {
            unsigned q = undo ? p1 - k : p0 + k;
            swap_next((void **)(base + edges[p0]), (void **)(base + edges[q]));
        }
    }
}

/* Lays the pieces out as @p s->chains chains, from the layout of @p w->chains (0: every piece its
 * own cycle), and sets the walker at their starts. */
static int link_parallel(struct nprb_walker *w, const struct nprb_walk_setup *s)
{
    if (s->chains < 1 || s->chains > NPRB_CHASE_MAX_CHAINS || !shares_fit(s, s->chains)) {
        errno = EINVAL; /* fewer than two slots a chain: the working set is too small to share */
        return -1;
    }
    uint64_t edges[MAX_EDGES];
    unsigned n_edges = piece_edges(s, edges);
    if (w->chains > 0)
        join_pieces(s, edges, n_edges, w->chains, true);
    join_pieces(s, edges, n_edges, s->chains, false);
    w->chains = s->chains;
    for (unsigned j = 0; j < s->chains; j++) {
        uint64_t first, end;
        share_of(s, s->chains, j, &first, &end);
        uint64_t per_window = s->window_bytes / s->slot_bytes;
        uint64_t slots = (end - first) / s->slot_bytes;
        w->window_slots[j] = per_window < slots ? per_window : 0;
        w->heads[j] = (char *)s->data + first;
    }
    w->phase_state = ~s->seed;
    draw_phases(w);
    return 0;
}

/* One set of chains for every count: the buffer is cut into pieces at every count's share
 * edges, each piece its own random cycle (random within its TLB windows, the windows in random
 * order), and a count's chains are its shares' pieces joined (link_parallel). Another count
 * then re-joins a few slots' pointers instead of writing every link again, which cost as much as
 * faulting the memory in, once per count. */
static int build_parallel(struct nprb_walker *w, const struct nprb_walk_setup *s)
{
    if (s->chains < 1 || s->chains > NPRB_CHASE_MAX_CHAINS || !shares_fit(s, s->chains)) {
        errno = EINVAL;
        return -1;
    }
    uint64_t edges[MAX_EDGES];
    unsigned n_edges = piece_edges(s, edges);
    for (unsigned p = 0; p + 1 < n_edges; p++)
        if (nprb_chain_build_random((char *)s->data + edges[p], edges[p + 1] - edges[p],
                                    s->slot_bytes, s->window_bytes, s->seed + p) == NULL)
            return -1;
    w->chains = 0;
    return link_parallel(w, s);
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
     .relink = link_parallel,
     .kind = NPRB_PATTERN_PARALLEL,
     .windowed = true,
     .spread = true},
};
#define N_PATTERNS (sizeof patterns / sizeof patterns[0])

/* Sets @p pattern to row @p d with its argument @p value (a stride in bytes, a count of chains),
 * checked, and its canonical name. @return 0, or -1 with why the value is out of range. */
static int with_arg(const struct nprb_pattern_desc *d, uint64_t value, const char *spelled,
                    struct nprb_pattern *pattern, char *why, size_t len)
{
    if (d->arg == NPRB_PATTERN_ARG_BYTES) {
        if (value == 0 || value % 8 != 0 || value > (UINT64_C(1) << 30)) {
            snprintf(why, len, "stride %s must be a multiple of 8 bytes from 8B to 1GiB", spelled);
            return -1;
        }
        pattern->stride_bytes = value;
    } else {
        if (value < 1 || value > NPRB_CHASE_MAX_CHAINS) {
            snprintf(why, len, "%s takes a count of chains from 1 to %d, not '%s'", d->name,
                     NPRB_CHASE_MAX_CHAINS, spelled);
            return -1;
        }
        pattern->chains = (unsigned)value;
    }
    snprintf(pattern->name, sizeof pattern->name, "%s:%llu", d->name, (unsigned long long)value);
    pattern->kind = d->kind;
    pattern->desc = d;
    return 0;
}

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
    } else {
        char *end;
        errno = 0;
        value = strtoull(arg, &end, 10);
        if (end == arg || *end != '\0' || errno != 0 || arg[0] == '-')
            value = 0; /* out of range below, with the text as given */
    }
    return with_arg(d, value, arg, pattern, why, len) == 0 ? 1 : -1;
}

int nprb_pattern_with_arg(enum nprb_pattern_kind kind, uint64_t value, struct nprb_pattern *pattern,
                          char *why, size_t len)
{
    memset(pattern, 0, sizeof *pattern);
    pattern->chains = 1;
    for (size_t i = 0; i < N_PATTERNS; i++)
        if (patterns[i].kind == kind && patterns[i].arg != NPRB_PATTERN_ARG_NONE) {
            char spelled[24];
            snprintf(spelled, sizeof spelled, "%llu", (unsigned long long)value);
            return with_arg(&patterns[i], value, spelled, pattern, why, len);
        }
    snprintf(why, len, "pattern kind %d takes no argument", (int)kind);
    return -1;
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
