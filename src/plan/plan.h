/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file plan.h
 * The validated list of measurements a rank will make: config + topology in, items out. Each
 * experiment of the registry contributes its items (src/experiments/<name>.c); everything that can
 * be refused before measuring (a size larger than a node, a sweep larger than memory) is refused
 * here.
 */
#ifndef NPRB_PLAN_H
#define NPRB_PLAN_H

#include "config/config.h"
#include "kernels/stream.h"
#include "kernels/pattern.h"
#include "host/place.h"
#include "host/topo.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct nprb_experiment; /* plan/descriptor.h */

/** Room in a plan item for an experiment's own parameters (NPRB_ITEM_SET_OWN). */
#define NPRB_ITEM_OWN_BYTES 32

struct nprb_plan_item {
    /* Eight-byte fields first, then four-byte, then the text: padding the analyzer accepts. */
    const struct nprb_experiment *experiment; /**< its row of the registry */
    uint64_t size_bytes; /**< latency: working set; bandwidth: bytes per array */
    /* latency experiments */
    struct nprb_pattern pattern;
    uint64_t tlb_window_bytes;
    /* bandwidth experiments */
    uint64_t stride_bytes;
    double sample_s; /**< latency: sample length; bandwidth: > 0 repeats passes per sample */
    /* What the time model and a budget read of an experiment's own parameters. */
    uint64_t extra_bytes; /**< memory set up beside size_bytes (loaded_latency's load buffers) */
    double extra_s;       /**< time by design beside the samples (a balancing series' length) */
    uint64_t axis_point;  /**< NPRB_AXIS_OWN: where the item lies along its series */
    /** The experiment's own parameters, which only its file reads: a struct of its own, copied
     * in and out (NPRB_ITEM_SET_OWN, NPRB_ITEM_GET_OWN). Plain bytes, so that an item copies
     * by value (a later pass is a copy) and the plan never learns an experiment's knobs. */
    _Alignas(8) unsigned char own[NPRB_ITEM_OWN_BYTES];
    size_t origin; /**< on a later pass: the plan index of the first pass, whose row it joins */
    /** Set by nprb_plan_add(): the largest size of the applicable items before this one in the
     * same run of its experiment (a sweep's buffers kept from them; 0: none). */
    uint64_t kept_bytes;
    int cpu_node; /**< logical node index whose cores run the threads; -1: every usable core */
    int mem_node; /**< logical node index the memory is bound to; -1: every node with memory */
    enum nprb_mem_policy policy;
    int threads;                /**< bandwidth: threads (0: one per usable core); latency: 1 */
    int samples;                /**< latency experiments */
    enum nprb_kernel_id kernel; /**< bandwidth experiments */
    int repetitions;
    enum nprb_touch_mode touch; /**< who writes the arrays first (first_touch's modes) */
    /* the item's own page size, instead of the config's huge_pages (page_size's points) */
    enum nprb_thp_mode huge_pages;
    bool own_huge_pages;
    /* headline cells: measured in passes spread over the run (plan/passes.c) */
    int passes; /**< on a first pass: how many passes in all (0 or 1: this one alone) */
    int pass;   /**< 0: the first pass, which writes the row; k: the k-th later one */
    /** Set by nprb_plan_add(): the threads the time model streams with (threads, or the usable
     * cores it stands for) and the nodes whose cores they are. */
    int model_threads, model_nodes;
    /** Set by nprb_plan_add(): the threads that fault the item's buffer in: a stream kernel's
     * team (one for a serial first touch), a chain's CPU node's usable cores (latency_run.c
     * shares its fault-in among them), one where lone_chain says so. */
    int model_fault_threads;
    /** The chain is faulted in by the chasing thread alone (loaded_latency: the node's other
     * cores are the load's). */
    bool lone_chain;
    char skip_reason[160]; /**< non-empty: record "not applicable" with this reason */
};

/** Copies @p value, an experiment's own parameter struct, into @p item. */
#define NPRB_ITEM_SET_OWN(item, value)                                                             \
    do {                                                                                           \
        _Static_assert(sizeof(value) <= NPRB_ITEM_OWN_BYTES, "own parameters must fit an item");   \
        memcpy((item)->own, &(value), sizeof(value));                                              \
    } while (0)

/** Copies @p item's own parameters into @p value, the struct NPRB_ITEM_SET_OWN was given. */
#define NPRB_ITEM_GET_OWN(value, item)                                                             \
    do {                                                                                           \
        _Static_assert(sizeof(value) <= NPRB_ITEM_OWN_BYTES, "own parameters must fit an item");   \
        memcpy(&(value), (item)->own, sizeof(value));                                              \
    } while (0)

struct nprb_plan {
    struct nprb_plan_item *items;
    size_t count;
    size_t capacity; /**< items allocated */
};

/** Which measurements are this rank's among its host's ranks (see binding.h). */
struct nprb_share {
    int host_rank;         /**< 0: the host's first rank, which makes the cross-node measurements */
    const int *node_owner; /**< per logical node: the host rank measuring its row (-1: none);
                                NULL: this rank measures every node it reaches */
};

/** What an experiment's planning function gets. */
struct nprb_planner {
    struct nprb_plan *plan;
    const struct nprb_config *cfg;
    const struct nprb_topo *topo;
    bool host_leader; /**< cross-node items belong to the host's first rank */
    struct nprb_share share;
    char *err;
    size_t errlen;
};

/** Appends an item. @return 0, or -1 (out of memory, message set). */
int nprb_plan_add(struct nprb_planner *p, const struct nprb_plan_item *item);

/**
 * Refuses a size no node can hold (a config error, exit 2) with a message naming the key.
 * @return 0 when @p size fits node @p index's memory.
 */
int nprb_plan_check_fits(struct nprb_planner *p, const char *key, uint64_t size, int index);

/** Logical index of the first node with a usable core, or -1. */
int nprb_plan_first_cpu_node(const struct nprb_topo *topo);

/**
 * Writes a summary of @p plan to @p out, one line per experiment: how many measurements, their
 * working-set sizes, the CPU and memory nodes (os indexes) and why items will be skipped.
 */
void nprb_plan_print(FILE *out, const struct nprb_plan *plan, const struct nprb_topo *topo);

/**
 * A rough cost of an item, for the estimate of the time left, in two parts: what scales with the
 * machine (its buffers set up at about 1.5 GB/s, passes over them at about 5 GB/s) and what is
 * wall-clock time by design (samples x sample time, a balancing series' duration). Only the
 * ratios of the scaled parts matter: the progress line scales them by how long the finished
 * items really took. Items not applicable on this host cost next to nothing. setup_bytes is the
 * memory the item sets up (zeroes, links), fault_bytes the part of it that is new memory, first
 * touched: all of it for an item alone.
 */
struct nprb_item_cost {
    double scaled_s, fixed_s, setup_bytes, fault_bytes;
    /** fault_bytes as one thread's: what a team faults in counts NPRB_PLAN_TEAM_FAULT times
     * less (the estimate prices it at the host's first-touch rate). */
    double fault_lone_bytes;
};
struct nprb_item_cost nprb_plan_item_cost(const struct nprb_plan_item *item);

/**
 * The cost of the plan's item @p k where it stands: a sweep's point after a larger or equal one
 * faults no new memory (its buffers are kept between points: host/place.h).
 */
struct nprb_item_cost nprb_plan_cost_at(const struct nprb_plan *plan, size_t k);

/** The model's rate of new memory faulted in, bytes per second, where the host's is not known. */
#define NPRB_PLAN_FAULT_BPS 3e9

/** The model's streaming rate per thread, and the most a node's memory gives its cores. */
#define NPRB_PLAN_THREAD_BPS 5e9
#define NPRB_PLAN_NODE_BPS 20e9
/** How much faster than one thread a team faults new memory in: two threads 7.2 GB/s against
 * one's 4.1 on the 2-vCPU guest (bench/README.md); more threads are not counted on. */
#define NPRB_PLAN_TEAM_FAULT 1.75

/** The model's rate of a buffer's setup work: zeroing it, filling it. */
#define NPRB_PLAN_SETUP_BPS 3e9
/** The model's rate of a chain's links written and checked, from one thread: a 1 GiB chain
 * linked in 0.07 s and checked in 0.13 s on the 2-vCPU guest (bench/README.md). */
#define NPRB_PLAN_LINK_BPS 5e9

/** A time as a range: the host idle, and the host busy with a neighbour's memory traffic. */
struct nprb_estimate {
    double idle_s, busy_s;
};

/**
 * The time one rank's plan should take, before anything is measured: the sum of its items' costs
 * at the model's rates, with the setup of new memory at this host's measured @p first_touch_bps
 * (nprb_first_touch_bps(); 0: the model's rate). idle_s assumes nothing else runs on the host;
 * busy_s gives the machine-bound part twice as long. --dry-run's estimate and the time budget's
 * measure; the progress lines correct the machine-bound part by what the finished items took.
 */
struct nprb_estimate nprb_plan_estimate(const struct nprb_plan *plan, double first_touch_bps);

/**
 * Writes each experiment's estimate (every pass of it) to @p out, one line each, in the plan's
 * order, as nprb_plan_estimate() reckons it.
 */
void nprb_plan_print_times(FILE *out, const struct nprb_plan *plan, double first_touch_bps);

/** Recomputes every item's kept_bytes after items were skipped or removed (plan/budget.c). */
void nprb_plan_settle(struct nprb_plan *plan);

void nprb_plan_free(struct nprb_plan *plan);

#endif
