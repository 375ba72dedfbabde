/* SPDX-License-Identifier: BSD-3-Clause */
/* One core-to-core measurement on this host: both cases between two of its CPUs give samples and
 * pages on the owner's node; a CPU that cannot be had is a failed measurement that says which
 * thread, never a ping-pong of two threads on one CPU; and an owner under SCHED_FIFO, which no
 * tick preempts, still lets the other thread start and pin itself. An alarm fails a hang. */
#include "check.h"
#include "host/topo.h"
#include "host/verify.h"
#include "measure/c2c_run.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

static void measure(hwloc_topology_t hw, unsigned a, unsigned b, unsigned node, bool hit,
                    struct nprb_c2c_result *res)
{
    struct nprb_c2c_request req = {
        .pu_a = a, .pu_b = b, .node = node, .hit = hit, .samples = 5, .trips = 200, .seed = 7};
    nprb_c2c_run(hw, &req, res);
}

static void check_measured(const struct nprb_c2c_result *res, unsigned node, bool hit)
{
    CHECK(res->error == 0);
    CHECK(res->ns.min > 0 && isfinite(res->ns.max) && res->ns.min <= res->ns.max);
    CHECK(res->transfers_per_sample == (hit ? NPRB_C2C_HIT_LINES : 400u));
    CHECK(res->census_ok);
    if (res->census_ok)
        CHECK(nprb_census_fraction_on(&res->census, &node, 1) == 1.0);
}

/* The owner's side under SCHED_FIFO: its thread inherits the policy, and a bare spin while the
 * other thread pins itself (it starts on the owner's CPU) would hold it off for ever. */
struct fifo_run {
    hwloc_topology_t hw;
    unsigned a, b, node;
    struct nprb_c2c_result res;
};

static void *fifo_main(void *arg)
{
    struct fifo_run *run = arg;
    measure(run->hw, run->a, run->b, run->node, false, &run->res);
    return NULL;
}

static int fifo_case(hwloc_topology_t hw, unsigned a, unsigned b, unsigned node)
{
    pthread_attr_t attr;
    struct sched_param param = {.sched_priority = 1};
    pthread_attr_init(&attr);
    pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
    pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
    pthread_attr_setschedparam(&attr, &param);
    struct fifo_run run = {.hw = hw, .a = a, .b = b, .node = node};
    pthread_t thread;
    int rc = pthread_create(&thread, &attr, fifo_main, &run);
    pthread_attr_destroy(&attr);
    if (rc == EPERM) {
        fprintf(stderr, "note: SCHED_FIFO not allowed here; that case is not run\n");
        return 0;
    }
    CHECK(rc == 0);
    if (rc != 0)
        return -1;
    pthread_join(thread, NULL);
    check_measured(&run.res, node, false);
    return 0;
}

int main(void)
{
    alarm(120);
    struct nprb_topo *t = NULL;
    char err[256];
    if (nprb_topo_create(&t, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    hwloc_topology_t hw = nprb_topo_hwloc(t);
    unsigned pus[2];
    int found = 0;
    for (int i = 0; i < nprb_topo_node_count(t) && found < 2; i++)
        found += nprb_topo_node_pus(t, i, pus + found, 2 - found);
    if (found < 2) {
        fprintf(stderr, "skip: this host lets the test have one CPU\n");
        nprb_topo_destroy(t);
        return SKIP_TEST;
    }
    unsigned node = nprb_topo_node(t, nprb_topo_pu_node(t, pus[0]))->os_index;
    struct nprb_c2c_result res;

    measure(hw, pus[0], pus[1], node, false, &res);
    check_measured(&res, node, false);
    CHECK(res.stayed);
    measure(hw, pus[0], pus[1], node, true, &res);
    check_measured(&res, node, true);

    /* No such CPU for either thread: failed, saying whose. */
    measure(hw, pus[0], 100000, node, false, &res);
    CHECK(res.error != 0);
    CHECK_STR_CONTAINS(res.note, "other thread to CPU 100000");
    measure(hw, 100000, pus[1], node, true, &res);
    CHECK(res.error != 0);
    CHECK_STR_CONTAINS(res.note, "measuring thread to CPU 100000");

    CHECK(fifo_case(hw, pus[0], pus[1], node) == 0);
    nprb_topo_destroy(t);
    return CHECK_DONE();
}
