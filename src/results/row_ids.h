/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file row_ids.h
 * The names a row holds as text in the file, as enums in memory: the experiment that made it
 * and the class of its node pair (here), and the bandwidth kernel it ran (kernels/stream.h). A
 * row carries text and enum, set together (NPRB_SET_EXPERIMENT, NPRB_SET_PAIR_CLASS,
 * nprb_row_set_kernel), so no reader compares text a writer spelled; rows read back from a file
 * get their enums from nprb_rows_parse_ids() (results.h). These tables are the one spelling of
 * the `experiment` and `pair_class` columns' values.
 */
#ifndef NPRB_ROW_IDS_H
#define NPRB_ROW_IDS_H

/** The experiments' names, each one word of the column (the run order is the registry's). */
#define NPRB_EXPERIMENT_NAMES(X)                                                                   \
    X(LATENCY_MATRIX, latency_matrix)                                                              \
    X(BANDWIDTH_MATRIX, bandwidth_matrix)                                                          \
    X(LATENCY_SWEEP, latency_sweep)                                                                \
    X(STRIDE_SWEEP, stride_sweep)                                                                  \
    X(PAGE_SIZE, page_size)                                                                        \
    X(BANDWIDTH_SWEEP, bandwidth_sweep)                                                            \
    X(THREAD_SCALING, thread_scaling)                                                              \
    X(FIRST_TOUCH, first_touch)                                                                    \
    X(LOADED_LATENCY, loaded_latency)                                                              \
    X(MLP, mlp)                                                                                    \
    X(C2C_LATENCY, c2c_latency)                                                                    \
    X(INJECTION, injection)                                                                        \
    X(MAX_BANDWIDTH, max_bandwidth)                                                                \
    X(NUMA_BALANCING, numa_balancing)

#define NPRB_EXPERIMENT_ENUM(id, name) NPRB_EXPERIMENT_##id,
enum nprb_experiment_id {
    /** A row of the rank rather than of one measurement, or read from a file that names an
     * experiment this build does not know. */
    NPRB_EXPERIMENT_NONE,
    NPRB_EXPERIMENT_NAMES(NPRB_EXPERIMENT_ENUM) NPRB_N_EXPERIMENT_IDS
};
#undef NPRB_EXPERIMENT_ENUM

/** The experiment's name: "latency_matrix", ...; "-" for NPRB_EXPERIMENT_NONE, as the file
 * spells a row of the rank. */
const char *nprb_experiment_id_name(enum nprb_experiment_id id);

/** The experiment named @p text, or NPRB_EXPERIMENT_NONE. */
enum nprb_experiment_id nprb_experiment_id_parse(const char *text);

/** Sets a row's experiment, its text and its enum together (NPRB_SET_TEXT: results.h). */
#define NPRB_SET_EXPERIMENT(row, id)                                                               \
    do {                                                                                           \
        (row)->experiment_id = (id);                                                               \
        NPRB_SET_TEXT((row)->experiment, nprb_experiment_id_name(id));                             \
    } while (0)

/**
 * How a row's CPU node reaches its memory node (host/topo.c decides it): the `pair_class`
 * column of /latency, /bandwidth and /loaded_latency. Here rather than in host/ because the
 * report and results layers, which read it, sit below host/.
 */
enum nprb_pair_class {
    NPRB_PAIR_NONE,          /**< "-": no one node pair (memory spread over nodes) */
    NPRB_PAIR_LOCAL,         /**< "local": the CPU node's own memory */
    NPRB_PAIR_SAME_PACKAGE,  /**< "same_package": another node of the same package */
    NPRB_PAIR_CROSS_PACKAGE, /**< "cross_package": a node of another package */
    NPRB_PAIR_MEMORY_ONLY,   /**< "memory_only": a node with memory and no CPUs (CXL, HBM) */
    NPRB_PAIR_MIXED,         /**< "mixed": pairs of several classes at once (max_bandwidth) */
    /** "?": a node the topology does not have, or text this build does not know */
    NPRB_PAIR_UNKNOWN,
    NPRB_N_PAIR_CLASSES
};

/** The class's name as the `pair_class` column spells it ("local", ..., "-", "?"). */
const char *nprb_pair_class_name(enum nprb_pair_class cls);

/** The class named @p text, or NPRB_PAIR_UNKNOWN. */
enum nprb_pair_class nprb_pair_class_parse(const char *text);

/** Sets a row's pair class, its text and its enum together (NPRB_SET_TEXT: results.h). */
#define NPRB_SET_PAIR_CLASS(row, cls)                                                              \
    do {                                                                                           \
        (row)->pair_class_id = (cls);                                                              \
        NPRB_SET_TEXT((row)->pair_class, nprb_pair_class_name((row)->pair_class_id));              \
    } while (0)

#endif
