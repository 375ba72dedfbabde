/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file config.h
 * The run configuration: built-in defaults, then a YAML file, then --set overrides, all through
 * one declarative key table that also produces the documentation and the effective-config echo.
 */
#ifndef NPRB_CONFIG_H
#define NPRB_CONFIG_H

#include "host/core_pairs.h"
#include "host/counters.h"
#include "host/place.h"
#include "kernels/pattern.h"
#include "kernels/stream.h"
#include "results/row_ids.h"
#include "util/names.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** Most entries of a list-valued key (sizes, patterns, kernels). */
#define NPRB_MAX_LIST 48

/** A list of sizes; count 0 means "auto" (placed around the detected caches). */
struct nprb_sizes {
    int count;
    uint64_t bytes[NPRB_MAX_LIST];
};

/**
 * A list of names of one table (KEY_NAMES), parsed once into the table's enum: how the key engine
 * sees every typed list below, which has its layout (a count, then int-sized enum values; the
 * asserts below hold each to it, as one an experiment declares must be).
 */
struct nprb_name_list {
    int count;
    int value[NPRB_MAX_LIST];
};

/** Holds a typed list @p type, of member @p values, to struct nprb_name_list's layout. */
#define NPRB_NAME_LIST_LAYOUT(type, values)                                                        \
    _Static_assert(sizeof(type) == sizeof(struct nprb_name_list) &&                                \
                       offsetof(type, values) == offsetof(struct nprb_name_list, value) &&         \
                       sizeof(((type *)0)->values[0]) == sizeof(int),                              \
                   #type " is a list of names (struct nprb_name_list)")

/* Lists of names, parsed once into their enums (each table lives beside its enum). */
struct nprb_kernel_list {
    int count;
    enum nprb_kernel_id id[NPRB_MAX_LIST];
};

struct nprb_pattern_list {
    int count;
    struct nprb_pattern item[NPRB_MAX_LIST];
};

struct nprb_policy_list {
    int count;
    enum nprb_mem_policy policy[NPRB_MAX_LIST];
};

struct nprb_touch_list {
    int count;
    enum nprb_touch_mode mode[NPRB_MAX_LIST];
};

struct nprb_counter_group_list {
    int count;
    enum nprb_counter_group group[NPRB_MAX_LIST];
};

NPRB_NAME_LIST_LAYOUT(struct nprb_kernel_list, id);
NPRB_NAME_LIST_LAYOUT(struct nprb_policy_list, policy);
NPRB_NAME_LIST_LAYOUT(struct nprb_touch_list, mode);
NPRB_NAME_LIST_LAYOUT(struct nprb_counter_group_list, group);

/** Which CPU-node / memory-node pairs a matrix measures (in the order of nprb_pairs_names). */
enum nprb_pairs { NPRB_PAIRS_ALL, NPRB_PAIRS_LOCAL };

/** Whose cores run a sweep: the first CPU node's, or every CPU node's in turn. */
enum nprb_sweep_from { NPRB_SWEEP_FROM_FIRST, NPRB_SWEEP_FROM_EVERY };

/** The names of those two enums ("all", "local"; "first", "every"), for their keys. */
extern const struct nprb_name_table nprb_pairs_names, nprb_sweep_from_names;

/* What a key's value is: how it is parsed, echoed and documented. */
enum key_kind_id {
    KIND_BOOL,
    KIND_INT,
    KIND_U64,
    KIND_SIZE,
    KIND_DURATION,
    KIND_THREADS,
    KIND_SIZES,    /* "auto" or a list of sizes */
    KIND_PATTERNS, /* a list of latency patterns */
    KIND_COUNTS,   /* a list of plain whole numbers */
    KIND_NAME,     /* one name of a table, into its int-sized enum */
    KIND_NAMES,    /* a list of names of a table, into a struct of struct nprb_name_list's layout */
};

/* A key row's kind: its id, and for a key of names their table (util/names.h), which parses,
 * echoes and documents them, so that a key of any enum's names needs no code of the key
 * engine's. */
struct key_kind {
    enum key_kind_id id;
    const struct nprb_name_table *names;
};

/* The kinds a key row names (its second member): KEY_SIZE, ..., and KEY_NAME(table) or
 * KEY_NAMES(table) for the names of @p table (a struct nprb_name_table). */
extern const struct key_kind nprb_key_kinds[];
#define KEY_BOOL (&nprb_key_kinds[KIND_BOOL])
#define KEY_INT (&nprb_key_kinds[KIND_INT])
#define KEY_U64 (&nprb_key_kinds[KIND_U64])
#define KEY_SIZE (&nprb_key_kinds[KIND_SIZE])
#define KEY_DURATION (&nprb_key_kinds[KIND_DURATION])
#define KEY_THREADS (&nprb_key_kinds[KIND_THREADS])
#define KEY_SIZES (&nprb_key_kinds[KIND_SIZES])
#define KEY_PATTERNS (&nprb_key_kinds[KIND_PATTERNS])
#define KEY_COUNTS (&nprb_key_kinds[KIND_COUNTS])
#define KEY_NAME(table) (&(const struct key_kind){KIND_NAME, &(table)})
#define KEY_NAMES(table) (&(const struct key_kind){KIND_NAMES, &(table)})

/* The key table's row: the global keys of config.c, and an experiment's section keys (below). */
struct config_key {
    const char *key; /* dotted name, as in YAML nesting and --set; in a section, without it */
    const struct key_kind *kind;
    size_t offset;       /* into struct nprb_config, or into a section's own struct */
    const char *initial; /* built-in default, parsed like user input */
    /* bounds for KEY_INT, KEY_SIZE (bytes), KEY_THREADS; for KEY_DURATION whole seconds where
     * max > 0 (else 1ns to 60min, a measurement's own times); for KEY_NAMES min is the fewest
     * names (0: "none", the empty list, is a value) */
    int64_t min, max;
    const char *help;
};

/**
 * An experiment's own keys, declared in the experiment's file: "NAME.KEY" in YAML and --set,
 * stored in a struct of the experiment's own (offsets of @p keys point into it), which the
 * config keeps as bytes (at most NPRB_CONFIG_SECTION_BYTES) and hands back through
 * nprb_config_section(). Its keys come after the global ones in the echo and the reference, in
 * the order the sections were added.
 */
struct nprb_config_section {
    const char *name; /**< the experiment's name ("memory" for the config's own section) */
    const struct config_key *keys;
    size_t key_count;
    size_t size; /**< of the section's struct */
};

/* Bounds of a key table's sizes. */
#define NPRB_KIB(n) ((int64_t)(n) << 10)
#define NPRB_TIB(n) ((int64_t)(n) << 40)

/**
 * Declares `static const struct nprb_config_section VAR`: the section @p name, whose keys are the
 * array @p keys (offsets into @p type), checked at compile time to fit a config.
 */
#define NPRB_CONFIG_SECTION(var, name, keys, type)                                                 \
    _Static_assert(sizeof(type) <= NPRB_CONFIG_SECTION_BYTES,                                      \
                   name "'s config struct is larger than a section may be");                       \
    static const struct nprb_config_section var = {name, keys, sizeof(keys) / sizeof((keys)[0]),   \
                                                   sizeof(type)}

#define NPRB_CONFIG_MAX_KEYS 160
/* A section per experiment of the list (the ids after NPRB_EXPERIMENT_NONE), then memory.* and
 * counters.*: counted from the list, so that a new experiment needs no line here. */
#define NPRB_CONFIG_MAX_SECTIONS (NPRB_N_EXPERIMENT_IDS - 1 + 2)
#define NPRB_CONFIG_SECTION_BYTES 4096
#define NPRB_LINE_SET UINT32_MAX

/** The memory.* keys: what the theoretical peak of a host's /hosts row assumes. */
struct nprb_memory_config {
    int dimm_speed_mts; /**< memory.dimm_speed: MT/s of the modules; 0: as SMBIOS/EDAC say */
    int channels;       /**< memory.channels: channels of the host; 0: one per module found */
};

/**
 * The config's own section of memory.* keys (config.c). Not an experiment's: the job adds it
 * with the experiments' sections, in the place the echo has always shown it
 * (experiments/registry.c).
 */
extern const struct nprb_config_section nprb_config_memory;

/** The counters.* keys: which counters go beside every measurement (/counters). */
struct nprb_counters_config {
    bool enabled;                          /**< counters.enabled */
    struct nprb_counter_group_list groups; /**< counters.groups */
};

/** The config's own section of counters.* keys (config.c), added after memory.*. */
extern const struct nprb_config_section nprb_config_counters;

struct nprb_config {
    uint64_t seed;     /**< seed of every random chain; recorded in the file */
    double watchdog_s; /**< longest one measurement may take; a host silent twice as long is hung */
    bool checkpoints;  /**< each rank keeps its finished rows in OUT.checkpoints/ while it runs */
    int report_hosts;  /**< hosts shown in full on stdout (then one per node type); 0: all */
    enum nprb_thp_mode huge_pages;
    double time_budget_s; /**< the run fitted to this long on each host (plan/budget.h); 0: none */
    /* The sections added by nprb_config_add_section(), and their structs' bytes (aligned for
     * the members a config holds: integers, doubles, pointers). */
    int section_count;
    const struct nprb_config_section *section[NPRB_CONFIG_MAX_SECTIONS];
    uint64_t section_data[NPRB_CONFIG_MAX_SECTIONS][NPRB_CONFIG_SECTION_BYTES / sizeof(uint64_t)];
    /* Where each key's value came from, for errors found once the machine is known (a size
     * larger than a node's memory): the config file, and per key its line there, 0 for the
     * default or NPRB_LINE_SET for --set. */
    char source[256];
    uint32_t key_line[NPRB_CONFIG_MAX_KEYS];
};

/**
 * Where the value of @p key came from, as the start of an error message: "FILE:LINE: ",
 * "--set " or "" (the default). @return @p buf.
 */
const char *nprb_config_origin(const struct nprb_config *cfg, const char *key, char *buf,
                               size_t len);

/** Largest config text echoed and stored (effective config as YAML). */
#define NPRB_CONFIG_TEXT_MAX 16384

/**
 * Fills @p cfg with the built-in defaults of the global keys (seed, watchdog, ...), with no
 * section: the experiments' sections and memory.* are added by
 * nprb_experiments_config_defaults() (experiments/registry.h), which gives every key its
 * built-in default (configs/quick.yaml's values). Never fails: the defaults are parsed by the
 * same code as user input and tested.
 */
void nprb_config_defaults(struct nprb_config *cfg);

/**
 * Adds a section (an experiment's, or nprb_config_memory) to @p cfg (after
 * nprb_config_defaults(), before any YAML or --set) with its keys' defaults. @return 0, or -1 with
 * a message in @p err (too many sections or keys, a struct too large, a name already taken, a
 * default its own key refuses).
 */
int nprb_config_add_section(struct nprb_config *cfg, const struct nprb_config_section *section,
                            char *err, size_t errlen);

/** The struct of @p section in @p cfg, or NULL when it was not added (a bare config of tests). */
const void *nprb_config_section(const struct nprb_config *cfg,
                                const struct nprb_config_section *section);

/**
 * The NPRB_COUNTER_GROUP_BIT()s @p cfg asks every measurement to count: 0 when counters are off
 * or the config never added the section.
 */
unsigned nprb_config_counter_groups(const struct nprb_config *cfg);

/**
 * Where the value of the key called @p name ("latency_matrix.size") is kept in @p cfg, or NULL
 * when @p cfg has no such key. The value has the C type of the key's kind (bool, int, uint64_t,
 * double, a list struct of this header). For code that knows a key only by its name, as the key
 * engine's tests do; an experiment reads its own struct.
 */
const void *nprb_config_value(const struct nprb_config *cfg, const char *name);

/** Largest config file accepted. */
#define NPRB_CONFIG_FILE_MAX (1 << 20)

/**
 * Reads a whole config file into a new string (*text, freed by the caller). Rank 0 reads it and
 * broadcasts the text, so the file needs to exist only where the job was started.
 * @return 0, or -1 with a message in @p err.
 */
int nprb_config_read_file(const char *path, char **text, char *err, size_t errlen);

/**
 * Applies YAML @p text over @p cfg; @p source names it in messages ("FILE:LINE: KEY: ...").
 * @return 0, or -1 with a message in @p err; @p cfg may be partly updated then.
 */
int nprb_config_load_text(struct nprb_config *cfg, const char *text, const char *source, char *err,
                          size_t errlen);

/**
 * Reads a YAML file over @p cfg (nprb_config_read_file() + nprb_config_load_text()). On error
 * writes "FILE:LINE: KEY: what was expected" into
 * @p err and returns -1; @p cfg may be partly updated then.
 */
int nprb_config_load_file(struct nprb_config *cfg, const char *path, char *err, size_t errlen);

/**
 * Applies one "key=value" override (dotted key, e.g. "bandwidth_matrix.size=256MiB").
 * On error writes a message into @p err and returns -1.
 */
int nprb_config_set(struct nprb_config *cfg, const char *assignment, char *err, size_t errlen);

/**
 * Applies a command-line option that stands for one key (--time-budget for time_budget), as
 * --set would, with errors that name the option: "--time-budget '5x': expected ...".
 */
int nprb_config_set_option(struct nprb_config *cfg, const char *option, const char *key,
                           const char *value, char *err, size_t errlen);

/** Writes the effective configuration as YAML (every key, canonical units) into @p buf. */
void nprb_config_to_yaml(const struct nprb_config *cfg, char *buf, size_t len);

/**
 * config_fingerprint: 16 hex digits of FNV-1a over the lines "NAME: VALUE\n" (NAME dotted, VALUE
 * as the echo writes it) of every key that changes what is measured, sorted, so that the order
 * of the config's sections is no part of it. Left out: report_hosts, watchdog, checkpoints,
 * memory.*, and time_budget at 0s (no budget). analysis/numaprobe_analysis/runs.py computes the
 * same from the `config` attribute.
 */
void nprb_config_fingerprint(const struct nprb_config *cfg, char *out, size_t len);

/**
 * Writes, as YAML, only the keys of @p cfg whose value differs from its default (the same keys,
 * sections included, compared as the echo writes them) into @p buf.
 * @return how many keys were written, or -1 when out of memory.
 */
long nprb_config_changed_yaml(const struct nprb_config *cfg, char *buf, size_t len);

/** Writes the key reference (key, type, default, meaning) of @p cfg's keys into @p out. */
void nprb_config_print_reference(FILE *out, const struct nprb_config *cfg);

/** --version's line for libyaml: the library loaded and the one built against. */
void nprb_config_print_version(FILE *out);

#endif
