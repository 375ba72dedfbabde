/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file columns.h
 * Internal to results/: the macros a table's column rows are written with, and the tables
 * themselves (columns_host.c, columns_measure.c), which results.c lists by table id.
 */
#ifndef NPRB_COLUMNS_H
#define NPRB_COLUMNS_H

#include "results/results.h"

#include <stddef.h>

/* A column of the row struct ROW (#defined around each table): its field, kind, unit (NULL:
 * none), the minor that added it (0: the major's first), its value in a file older than that,
 * and its description. */
#define ADDED(col, kind_, unit_, minor_, absent_, text_)                                           \
    {                                                                                              \
        .name = #col, .offset = offsetof(ROW, col), .size = sizeof(((ROW *)0)->col),               \
        .unit = (unit_), .absent = (absent_), .description = (text_), .kind = NPRB_FIELD_##kind_,  \
        .since_minor = (minor_)                                                                    \
    }
#define I8(name, unit, text) ADDED(name, I8, unit, 0, 0, text)
#define I32(name, unit, text) ADDED(name, I32, unit, 0, 0, text)
#define I64(name, unit, text) ADDED(name, I64, unit, 0, 0, text)
#define U64(name, unit, text) ADDED(name, U64, unit, 0, 0, text)
#define F64(name, unit, text) ADDED(name, F64, unit, 0, 0, text)
#define STR(name, unit, text) ADDED(name, STR, unit, 0, 0, text)

/* A table: its name, row struct, columns, the minor that added it and its description. */
#define TABLE(name, type, fields, minor, text)                                                     \
    {                                                                                              \
        (name), sizeof(type), (fields), sizeof(fields) / sizeof((fields)[0]), (minor), (text)      \
    }

extern const struct nprb_table_desc nprb_table_hosts, nprb_table_numa_nodes, nprb_table_distances,
    nprb_table_cache_levels, nprb_table_hugepages, nprb_table_topology_xml, nprb_table_latency,
    nprb_table_bandwidth, nprb_table_placement, nprb_table_numastat, nprb_table_loaded_latency,
    nprb_table_balancing, nprb_table_counters, nprb_table_c2c_latency;

#endif
