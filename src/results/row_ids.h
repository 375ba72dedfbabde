/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file row_ids.h
 * The names a row holds as text in the file, as enums in memory: the experiment that made it
 * (here) and the bandwidth kernel it ran (kernels/stream.h). A row carries both, set together
 * (NPRB_SET_EXPERIMENT, nprb_row_set_kernel), so no reader compares text a writer spelled; rows
 * read back from a file get their enums from nprb_rows_parse_ids() (results.h). This table is
 * the one spelling of the `experiment` column's values.
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

#endif
