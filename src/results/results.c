/* SPDX-License-Identifier: BSD-3-Clause */
#include "results/results.h"

#include "results/columns.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct nprb_table_desc *const tables[NPRB_N_TABLES] = {
    [NPRB_TABLE_HOSTS] = &nprb_table_hosts,
    [NPRB_TABLE_NUMA_NODES] = &nprb_table_numa_nodes,
    [NPRB_TABLE_DISTANCES] = &nprb_table_distances,
    [NPRB_TABLE_LATENCY] = &nprb_table_latency,
    [NPRB_TABLE_BANDWIDTH] = &nprb_table_bandwidth,
    [NPRB_TABLE_PLACEMENT] = &nprb_table_placement,
    [NPRB_TABLE_CACHE_LEVELS] = &nprb_table_cache_levels,
    [NPRB_TABLE_NUMASTAT] = &nprb_table_numastat,
    [NPRB_TABLE_LOADED_LATENCY] = &nprb_table_loaded_latency,
    [NPRB_TABLE_BALANCING] = &nprb_table_balancing,
    [NPRB_TABLE_HUGEPAGES] = &nprb_table_hugepages,
    [NPRB_TABLE_TOPOLOGY_XML] = &nprb_table_topology_xml,
    [NPRB_TABLE_COUNTERS] = &nprb_table_counters,
    [NPRB_TABLE_C2C_LATENCY] = &nprb_table_c2c_latency,
};

const struct nprb_table_desc *nprb_table_desc(enum nprb_table_id id)
{
    return id < NPRB_N_TABLES ? tables[id] : NULL;
}

const struct nprb_field *nprb_table_field(const struct nprb_table_desc *desc, const char *name)
{
    for (size_t f = 0; desc != NULL && name != NULL && f < desc->field_count; f++)
        if (strcmp(desc->fields[f].name, name) == 0)
            return &desc->fields[f];
    return NULL;
}

void nprb_results_init(struct nprb_results *results)
{
    memset(results, 0, sizeof *results);
    for (int t = 0; t < NPRB_N_TABLES; t++)
        results->tables[t].row_bytes = tables[t]->row_bytes;
}

void nprb_results_free(struct nprb_results *results)
{
    for (int t = 0; t < NPRB_N_TABLES; t++)
        free(results->tables[t].data);
    nprb_results_init(results);
}

static int append_rows(struct nprb_rows *rows, const void *data, size_t count)
{
    if (rows->count + count > rows->capacity) {
        size_t capacity = rows->capacity ? 2 * rows->capacity : 16;
        while (capacity < rows->count + count)
            capacity *= 2;
        unsigned char *grown = realloc(rows->data, capacity * rows->row_bytes);
        if (grown == NULL) {
            errno = ENOMEM;
            return -1;
        }
        rows->data = grown;
        rows->capacity = capacity;
    }
    if (count > 0)
        memcpy(rows->data + rows->count * rows->row_bytes, data, count * rows->row_bytes);
    rows->count += count;
    return 0;
}

int nprb_results_add(struct nprb_results *results, enum nprb_table_id table, const void *row)
{
    if (results->lock != NULL)
        pthread_mutex_lock(results->lock);
    int rc = append_rows(&results->tables[table], row, 1);
    if (results->lock != NULL)
        pthread_mutex_unlock(results->lock);
    return rc;
}

int nprb_results_copy(struct nprb_results *into, struct nprb_results *from)
{
    int rc = 0;
    if (from->lock != NULL)
        pthread_mutex_lock(from->lock);
    for (int t = 0; t < NPRB_N_TABLES && rc == 0; t++)
        rc = append_rows(&into->tables[t], from->tables[t].data, from->tables[t].count);
    if (from->lock != NULL)
        pthread_mutex_unlock(from->lock);
    return rc;
}

void nprb_copy_text(char *dst, size_t size, const char *src)
{
    if (size == 0)
        return;
    size_t n = src != NULL ? strnlen(src, size - 1) : 0;
    memcpy(dst, src != NULL ? src : "", n);
    memset(dst + n, 0, size - n);
}
