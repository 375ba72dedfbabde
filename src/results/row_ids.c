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

/* Where each table keeps its experiment's text and enum. */
#define EXPERIMENT_OF(table, type)                                                                 \
    {                                                                                              \
        table, offsetof(type, experiment), offsetof(type, experiment_id)                           \
    }
static const struct {
    enum nprb_table_id table;
    size_t text, id;
} experiment_fields[] = {
    EXPERIMENT_OF(NPRB_TABLE_LATENCY, struct nprb_latency_row),
    EXPERIMENT_OF(NPRB_TABLE_BANDWIDTH, struct nprb_bandwidth_row),
    EXPERIMENT_OF(NPRB_TABLE_PLACEMENT, struct nprb_placement_row),
    EXPERIMENT_OF(NPRB_TABLE_NUMASTAT, struct nprb_numastat_row),
    EXPERIMENT_OF(NPRB_TABLE_LOADED_LATENCY, struct nprb_loaded_row),
    EXPERIMENT_OF(NPRB_TABLE_COUNTERS, struct nprb_counter_row),
    EXPERIMENT_OF(NPRB_TABLE_C2C_LATENCY, struct nprb_c2c_row),
};

void nprb_rows_parse_ids(enum nprb_table_id table, void *rows, size_t count)
{
    size_t row_bytes = nprb_table_desc(table)->row_bytes;
    for (size_t f = 0; f < sizeof experiment_fields / sizeof experiment_fields[0]; f++) {
        if (experiment_fields[f].table != table)
            continue;
        for (size_t i = 0; i < count; i++) {
            unsigned char *row = (unsigned char *)rows + i * row_bytes;
            enum nprb_experiment_id id =
                nprb_experiment_id_parse((const char *)row + experiment_fields[f].text);
            memcpy(row + experiment_fields[f].id, &id, sizeof id);
        }
    }
    if (table == NPRB_TABLE_BANDWIDTH)
        for (size_t i = 0; i < count; i++) {
            struct nprb_bandwidth_row *b = (struct nprb_bandwidth_row *)rows + i;
            b->kernel_id = kernel_id(b->kernel);
        }
}
