/* SPDX-License-Identifier: BSD-3-Clause */
#include "results/results.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define F(type, name, kind)                                                                        \
    {                                                                                              \
#name, kind, offsetof(type, name), sizeof(((type *)0)->name)                               \
    }
#define I8(t, n) F(t, n, NPRB_FIELD_I8)
#define I32(t, n) F(t, n, NPRB_FIELD_I32)
#define I64(t, n) F(t, n, NPRB_FIELD_I64)
#define U64(t, n) F(t, n, NPRB_FIELD_U64)
#define F64(t, n) F(t, n, NPRB_FIELD_F64)
#define STR(t, n) F(t, n, NPRB_FIELD_STR)

#define H struct nprb_host_row
static const struct nprb_field host_fields[] = {
    I32(H, rank),           I32(H, host_index),  I32(H, ranks_on_host),
    STR(H, hostname),       STR(H, fingerprint), STR(H, node_type),
    STR(H, cpu_model),      I32(H, packages),    I32(H, numa_nodes),
    I32(H, cores),          I32(H, pus),         U64(H, memory_bytes),
    U64(H, l1d_bytes),      U64(H, l2_bytes),    U64(H, l3_bytes),
    STR(H, kernel),         STR(H, thp_mode),    I32(H, numa_balancing),
    STR(H, governor),       STR(H, simd_path),   STR(H, usable_cpus),
    STR(H, binding_check),  STR(H, launcher),    STR(H, omp_env),
    STR(H, boost),          STR(H, cpuset_cpus), STR(H, cpuset_mems),
    STR(H, cgroup),         STR(H, scheduler),   STR(H, dimms),
    I32(H, dimm_speed_mts), F64(H, peak_gbs),    STR(H, peak_basis),
    STR(H, job_id),         STR(H, status),      STR(H, error),
    F64(H, elapsed_s),      STR(H, restored),
};
#undef H

#define N struct nprb_numa_node_row
static const struct nprb_field node_fields[] = {
    I32(N, rank),        I32(N, node),         U64(N, memory_bytes), U64(N, free_bytes),
    I32(N, cpus),        I32(N, usable_cores), I32(N, package),      STR(N, cpu_list),
    I32(N, mem_allowed), I32(N, cpus_allowed),
};
#undef N

#define D struct nprb_distance_row
static const struct nprb_field distance_fields[] = {
    I32(D, rank), I32(D, from_node),       I32(D, to_node),
    I32(D, slit), U64(D, hmat_latency_ns), U64(D, hmat_bandwidth_mibs),
};
#undef D

#define L struct nprb_latency_row
static const struct nprb_field latency_fields[] = {
    I32(L, rank),
    I32(L, measurement),
    STR(L, hostname),
    STR(L, experiment),
    I32(L, cpu_node),
    I32(L, mem_node),
    STR(L, mem_policy),
    STR(L, pair_class),
    I32(L, slit),
    U64(L, size_bytes),
    STR(L, pattern),
    U64(L, slot_bytes),
    U64(L, tlb_window_bytes),
    U64(L, page_bytes),
    I32(L, threads),
    I32(L, samples),
    U64(L, accesses_per_sample),
    F64(L, latency_ns_min),
    F64(L, latency_ns_median),
    F64(L, latency_ns_p90),
    F64(L, latency_ns_p99),
    F64(L, latency_ns_max),
    F64(L, huge_page_frac),
    F64(L, pages_on_target_frac),
    U64(L, pages_unreported),
    STR(L, cpus),
    STR(L, flags),
    I32(L, passes),
    STR(L, pass_values),
    F64(L, uncertainty_pct),
    I8(L, valid),
    STR(L, status),
    STR(L, note),
};
#undef L

#define B struct nprb_bandwidth_row
static const struct nprb_field bandwidth_fields[] = {
    I32(B, rank),
    I32(B, measurement),
    STR(B, hostname),
    STR(B, experiment),
    I32(B, cpu_node),
    I32(B, mem_node),
    STR(B, mem_policy),
    STR(B, pair_class),
    I32(B, slit),
    U64(B, size_bytes),
    STR(B, kernel),
    STR(B, init_mode),
    U64(B, stride_bytes),
    U64(B, page_bytes),
    I32(B, threads),
    I32(B, repetitions),
    U64(B, passes_per_sample),
    U64(B, program_bytes),
    U64(B, bus_bytes),
    F64(B, gbs_best),
    F64(B, gbs_median),
    F64(B, gbs_worst),
    F64(B, bus_gbs_best),
    F64(B, mc_bytes),
    F64(B, mc_bus_ratio),
    F64(B, huge_page_frac),
    F64(B, pages_on_target_frac),
    U64(B, pages_unreported),
    STR(B, cpus),
    STR(B, flags),
    I32(B, passes),
    STR(B, pass_values),
    F64(B, uncertainty_pct),
    I8(B, threads_pinned_ok),
    I8(B, valid),
    STR(B, status),
    STR(B, note),
};
#undef B

#define P struct nprb_placement_row
static const struct nprb_field placement_fields[] = {
    I32(P, rank), I32(P, measurement), STR(P, experiment), I32(P, node), U64(P, pages),
};
#undef P

#define C struct nprb_cache_level_row
static const struct nprb_field cache_level_fields[] = {
    I32(C, rank),
    I32(C, level),
    U64(C, hwloc_bytes),
    U64(C, measured_bytes),
    F64(C, latency_ns_below),
    I8(C, agrees),
    STR(C, note),
};
#undef C

#define S struct nprb_numastat_row
static const struct nprb_field numastat_fields[] = {
    I32(S, rank),       I32(S, measurement), STR(S, experiment),   I32(S, node),
    I64(S, numa_hit),   I64(S, numa_miss),   I64(S, numa_foreign), I64(S, interleave_hit),
    I64(S, local_node), I64(S, other_node),
};
#undef S

#define O struct nprb_loaded_row
static const struct nprb_field loaded_fields[] = {
    I32(O, rank),
    I32(O, measurement),
    STR(O, hostname),
    STR(O, experiment),
    I32(O, cpu_node),
    I32(O, mem_node),
    STR(O, mem_policy),
    STR(O, pair_class),
    I32(O, slit),
    U64(O, size_bytes),
    I32(O, load_threads),
    STR(O, load_kernel),
    U64(O, delay_spins),
    F64(O, load_gbs),
    F64(O, latency_ns_min),
    F64(O, latency_ns_median),
    F64(O, latency_ns_p90),
    F64(O, latency_ns_p99),
    F64(O, latency_ns_max),
    F64(O, pages_on_target_frac),
    U64(O, pages_unreported),
    STR(O, cpus),
    STR(O, flags),
    I8(O, threads_pinned_ok),
    I8(O, valid),
    STR(O, status),
    STR(O, note),
};
#undef O

#define Z struct nprb_balancing_row
static const struct nprb_field balancing_fields[] = {
    I32(Z, rank),
    I32(Z, measurement),
    STR(Z, hostname),
    I32(Z, from_node),
    I32(Z, to_node),
    I32(Z, numa_balancing),
    I32(Z, threads),
    F64(Z, t_s),
    U64(Z, pages),
    U64(Z, pages_on_from),
    U64(Z, pages_on_to),
    U64(Z, pages_unreported),
    F64(Z, frac_on_to),
    F64(Z, read_gbs),
    I64(Z, numa_hint_faults),
    I64(Z, numa_pages_migrated),
    STR(Z, status),
    STR(Z, note),
};
#undef Z

#define P struct nprb_hugepage_row
static const struct nprb_field hugepage_fields[] = {
    I32(P, rank), I32(P, node), U64(P, page_bytes), U64(P, pages_total), U64(P, pages_free),
};
#undef P

#define X struct nprb_topology_xml_row
static const struct nprb_field topology_xml_fields[] = {I32(X, rank), I32(X, part), STR(X, text)};
#undef X

#define C struct nprb_counter_row
static const struct nprb_field counter_fields[] = {
    I32(C, rank),  I32(C, measurement),    STR(C, experiment),     STR(C, event),
    STR(C, group), STR(C, scope),          I32(C, socket),         I32(C, threads),
    U64(C, value), F64(C, time_enabled_s), F64(C, time_running_s), F64(C, value_scaled),
    STR(C, unit),  STR(C, status),         STR(C, note),
};
#undef C

#define TABLE(name, type, fields)                                                                  \
    {                                                                                              \
        (name), sizeof(type), (fields), sizeof(fields) / sizeof((fields)[0])                       \
    }
static const struct nprb_table_desc tables[NPRB_N_TABLES] = {
    [NPRB_TABLE_HOSTS] = TABLE("hosts", struct nprb_host_row, host_fields),
    [NPRB_TABLE_NUMA_NODES] = TABLE("numa_nodes", struct nprb_numa_node_row, node_fields),
    [NPRB_TABLE_DISTANCES] = TABLE("distances", struct nprb_distance_row, distance_fields),
    [NPRB_TABLE_LATENCY] = TABLE("latency", struct nprb_latency_row, latency_fields),
    [NPRB_TABLE_BANDWIDTH] = TABLE("bandwidth", struct nprb_bandwidth_row, bandwidth_fields),
    [NPRB_TABLE_PLACEMENT] = TABLE("placement", struct nprb_placement_row, placement_fields),
    [NPRB_TABLE_NUMASTAT] = TABLE("numastat", struct nprb_numastat_row, numastat_fields),
    [NPRB_TABLE_BALANCING] = TABLE("balancing", struct nprb_balancing_row, balancing_fields),
    [NPRB_TABLE_LOADED_LATENCY] = TABLE("loaded_latency", struct nprb_loaded_row, loaded_fields),
    [NPRB_TABLE_HUGEPAGES] = TABLE("hugepages", struct nprb_hugepage_row, hugepage_fields),
    [NPRB_TABLE_TOPOLOGY_XML] =
        TABLE("topology_xml", struct nprb_topology_xml_row, topology_xml_fields),
    [NPRB_TABLE_CACHE_LEVELS] =
        TABLE("cache_levels", struct nprb_cache_level_row, cache_level_fields),
    [NPRB_TABLE_COUNTERS] = TABLE("counters", struct nprb_counter_row, counter_fields),
};

const struct nprb_table_desc *nprb_table_desc(enum nprb_table_id id)
{
    return id < NPRB_N_TABLES ? &tables[id] : NULL;
}

void nprb_results_init(struct nprb_results *results)
{
    memset(results, 0, sizeof *results);
    for (int t = 0; t < NPRB_N_TABLES; t++)
        results->tables[t].row_bytes = tables[t].row_bytes;
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
