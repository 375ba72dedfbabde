/* SPDX-License-Identifier: BSD-3-Clause */
/* Sweep point placement on synthetic cache hierarchies, cache-step detection on synthetic
 * curves, and pattern names. */
#include "check.h"
#include "kernels/pattern.h"
#include "util/sweep.h"

#include <stdint.h>

#define KiB(n) ((uint64_t)(n) << 10)
#define MiB(n) ((uint64_t)(n) << 20)

static int has(const uint64_t *p, int n, uint64_t v)
{
    for (int i = 0; i < n; i++)
        if (p[i] == v)
            return 1;
    return 0;
}

static void points_around_caches(void)
{
    /* A 2-socket Xeon-like hierarchy: 32 KiB, 1 MiB, 40 MiB (not a power of two). */
    const uint64_t caches[3] = {KiB(32), MiB(1), MiB(40)};
    uint64_t p[64];
    int n = nprb_sweep_points(caches, 3, KiB(2), MiB(160), p, 64);
    CHECK(n > 20);
    CHECK(p[0] == KiB(2) && p[n - 1] == MiB(160));
    for (int i = 1; i < n; i++)
        CHECK(p[i] > p[i - 1]); /* sorted, no duplicates */
    for (int c = 0; c < 3; c++) {
        CHECK(has(p, n, caches[c] / 4 * 3)); /* below */
        CHECK(has(p, n, caches[c]));         /* at */
        CHECK(has(p, n, caches[c] / 2 * 3)); /* above */
    }
    CHECK(has(p, n, MiB(64)) && has(p, n, KiB(4)));
    for (int i = 0; i < n; i++)
        CHECK(p[i] % 256 == 0);

    /* No L3 (0), and a cap below the L2: nothing above the cap. */
    const uint64_t small[3] = {KiB(48), MiB(2), 0};
    n = nprb_sweep_points(small, 3, KiB(2), MiB(1), p, 64);
    CHECK(p[n - 1] == MiB(1));
    CHECK(!has(p, n, MiB(2)));
    CHECK(has(p, n, KiB(36)) && has(p, n, KiB(72)));

    /* The cap on the number of points holds. */
    CHECK(nprb_sweep_points(caches, 3, KiB(2), MiB(160), p, 5) == 5);
}

static void steps(void)
{
    /* A textbook curve: 1 ns to 32 KiB, 4 ns to 1 MiB, 12 ns to 32 MiB, then 100 ns. */
    uint64_t sizes[] = {KiB(8), KiB(16), KiB(32), KiB(64), KiB(256), KiB(512), MiB(1),   MiB(2),
                        MiB(8), MiB(16), MiB(32), MiB(64), MiB(128), MiB(256), MiB(512), MiB(1024)};
    double ns[] = {1.0,  1.0,  1.05, 4.0,   4.1,   4.2,   4.4,   12.0,
                   12.1, 12.3, 13.0, 100.0, 110.0, 114.0, 117.0, 119.0};
    int n = (int)(sizeof sizes / sizeof sizes[0]);
    uint64_t step;
    double rise;
    CHECK(nprb_step_near(sizes, ns, n, KiB(32), &step, &rise) == 0);
    CHECK(step == KiB(32) && rise > 3.5);
    CHECK(nprb_step_near(sizes, ns, n, MiB(1), &step, &rise) == 0);
    CHECK(step == MiB(1) && rise > 2.5);
    CHECK(nprb_step_near(sizes, ns, n, MiB(32), &step, &rise) == 0);
    CHECK(step == MiB(32) && rise > 7);
    /* A VM claiming a 512 MiB L3: the only points near it are memory, with no step. */
    CHECK(nprb_step_near(sizes, ns, n, MiB(512), &step, &rise) == 0);
    CHECK(rise < 1.3);
    /* Far beyond the sweep: nothing to judge. */
    CHECK(nprb_step_near(sizes, ns, n, MiB(4096), &step, &rise) == -1);

    /* A small last level right above a 1 MiB L2 (a VM's share of L3): its step, the larger, lies
     * within 4x of the L2 but is not taken for it. */
    uint64_t vm_sizes[] = {KiB(256), KiB(512), MiB(1), MiB(2), MiB(4), MiB(8)};
    double vm_ns[] = {3.4, 3.6, 7.6, 13.2, 148.0, 148.0};
    CHECK(nprb_step_near(vm_sizes, vm_ns, 6, MiB(1), &step, &rise) == 0);
    CHECK(step == KiB(512) && rise > 2 && rise < 2.2);

    /* Points 32x apart around a cache cannot place its step. */
    uint64_t coarse[] = {KiB(1), KiB(16), KiB(512)};
    double coarse_ns[] = {1.0, 1.0, 4.0};
    CHECK(nprb_step_near(coarse, coarse_ns, 3, KiB(48), &step, &rise) == -1);
}

static void patterns(void)
{
    struct nprb_pattern p;
    char why[160];
    CHECK(nprb_pattern_parse("random", &p, why, sizeof why) == 0 && p.kind == NPRB_PATTERN_RANDOM);
    CHECK(nprb_pattern_parse("random_full", &p, why, sizeof why) == 0 &&
          p.kind == NPRB_PATTERN_RANDOM_FULL);
    CHECK(nprb_pattern_parse("index_random", &p, why, sizeof why) == 0 &&
          p.kind == NPRB_PATTERN_INDEX);
    CHECK(nprb_pattern_parse("stride:64", &p, why, sizeof why) == 0 &&
          p.kind == NPRB_PATTERN_STRIDE && p.stride_bytes == 64);
    CHECK(nprb_pattern_parse("stride:1KiB", &p, why, sizeof why) == 0 && p.stride_bytes == 1024 &&
          strcmp(p.name, "stride:1024") == 0);
    CHECK(nprb_pattern_parse("stride:12", &p, why, sizeof why) == -1);
    CHECK_STR_CONTAINS(why, "multiple of 8");
    CHECK(nprb_pattern_parse("stride:0", &p, why, sizeof why) == -1);
    CHECK(nprb_pattern_parse("stride:", &p, why, sizeof why) == -1);
    CHECK(nprb_pattern_parse("zigzag", &p, why, sizeof why) == -1);
    CHECK_STR_CONTAINS(why, "unknown pattern 'zigzag'");
    CHECK_STR_CONTAINS(why, "parallel:CHAINS");
    CHECK(nprb_pattern_parse("random", &p, why, sizeof why) == 0 && p.chains == 1);
    CHECK(nprb_pattern_parse("parallel:4", &p, why, sizeof why) == 0 &&
          p.kind == NPRB_PATTERN_PARALLEL && p.chains == 4 && strcmp(p.name, "parallel:4") == 0 &&
          nprb_pattern_slot_bytes(&p) == 256);
    CHECK(nprb_pattern_parse("parallel:16", &p, why, sizeof why) == 0 && p.chains == 16);
    static const char *const bad_counts[] = {"parallel:0",  "parallel:17",
                                             "parallel:-1", "parallel:4x",
                                             "parallel:",   "parallel:99999999999999"};
    for (size_t k = 0; k < sizeof bad_counts / sizeof bad_counts[0]; k++) {
        CHECK(nprb_pattern_parse(bad_counts[k], &p, why, sizeof why) == -1);
        CHECK_STR_CONTAINS(why, "count of chains from 1 to 16");
    }
    /* A number carried as one: the same pattern as its text would parse to. */
    struct nprb_pattern q;
    CHECK(nprb_pattern_with_arg(NPRB_PATTERN_PARALLEL, 4, &q, why, sizeof why) == 0 &&
          nprb_pattern_parse("parallel:4", &p, why, sizeof why) == 0 &&
          memcmp(&p, &q, sizeof p) == 0);
    CHECK(nprb_pattern_with_arg(NPRB_PATTERN_STRIDE, 1024, &q, why, sizeof why) == 0 &&
          q.stride_bytes == 1024 && q.chains == 1 && strcmp(q.name, "stride:1024") == 0);
    CHECK(nprb_pattern_with_arg(NPRB_PATTERN_PARALLEL, 17, &q, why, sizeof why) == -1);
    CHECK_STR_CONTAINS(why, "parallel takes a count of chains from 1 to 16, not '17'");
    CHECK(nprb_pattern_with_arg(NPRB_PATTERN_STRIDE, 12, &q, why, sizeof why) == -1);
    CHECK_STR_CONTAINS(why, "stride 12 must be a multiple of 8");
    CHECK(nprb_pattern_with_arg(NPRB_PATTERN_RANDOM, 4, &q, why, sizeof why) == -1);
}

int main(void)
{
    points_around_caches();
    steps();
    patterns();
    return CHECK_DONE();
}
