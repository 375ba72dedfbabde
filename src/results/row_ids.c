/* SPDX-License-Identifier: BSD-3-Clause */
#include "results/row_ids.h"

#include "results/results.h"
#include "util/names.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define NAME(id, name) [NPRB_EXPERIMENT_##id] = #name,
static const char *const experiment_names[NPRB_N_EXPERIMENT_IDS] = {[NPRB_EXPERIMENT_NONE] = "-",
                                                                    NPRB_EXPERIMENTS(NAME)};
#undef NAME

const char *nprb_experiment_id_name(enum nprb_experiment_id id)
{
    return (unsigned)id < NPRB_N_EXPERIMENT_IDS ? experiment_names[id] : "-";
}

enum nprb_experiment_id nprb_experiment_id_parse(const char *text)
{
    for (int id = NPRB_EXPERIMENT_NONE + 1; id < NPRB_N_EXPERIMENT_IDS; id++)
        if (strcmp(text, experiment_names[id]) == 0)
            return (enum nprb_experiment_id)id;
    return NPRB_EXPERIMENT_NONE;
}

int nprb_experiment_parse(const char *text, enum nprb_experiment_id *id, char *why, size_t len)
{
    *id = nprb_experiment_id_parse(text);
    if (*id != NPRB_EXPERIMENT_NONE)
        return 0;
    char choices[512] = "";
    for (int e = NPRB_EXPERIMENT_NONE + 1; e < NPRB_N_EXPERIMENT_IDS; e++)
        nprb_choice_append(choices, sizeof choices, experiment_names[e],
                           e + 1 == NPRB_N_EXPERIMENT_IDS);
    snprintf(why, len, "unknown experiment '%s' (expected %s)", text, choices);
    return -1;
}

static const char *const policy_names[NPRB_N_MEM_POLICIES] = {
    [NPRB_MEM_BIND] = "bind",
    [NPRB_MEM_INTERLEAVE] = "interleave",
    [NPRB_MEM_PREFERRED] = "preferred",
    [NPRB_MEM_FIRST_TOUCH] = "first_touch",
};

static const char *const touch_names[NPRB_N_TOUCH_MODES] = {
    [NPRB_TOUCH_THREADED] = "threaded",
    [NPRB_TOUCH_SERIAL] = "serial",
    [NPRB_TOUCH_MISMATCHED] = "mismatched",
    [NPRB_TOUCH_INTERLEAVE] = "interleave",
    [NPRB_TOUCH_BIND] = "bind",
};

const struct nprb_name_table nprb_extra_policy_names = {
    .rows = policy_names,
    .stride = sizeof policy_names[0],
    .count = NPRB_N_MEM_POLICIES,
    .allowed = ~NPRB_MEM_POLICY_BIT(NPRB_MEM_BIND),
    .what = "policy",
};

const struct nprb_name_table nprb_touch_mode_names = {
    .rows = touch_names,
    .stride = sizeof touch_names[0],
    .count = NPRB_N_TOUCH_MODES,
    .allowed = NPRB_NAMES_ALL,
    .what = "mode",
};

const char *nprb_mem_policy_name(enum nprb_mem_policy policy)
{
    return (unsigned)policy < NPRB_N_MEM_POLICIES ? policy_names[policy] : "?";
}

int nprb_mem_policy_parse(const char *text, unsigned allowed, enum nprb_mem_policy *policy,
                          char *why, size_t len)
{
    struct nprb_name_table table = nprb_extra_policy_names;
    table.allowed = allowed;
    int i;
    if (nprb_name_parse(&table, text, &i, why, len) != 0)
        return -1;
    *policy = (enum nprb_mem_policy)i;
    return 0;
}

const char *nprb_touch_mode_name(enum nprb_touch_mode mode)
{
    return (unsigned)mode < NPRB_N_TOUCH_MODES ? touch_names[mode] : "?";
}

int nprb_touch_mode_parse(const char *text, enum nprb_touch_mode *mode, char *why, size_t len)
{
    int i;
    if (nprb_name_parse(&nprb_touch_mode_names, text, &i, why, len) != 0)
        return -1;
    *mode = (enum nprb_touch_mode)i;
    return 0;
}

void nprb_row_set_touch(struct nprb_bandwidth_row *row, enum nprb_touch_mode mode)
{
    row->init_mode_id = mode;
    NPRB_SET_TEXT(row->init_mode, nprb_touch_mode_name(mode));
}

/* A row's policy or first-touch mode as its file spells it; the count where this build knows
 * no such name. */
static enum nprb_mem_policy policy_id(const char *text)
{
    enum nprb_mem_policy policy;
    char why[8];
    return nprb_mem_policy_parse(text, NPRB_NAMES_ALL, &policy, why, sizeof why) == 0
               ? policy
               : NPRB_N_MEM_POLICIES;
}

static enum nprb_touch_mode touch_id(const char *text)
{
    enum nprb_touch_mode mode;
    char why[8];
    return nprb_touch_mode_parse(text, &mode, why, sizeof why) == 0 ? mode : NPRB_N_TOUCH_MODES;
}

static const char *const pair_class_names[NPRB_N_PAIR_CLASSES] = {
    [NPRB_PAIR_NONE] = "-",
    [NPRB_PAIR_LOCAL] = "local",
    [NPRB_PAIR_SAME_PACKAGE] = "same_package",
    [NPRB_PAIR_CROSS_PACKAGE] = "cross_package",
    [NPRB_PAIR_MEMORY_ONLY] = "memory_only",
    [NPRB_PAIR_MIXED] = "mixed",
    [NPRB_PAIR_UNKNOWN] = "?",
};

const char *nprb_pair_class_name(enum nprb_pair_class cls)
{
    return (unsigned)cls < NPRB_N_PAIR_CLASSES ? pair_class_names[cls] : "?";
}

enum nprb_pair_class nprb_pair_class_parse(const char *text)
{
    for (int c = 0; c < NPRB_N_PAIR_CLASSES; c++)
        if (strcmp(text, pair_class_names[c]) == 0)
            return (enum nprb_pair_class)c;
    return NPRB_PAIR_UNKNOWN;
}

static const char *const binding_verdict_names[NPRB_N_BINDING_VERDICTS] = {
    [NPRB_BINDING_UNKNOWN] = "?",
    [NPRB_BINDING_OK] = "ok",
    [NPRB_BINDING_NARROW] = "narrow",
    [NPRB_BINDING_WIDENED] = "widened",
};

const char *nprb_binding_verdict_name(enum nprb_binding_verdict verdict)
{
    return (unsigned)verdict < NPRB_N_BINDING_VERDICTS ? binding_verdict_names[verdict] : "?";
}

enum nprb_binding_verdict nprb_binding_verdict_parse(const char *binding_check)
{
    size_t word = strcspn(binding_check, ":");
    for (int v = NPRB_BINDING_UNKNOWN + 1; v < NPRB_N_BINDING_VERDICTS; v++)
        if (binding_check[word] == ':' && strlen(binding_verdict_names[v]) == word &&
            strncmp(binding_check, binding_verdict_names[v], word) == 0)
            return (enum nprb_binding_verdict)v;
    return NPRB_BINDING_UNKNOWN;
}

void nprb_row_set_kernel(struct nprb_bandwidth_row *row, enum nprb_kernel_id kernel)
{
    row->kernel_id = kernel;
    NPRB_SET_TEXT(row->kernel, nprb_kernel_get(kernel)->name);
}

static enum nprb_kernel_id kernel_id(const char *text)
{
    enum nprb_kernel_id id;
    char why[8];
    return nprb_kernel_parse(text, &id, why, sizeof why) == 0 ? id : NPRB_N_KERNELS;
}

/* Each name's parser, as the int its enum is stored as. */
static int parse_experiment(const char *text)
{
    return (int)nprb_experiment_id_parse(text);
}

static int parse_policy(const char *text)
{
    return (int)policy_id(text);
}

static int parse_pair_class(const char *text)
{
    return (int)nprb_pair_class_parse(text);
}

static int parse_touch(const char *text)
{
    return (int)touch_id(text);
}

static int parse_kernel(const char *text)
{
    return (int)kernel_id(text);
}

static int parse_binding(const char *text)
{
    return (int)nprb_binding_verdict_parse(text);
}

_Static_assert(sizeof(enum nprb_experiment_id) == sizeof(int) &&
                   sizeof(enum nprb_mem_policy) == sizeof(int) &&
                   sizeof(enum nprb_pair_class) == sizeof(int) &&
                   sizeof(enum nprb_touch_mode) == sizeof(int) &&
                   sizeof(enum nprb_kernel_id) == sizeof(int) &&
                   sizeof(enum nprb_binding_verdict) == sizeof(int),
               "a row's enum is stored as an int");

/* Where a table keeps a name's text and its enum, and the name's parser. */
#define ID_OF(table, type, text, id, parse)                                                        \
    {                                                                                              \
        table, offsetof(type, text), offsetof(type, id), parse                                     \
    }
static const struct {
    enum nprb_table_id table;
    size_t text, id;
    int (*parse)(const char *text);
} id_fields[] = {
    ID_OF(NPRB_TABLE_LATENCY, struct nprb_latency_row, experiment, experiment_id, parse_experiment),
    ID_OF(NPRB_TABLE_LATENCY, struct nprb_latency_row, mem_policy, mem_policy_id, parse_policy),
    ID_OF(NPRB_TABLE_LATENCY, struct nprb_latency_row, pair_class, pair_class_id, parse_pair_class),
    ID_OF(NPRB_TABLE_BANDWIDTH, struct nprb_bandwidth_row, experiment, experiment_id,
          parse_experiment),
    ID_OF(NPRB_TABLE_BANDWIDTH, struct nprb_bandwidth_row, mem_policy, mem_policy_id, parse_policy),
    ID_OF(NPRB_TABLE_BANDWIDTH, struct nprb_bandwidth_row, pair_class, pair_class_id,
          parse_pair_class),
    ID_OF(NPRB_TABLE_BANDWIDTH, struct nprb_bandwidth_row, kernel, kernel_id, parse_kernel),
    ID_OF(NPRB_TABLE_BANDWIDTH, struct nprb_bandwidth_row, init_mode, init_mode_id, parse_touch),
    ID_OF(NPRB_TABLE_PLACEMENT, struct nprb_placement_row, experiment, experiment_id,
          parse_experiment),
    ID_OF(NPRB_TABLE_NUMASTAT, struct nprb_numastat_row, experiment, experiment_id,
          parse_experiment),
    ID_OF(NPRB_TABLE_LOADED_LATENCY, struct nprb_loaded_row, experiment, experiment_id,
          parse_experiment),
    ID_OF(NPRB_TABLE_LOADED_LATENCY, struct nprb_loaded_row, mem_policy, mem_policy_id,
          parse_policy),
    ID_OF(NPRB_TABLE_LOADED_LATENCY, struct nprb_loaded_row, pair_class, pair_class_id,
          parse_pair_class),
    ID_OF(NPRB_TABLE_COUNTERS, struct nprb_counter_row, experiment, experiment_id,
          parse_experiment),
    ID_OF(NPRB_TABLE_C2C_LATENCY, struct nprb_c2c_row, experiment, experiment_id, parse_experiment),
    ID_OF(NPRB_TABLE_HOSTS, struct nprb_host_row, binding_check, binding_verdict, parse_binding),
};

void nprb_rows_parse_ids(enum nprb_table_id table, void *rows, size_t count)
{
    size_t row_bytes = nprb_table_desc(table)->row_bytes;
    for (size_t f = 0; f < sizeof id_fields / sizeof id_fields[0]; f++) {
        if (id_fields[f].table != table)
            continue;
        /* A table's rows come in runs of one experiment (one kernel, one policy): a name is
         * parsed when it differs from the row before's, not looked up in its list each row. */
        const char *before = NULL;
        int id = 0;
        for (size_t i = 0; i < count; i++) {
            unsigned char *row = (unsigned char *)rows + i * row_bytes;
            const char *text = (const char *)row + id_fields[f].text;
            if (before == NULL || strcmp(text, before) != 0)
                id = id_fields[f].parse(text);
            before = text;
            memcpy(row + id_fields[f].id, &id, sizeof id);
        }
    }
}
