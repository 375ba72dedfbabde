/* SPDX-License-Identifier: BSD-3-Clause */
/* The results-file contract as tables: the root attributes, what each table holds, the columns
 * minors added; schema_json.c prints all of it for `numaprobe --schema`. */
#include "results/contract.h"

#include <string.h>

#define ANY NPRB_ATTR_EVERY
#define FINAL NPRB_ATTR_FINAL
#define CKPT NPRB_ATTR_CHECKPOINT
#define MERGED NPRB_ATTR_MERGED
#define TEXT NPRB_ATTR_TEXT
#define INT NPRB_ATTR_INT
/* One attribute: name, type, unit, since minor, scope, required, description. */
#define A(name, type, unit, since, scope, required, description)                                   \
    {                                                                                              \
        (name), (unit), (description), (type), (since), (scope), (required)                        \
    }

/* What the job writes (job/collector.c; checkpoint.c adds the checkpoint's own, merge.c the merged
 * file's). */
static const struct nprb_root_attr root_attrs[] = {
    A("schema", TEXT, NULL, 0, ANY, true, "always `numaprobe`"),
    A("schema_version", TEXT, NULL, 0, ANY, true,
      "semver of this layout (MAJOR.MINOR.PATCH); a newer minor only adds columns, tables and "
      "attributes"),
    A("software_version", TEXT, NULL, 0, ANY, true, "numaprobe version"),
    A("git_revision", TEXT, NULL, 0, ANY, true,
      "`git describe` of the build, `unknown` outside git"),
    A("start_utc", TEXT, NULL, 0, ANY, true, "ISO 8601, UTC: when the job started"),
    A("end_utc", TEXT, NULL, 0, FINAL, true, "ISO 8601, UTC: when the file was written"),
    A("command_line", TEXT, NULL, 0, ANY, true, "the command as run on rank 0"),
    A("config", TEXT, NULL, 0, ANY, true,
      "the effective configuration as YAML (defaults, file and `--set` merged)"),
    A("config_fingerprint", TEXT, NULL, 5, ANY, true,
      "16 hex digits: FNV-1a of the lines of `config` that change what is measured (all but "
      "those of `report_hosts`, `watchdog`, `checkpoints` and `memory`)"),
    A("run_id", TEXT, NULL, 5, ANY, true,
      "id of the run (job), an RFC 9562 UUID of version 8, equal in a job's checkpoints and its "
      "file"),
    A("config_source", TEXT, NULL, 0, ANY, true, "config file path, or `built-in defaults`"),
    A("mpi_library", TEXT, NULL, 0, ANY, true, "`MPI_Get_library_version`, first line"),
    A("world_size", INT, "ranks", 0, ANY, true, "MPI ranks"),
    A("host_count", INT, "hosts", 0, ANY, true, "hosts (ranks grouped by `MPI_COMM_TYPE_SHARED`)"),
    A("scheduler", TEXT, NULL, 0, ANY, true, "`slurm`, `lsf`, `pbs` or `none`"),
    A("job_id", TEXT, NULL, 0, ANY, true, "the scheduler's job id"),
    A("complete", INT, NULL, 0, ANY, true, "1 when every rank's rows were gathered, else 0"),
    A("hosts_ok", INT, "ranks", 0, FINAL, true, "ranks whose host row says `ok`"),
    A("hosts_failed", INT, "ranks", 0, FINAL, true,
      "ranks whose host row says anything else (`failed`, `hung`)"),
    A("binding_summary", TEXT, NULL, 0, ANY, true,
      "the binding self-check over the fleet: `N of M rank(s) ok`, and the first hosts whose "
      "check said `narrow`"),
    A("checkpoint_rank", INT, NULL, 0, CKPT, true, "whose rows the checkpoint holds"),
    A("checkpoint_complete", INT, NULL, 0, CKPT, true, "1 once that rank finished"),
    A("checkpoint_job", TEXT, NULL, 0, CKPT, false,
      "the job that wrote the checkpoint, `HOST pid PID START_UTC` of rank 0 (absent in "
      "checkpoints of earlier versions)"),
    A("merged_from", TEXT, NULL, 0, MERGED, true, "the checkpoint directory merged"),
    A("ranks_missing", TEXT, NULL, 0, MERGED, true,
      "ranks without a usable checkpoint, comma-separated (empty: none)"),
    A("ranks_incomplete", TEXT, NULL, 0, MERGED, true,
      "ranks whose checkpoint never finished, comma-separated (empty: none)"),
};

static const char *const table_descriptions[NPRB_N_TABLES] = {
    [NPRB_TABLE_HOSTS] = "one row per rank",
    [NPRB_TABLE_NUMA_NODES] = "one row per rank and NUMA node",
    [NPRB_TABLE_DISTANCES] = "one row per rank and (from, to) node pair",
    [NPRB_TABLE_LATENCY] = "one row per latency measurement",
    [NPRB_TABLE_BANDWIDTH] = "one row per bandwidth measurement",
    [NPRB_TABLE_PLACEMENT] = "pages per node for every measurement",
    [NPRB_TABLE_CACHE_LEVELS] = "hwloc's cache sizes beside the measured latency curve (one row "
                                "per rank and level)",
    [NPRB_TABLE_NUMASTAT] = "the kernel's allocation counters around each measurement (one row "
                            "per measurement and node)",
    [NPRB_TABLE_LOADED_LATENCY] = "latency under load (one row per CPU node, memory node and "
                                  "delay)",
    [NPRB_TABLE_BALANCING] = "automatic NUMA balancing as a time series (one row per sample)",
    [NPRB_TABLE_HUGEPAGES] = "huge page pools of each node (one row per rank, node and page size)",
    [NPRB_TABLE_TOPOLOGY_XML] = "the host's hwloc topology (its first rank only)",
    [NPRB_TABLE_COUNTERS] = "what the kernel, the CPU and the memory controllers counted during "
                            "each measurement (one row per measurement and event)",
};

/* Columns added by a minor version after the major's first: a file of an older minor lacks
 * them, and is read with them 0 (empty text). */
static const struct added_column {
    const char *table, *column;
    int minor;
} added_columns[] = {
    {"numa_nodes", "free_bytes", 4},
    {"latency", "pages_unreported", 4},
    {"latency", "cpus", 4},
    {"latency", "flags", 4},
    {"bandwidth", "pages_unreported", 4},
    {"bandwidth", "cpus", 4},
    {"bandwidth", "flags", 4},
    {"loaded_latency", "pages_unreported", 4},
    {"loaded_latency", "cpus", 4},
    {"loaded_latency", "flags", 4},
    {"balancing", "pages_unreported", 4},
    {"bandwidth", "mc_bytes", 7},
    {"bandwidth", "mc_bus_ratio", 7},
    {"balancing", "numa_hint_faults", 7},
    {"balancing", "numa_pages_migrated", 7},
    {"hosts", "restored", 8},
    {"latency", "passes", 9},
    {"latency", "pass_values", 9},
    {"latency", "uncertainty_pct", 9},
    {"bandwidth", "passes", 9},
    {"bandwidth", "pass_values", 9},
    {"bandwidth", "uncertainty_pct", 9},
};

/* Tables added by a minor version after the major's first: a file of an older minor lacks them,
 * and is read as if they had no rows. */
static const struct added_table {
    enum nprb_table_id table;
    int minor;
} added_tables[] = {
    {NPRB_TABLE_COUNTERS, 7},
};

const struct nprb_root_attr *nprb_root_attrs(size_t *count)
{
    *count = sizeof root_attrs / sizeof root_attrs[0];
    return root_attrs;
}

const struct nprb_root_attr *nprb_root_attr_named(const char *name)
{
    for (size_t i = 0; name != NULL && i < sizeof root_attrs / sizeof root_attrs[0]; i++)
        if (strcmp(root_attrs[i].name, name) == 0)
            return &root_attrs[i];
    return NULL;
}

const char *nprb_table_description(enum nprb_table_id id)
{
    return id < NPRB_N_TABLES ? table_descriptions[id] : NULL;
}

int nprb_column_since_minor(const char *table, const char *column)
{
    for (size_t i = 0; i < sizeof added_columns / sizeof added_columns[0]; i++)
        if (strcmp(added_columns[i].table, table) == 0 &&
            strcmp(added_columns[i].column, column) == 0)
            return added_columns[i].minor;
    return 0;
}

int nprb_table_since_minor(enum nprb_table_id table)
{
    for (size_t i = 0; i < sizeof added_tables / sizeof added_tables[0]; i++)
        if (added_tables[i].table == table)
            return added_tables[i].minor;
    return 0;
}

static int schema_major(const char *version)
{
    int major = -1;
    return version != NULL && sscanf(version, "%d.", &major) == 1 ? major : -1;
}

int nprb_schema_minor(const char *version)
{
    int major = -1, minor = -1;
    if (version == NULL || sscanf(version, "%d.%d.", &major, &minor) != 2 ||
        major != schema_major(NPRB_SCHEMA_VERSION))
        return -1;
    return minor;
}
