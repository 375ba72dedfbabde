/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file row_ids.h
 * The names a row holds as text in the file, as enums in memory: the experiment that made it,
 * its memory policy, who first wrote its arrays, the class of its node pair and what the
 * binding check found (here), and the bandwidth kernel it ran (kernels/stream.h). A row carries
 * text and enum, set together (NPRB_SET_EXPERIMENT, NPRB_SET_MEM_POLICY, nprb_row_set_touch,
 * NPRB_SET_PAIR_CLASS, nprb_row_set_kernel), so no reader compares text a writer spelled; rows
 * read back from a file get their enums from nprb_rows_parse_ids() (results.h). These tables
 * are the one spelling of the `experiment` (from the one list of experiments,
 * experiment_list.h), `mem_policy`, `init_mode` and `pair_class` columns' values. The policy and
 * first-touch enums are placement's (host/place.c, and the config's lists); they are here because
 * the report and plausibility, which read them from rows, sit below host/.
 */
#ifndef NPRB_ROW_IDS_H
#define NPRB_ROW_IDS_H

#include "results/experiment_list.h"
#include "util/names.h"

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

/** The memory policy a buffer is placed under (host/place.c maps it to mbind()'s modes). */
enum nprb_mem_policy {
    NPRB_MEM_BIND,        /**< MPOL_BIND to the given node(s): fail rather than spill */
    NPRB_MEM_INTERLEAVE,  /**< MPOL_INTERLEAVE over the given nodes, page by page */
    NPRB_MEM_PREFERRED,   /**< MPOL_PREFERRED: the node if it has room, else elsewhere */
    NPRB_MEM_FIRST_TOUCH, /**< no policy: the page lands where the first writer runs */
    /** None: a row read from a file whose `mem_policy` this build does not know. */
    NPRB_N_MEM_POLICIES
};

/** "bind", "interleave", "preferred", "first_touch". */
const char *nprb_mem_policy_name(enum nprb_mem_policy policy);

/** The bit of @p policy in the @p allowed mask of nprb_mem_policy_parse(). */
#define NPRB_MEM_POLICY_BIT(policy) (1u << (policy))

/**
 * Parses a policy name among those in the @p allowed mask (NPRB_MEM_POLICY_BIT()s).
 * @return 0, or -1 with "unknown policy 'x' (expected a, b or c)" in @p why.
 */
int nprb_mem_policy_parse(const char *text, unsigned allowed, enum nprb_mem_policy *policy,
                          char *why, size_t len);

/** The policies a matrix measures besides bind, which it always measures (its policies key):
 * interleave, preferred, first_touch. */
extern const struct nprb_name_table nprb_extra_policy_names;

/** Sets a row's memory policy, its text and its enum together (NPRB_SET_TEXT: results.h). */
#define NPRB_SET_MEM_POLICY(row, policy)                                                           \
    do {                                                                                           \
        (row)->mem_policy_id = (policy);                                                           \
        NPRB_SET_TEXT((row)->mem_policy, nprb_mem_policy_name((row)->mem_policy_id));              \
    } while (0)

/** Who first writes a bandwidth experiment's arrays, and so where first touch puts their pages:
 * first_touch's modes, and the one spelling of the `init_mode` column. Threaded is every other
 * experiment's, so it is the zero of a plan item. */
enum nprb_touch_mode {
    NPRB_TOUCH_THREADED,   /**< each thread its own chunk: the schedule the kernel uses */
    NPRB_TOUCH_SERIAL,     /**< one thread, on the node of the item's mem_node, writes it all */
    NPRB_TOUCH_MISMATCHED, /**< thread t writes the chunk thread t + T/2 will read */
    NPRB_TOUCH_INTERLEAVE, /**< interleaved, then written threaded */
    NPRB_TOUCH_BIND,       /**< each chunk mbind()-ed to its reader's node, then threaded */
    /** The count; for a row read from a file, an `init_mode` this build does not know. */
    NPRB_N_TOUCH_MODES
};

/** "serial", "threaded", "mismatched", "interleave", "bind": as in configs. */
const char *nprb_touch_mode_name(enum nprb_touch_mode mode);

/**
 * Parses a first-touch mode name.
 * @return 0, or -1 with "unknown mode 'x' (expected a, b or c)" in @p why.
 */
int nprb_touch_mode_parse(const char *text, enum nprb_touch_mode *mode, char *why, size_t len);

/** The first-touch modes' names, as nprb_touch_mode_parse() reads them (first_touch.modes). */
extern const struct nprb_name_table nprb_touch_mode_names;

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

/**
 * What the binding check found for a rank (host/binding.c decides it): the first word of the
 * /hosts column `binding_check`, before its colon. Unknown first, so that a row nothing set
 * reads as unchecked rather than as ok.
 */
enum nprb_binding_verdict {
    NPRB_BINDING_UNKNOWN, /**< no check, or a word this build does not know */
    NPRB_BINDING_OK,      /**< "ok": the launcher's binding serves the plan */
    NPRB_BINDING_NARROW,  /**< "narrow": it leaves nodes, CPUs or threads out */
    NPRB_BINDING_WIDENED, /**< "widened": numaprobe widened it to the cgroup's CPUs */
    NPRB_N_BINDING_VERDICTS
};

/** "ok", "narrow", "widened"; "?" for NPRB_BINDING_UNKNOWN. */
const char *nprb_binding_verdict_name(enum nprb_binding_verdict verdict);

/** The verdict a `binding_check` text starts with ("ok: ..."), or NPRB_BINDING_UNKNOWN. */
enum nprb_binding_verdict nprb_binding_verdict_parse(const char *binding_check);

/** Sets a row's pair class, its text and its enum together (NPRB_SET_TEXT: results.h). */
#define NPRB_SET_PAIR_CLASS(row, cls)                                                              \
    do {                                                                                           \
        (row)->pair_class_id = (cls);                                                              \
        NPRB_SET_TEXT((row)->pair_class, nprb_pair_class_name((row)->pair_class_id));              \
    } while (0)

#endif
