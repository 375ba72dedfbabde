/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file config.h
 * The run configuration: built-in defaults, then a YAML file, then --set overrides, all through
 * one declarative key table that also produces the documentation and the effective-config echo.
 */
#ifndef NPRB_CONFIG_H
#define NPRB_CONFIG_H

#include "host/place.h"
#include "kernels/pattern.h"
#include "kernels/stream.h"

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

/* Lists of names, parsed once into their enums (each parser lives beside its enum). */
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

/** Which CPU-node / memory-node pairs a matrix measures. */
enum nprb_pairs { NPRB_PAIRS_LOCAL, NPRB_PAIRS_ALL };

/** Whose cores run a sweep: the first CPU node's, or every CPU node's in turn. */
enum nprb_sweep_from { NPRB_SWEEP_FROM_FIRST, NPRB_SWEEP_FROM_EVERY };

struct nprb_latency_config {
    bool enabled;
    enum nprb_pairs pairs;
    struct nprb_policy_list policies; /**< besides bind: interleave, preferred, first_touch */
    uint64_t size_bytes;              /**< working set of the chase, per memory node */
    uint64_t tlb_window_bytes;        /**< chain random within windows of this size; 0: whole set */
    int samples;                      /**< timed samples kept (one more is taken and discarded) */
    double sample_s;                  /**< minimum length of one sample */
};

struct nprb_bandwidth_config {
    bool enabled;
    enum nprb_pairs pairs;
    struct nprb_kernel_list kernels;
    struct nprb_policy_list policies;
    uint64_t size_bytes; /**< bytes of the array streamed, per memory node */
    int threads;         /**< threads per CPU node; 0 means one per usable core */
    int repetitions;     /**< timed repetitions kept (one more is taken and discarded) */
};

struct nprb_latency_sweep_config {
    bool enabled;
    enum nprb_pairs pairs; /**< local: the sweep node's memory; all: every node's, one curve each */
    enum nprb_sweep_from from; /**< first: one core of the first CPU node; every: of each */
    struct nprb_sizes sizes;   /**< working sets; auto: 2 KiB to max_size around the caches */
    uint64_t max_size_bytes;   /**< largest auto point (also capped by 1/4 of free memory) */
    struct nprb_pattern_list patterns;
    uint64_t tlb_window_bytes; /**< for "random" */
    int samples;
    double sample_s;
};

struct nprb_stride_sweep_config {
    bool enabled;
    uint64_t size_bytes;
    struct nprb_sizes strides; /**< chase strides, bytes */
    int samples;
    double sample_s;
};

struct nprb_bandwidth_sweep_config {
    bool enabled;
    struct nprb_sizes sizes; /**< per array; auto like latency_sweep */
    uint64_t max_size_bytes;
    struct nprb_kernel_list kernels;
    int threads;               /**< 0: one per usable core */
    struct nprb_sizes strides; /**< read_strided is measured at each */
    int repetitions;
    double sample_s; /**< a timed sample repeats the kernel until it lasts this long */
};

struct nprb_thread_scaling_config {
    bool enabled;
    uint64_t size_bytes;
    struct nprb_kernel_list kernels;
    int repetitions;
};

struct nprb_first_touch_config {
    bool enabled;
    uint64_t size_bytes;
    struct nprb_touch_list modes; /**< serial, threaded, mismatched, interleave, bind */
    int repetitions;
};

struct nprb_loaded_latency_config {
    bool enabled;
    enum nprb_pairs pairs;
    uint64_t size_bytes;      /**< the chase's working set */
    uint64_t load_size_bytes; /**< buffer per load thread */
    int threads;              /**< load threads; 0: every other usable core of the node */
    bool load_writes;
    struct nprb_sizes delays; /**< spin iterations after each line, one point each */
    int samples;
    double sample_s;
};

struct nprb_numa_balancing_config {
    bool enabled;
    uint64_t size_bytes;
    double interval_s;
    double duration_s;
};

#define NPRB_CONFIG_MAX_KEYS 96
#define NPRB_LINE_SET UINT32_MAX

struct nprb_config {
    uint64_t seed;     /**< seed of every random chain; recorded in the file */
    double watchdog_s; /**< longest one measurement may take; a host silent twice as long is hung */
    bool checkpoints;  /**< each rank keeps its finished rows in OUT.checkpoints/ while it runs */
    int report_hosts;  /**< hosts shown in full on stdout (then one per node type); 0: all */
    enum nprb_thp_mode huge_pages;
    struct nprb_latency_config latency_matrix;
    struct nprb_bandwidth_config bandwidth_matrix;
    struct nprb_latency_sweep_config latency_sweep;
    struct nprb_stride_sweep_config stride_sweep;
    struct nprb_bandwidth_sweep_config bandwidth_sweep;
    struct nprb_thread_scaling_config thread_scaling;
    struct nprb_first_touch_config first_touch;
    struct nprb_loaded_latency_config loaded_latency;
    struct nprb_numa_balancing_config numa_balancing;
    int dimm_speed_mts;  /**< memory.dimm_speed: MT/s of the modules; 0: as SMBIOS/EDAC say */
    int memory_channels; /**< memory.channels: channels of the host; 0: one per module found */
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
 * Fills @p cfg with the built-in defaults (equal to configs/quick.yaml's values).
 * Never fails: the defaults are parsed by the same code as user input and tested.
 */
void nprb_config_defaults(struct nprb_config *cfg);

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

/** Writes the effective configuration as YAML (every key, canonical units) into @p buf. */
void nprb_config_to_yaml(const struct nprb_config *cfg, char *buf, size_t len);

/** Writes the key reference (key, type, default, meaning) as text into @p out. */
void nprb_config_print_reference(FILE *out);

/** --version's line for libyaml: the library loaded and the one built against. */
void nprb_config_print_version(FILE *out);

#endif
