/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file contract.h
 * The results file's contract beyond its tables (whose columns say all of themselves in their
 * descriptor rows, results/columns_*.c): the root attributes (name, type, unit, since which
 * schema minor, in which files), and the schema version's minor. The writer, `numaprobe check`,
 * `numaprobe merge` and `numaprobe --schema` (which the analysis reads at run time, and
 * docs/SCHEMA.md's tables are made from) all read this table: adding an attribute is one row.
 */
#ifndef NPRB_CONTRACT_H
#define NPRB_CONTRACT_H

#include "results/results.h"

#include <stdbool.h>
#include <stdio.h>

/** The schema minor from which every table carries `description`, `columns`, `units` and
 * `column_descriptions` attributes (h5meta.h); a file of an older minor lacks them. */
#define NPRB_TABLE_ATTRS_SINCE_MINOR 6

/** A figure whose relative uncertainty (percent) is above this is noisy: shown with its mark,
 * judged by no verdict. The analysis holds the same limit (numaprobe_analysis/noise.py); a test
 * reads this one from `numaprobe --schema` (`noisy_pct`) and fails where the two differ. */
#define NPRB_NOISY_PCT 25.0

/** The schema minor from which every table also carries the HDF5 Table specification's `CLASS`,
 * `VERSION`, `TITLE` and `FIELD_<n>_NAME` attributes (h5meta.h). */
#define NPRB_TABLE_SPEC_SINCE_MINOR 11

enum nprb_attr_type {
    NPRB_ATTR_TEXT,  /**< a scalar string (fixed or variable length) */
    NPRB_ATTR_INT,   /**< a scalar integer, read as int64 */
    NPRB_ATTR_OTHER, /**< anything else (a float, an array): named, not read */
};

/** Which files carry a root attribute. */
enum nprb_attr_scope {
    NPRB_ATTR_EVERY,      /**< every results file, checkpoints included */
    NPRB_ATTR_FINAL,      /**< a job's file and a merged one; a checkpoint need not have it */
    NPRB_ATTR_CHECKPOINT, /**< only a rank's checkpoint; merge leaves it out */
    NPRB_ATTR_MERGED,     /**< only a file `numaprobe merge` rebuilt */
};

struct nprb_root_attr {
    const char *name;
    const char *unit; /**< NULL: none */
    const char *description;
    enum nprb_attr_type type; /**< NPRB_ATTR_TEXT or NPRB_ATTR_INT */
    /** Schema 0.N.0 first wrote it, and a file of an older minor may lack it. 0: every file of
     * this major must have it (what 0.3.0 and before added is not excused, as with columns). */
    int since_minor;
    enum nprb_attr_scope scope;
    bool required; /**< false: may be absent even where its scope and minor say it belongs */
};

/** The root attributes, in the order docs/SCHEMA.md lists them. */
const struct nprb_root_attr *nprb_root_attrs(size_t *count);

/**
 * What the root attribute `config_fingerprint` leaves out of its hash: the top-level keys that
 * change nothing measured (a section's name stands for every key in it), and whole lines of the
 * config echo (each with its newline) of keys added later, at the one value that changes
 * nothing. config_echo.c hashes by them, `numaprobe --schema` prints them
 * (`config_fingerprint`), and the analysis (numaprobe_analysis/runs.py) hashes by what it prints.
 * @return the list; its length in @p count.
 */
const char *const *nprb_fingerprint_unmeasured_keys(size_t *count);
const char *const *nprb_fingerprint_neutral_lines(size_t *count);

/** The root attribute called @p name, or NULL when the contract has none of that name. */
const struct nprb_root_attr *nprb_root_attr_named(const char *name);

/** The minor version of @p version when it is of this binary's major, else -1. */
int nprb_schema_minor(const char *version);

/** Whether a figure of relative uncertainty @p uncertainty_pct is noisy: above NPRB_NOISY_PCT.
 * An unknown uncertainty (NaN) is not noisy: nothing says it is. */
bool nprb_is_noisy(double uncertainty_pct);

/** A row's relative uncertainty of its headline, in percent, as every reader takes it: the row's
 * `uncertainty_pct` (passes apart in time and the burst's spread), else the burst's spread alone
 * (latency `(p90 - min) / min`, bandwidth `|best - median| / best`); NaN where neither can be
 * had. The analysis reads it the same way (noise.row_spread_pct). */
double nprb_latency_uncertainty_pct(const struct nprb_latency_row *l);
double nprb_bandwidth_uncertainty_pct(const struct nprb_bandwidth_row *b);

/**
 * One family of the OpenMetrics file a host writes of itself (`--textfile-dir`,
 * report/openmetrics.h): what Prometheus and the shipped alert rules read, a contract as the
 * results file is. `numaprobe --schema` prints them (`openmetrics_families`); the analysis's
 * writer (numaprobe_analysis/openmetrics.py) holds the same name, type, unit and help for each,
 * and a test fails where the two differ.
 */
struct nprb_metric_family {
    const char *name;
    const char *type; /**< "gauge" for all: node_exporter's parser knows no OpenMetrics `info` */
    const char *unit; /**< the unit the name ends in (`# UNIT`), or NULL */
    const char *help;
};

/** The families, in the order the file writes them (the analysis's order). */
enum nprb_metric_family_id {
    NPRB_METRIC_LATENCY,
    NPRB_METRIC_LATENCY_UNCERTAINTY,
    NPRB_METRIC_BANDWIDTH,
    NPRB_METRIC_BANDWIDTH_UNCERTAINTY,
    NPRB_METRIC_HOST_OK,
    NPRB_METRIC_RUN_START,
    NPRB_METRIC_HOST_INFO,
    NPRB_METRIC_HOST_NOISY_FIGURES,
    NPRB_METRIC_NOISY,
    NPRB_METRIC_HOST_NOT_RESTORED,
    NPRB_N_METRIC_FAMILIES
};

/** The family @p id (metric_families.c). */
const struct nprb_metric_family *nprb_metric_family(enum nprb_metric_family_id id);

/** Writes the whole contract as one JSON document (`numaprobe --schema`, schema_json.c).
 * @return 0, or -1 when it could not be built or written. */
int nprb_schema_print_json(FILE *out);

#endif
