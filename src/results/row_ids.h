/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file row_ids.h
 * The names a row holds as text in the file, as enums in memory: the experiment that made it
 * (here) and the bandwidth kernel it ran (kernels/stream.h). A row carries both, set together
 * (NPRB_SET_EXPERIMENT, nprb_row_set_kernel), so no reader compares text a writer spelled; rows
 * read back from a file get their enums from nprb_rows_parse_ids() (results.h). This table is
 * the one spelling of the `experiment` column's values, from the one list of experiments
 * (experiment_list.h).
 */
#ifndef NPRB_ROW_IDS_H
#define NPRB_ROW_IDS_H

#include "results/experiment_list.h"

#include <stddef.h>
#include <stdint.h>

#define NPRB_EXPERIMENT_ENUM(id, name) NPRB_EXPERIMENT_##id,
/* The same ids again under the list's own spelling of each name, after the count, for macros
 * given the bare name (NPRB_EXPERIMENT_OF): a name the list lacks does not compile. */
#define NPRB_EXPERIMENT_ALIAS(id, name) NPRB_EXPERIMENT_OF_##name = NPRB_EXPERIMENT_##id,
enum nprb_experiment_id {
    /** A row of the rank rather than of one measurement, or read from a file that names an
     * experiment this build does not know. */
    NPRB_EXPERIMENT_NONE,
    NPRB_EXPERIMENTS(NPRB_EXPERIMENT_ENUM) NPRB_N_EXPERIMENT_IDS,
    NPRB_EXPERIMENTS(NPRB_EXPERIMENT_ALIAS)
};
#undef NPRB_EXPERIMENT_ENUM
#undef NPRB_EXPERIMENT_ALIAS

/** The id of the experiment @p name, written bare as the list writes it (mlp, page_size). */
#define NPRB_EXPERIMENT_OF(name) NPRB_EXPERIMENT_OF_##name

/** The bit of experiment @p id in a set of experiments (--only). */
#define NPRB_EXPERIMENT_BIT(id) (UINT64_C(1) << (id))
_Static_assert(NPRB_N_EXPERIMENT_IDS <= 64, "a set of experiments is one uint64_t");

/** The experiment's name: "latency_matrix", ...; "-" for NPRB_EXPERIMENT_NONE, as the file
 * spells a row of the rank. */
const char *nprb_experiment_id_name(enum nprb_experiment_id id);

/** The experiment named @p text, or NPRB_EXPERIMENT_NONE. */
enum nprb_experiment_id nprb_experiment_id_parse(const char *text);

/**
 * The experiment named @p text into *@p id, for names a user gives (--only).
 * @return 0, or -1 with "unknown experiment 'x' (expected a, b or c)" in @p why.
 */
int nprb_experiment_parse(const char *text, enum nprb_experiment_id *id, char *why, size_t len);

/** Sets a row's experiment, its text and its enum together (NPRB_SET_TEXT: results.h). */
#define NPRB_SET_EXPERIMENT(row, id)                                                               \
    do {                                                                                           \
        (row)->experiment_id = (id);                                                               \
        NPRB_SET_TEXT((row)->experiment, nprb_experiment_id_name(id));                             \
    } while (0)

#endif
