/* SPDX-License-Identifier: BSD-3-Clause */
/* The results-file contract as tables: the root attributes, what each table holds, the columns
 * minors added; schema_json.c prints all of it for `numaprobe --schema`. */
#include "results/contract.h"

#include <math.h>
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

/* What `config_fingerprint` leaves out of its hash, spelled once for the hash
 * (config/config_echo.c), `--schema` (which the analysis hashes by) and the attribute's
 * description: top-level keys that change nothing measured, and echo lines of keys added later
 * at the one value that changes nothing (a config keeps the hash an earlier version gave it). */
#define UNMEASURED_KEYS(X) X(report_hosts) X(watchdog) X(checkpoints) X(memory)
#define NEUTRAL_LINES(X) X("time_budget: 0s")
#define KEY_NAME(key) #key,
#define LINE_TEXT(line) line "\n",
#define KEY_DOC(key) " `" #key "`"
#define LINE_DOC(line) " `" line "`"
#define UNMEASURED_DOC UNMEASURED_KEYS(KEY_DOC)
#define NEUTRAL_DOC NEUTRAL_LINES(LINE_DOC)

static const char *const unmeasured_keys[] = {UNMEASURED_KEYS(KEY_NAME)};
static const char *const neutral_lines[] = {NEUTRAL_LINES(LINE_TEXT)};

const char *const *nprb_fingerprint_unmeasured_keys(size_t *count)
{
    *count = sizeof unmeasured_keys / sizeof unmeasured_keys[0];
    return unmeasured_keys;
}

const char *const *nprb_fingerprint_neutral_lines(size_t *count)
{
    *count = sizeof neutral_lines / sizeof neutral_lines[0];
    return neutral_lines;
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
      "16 hex digits: FNV-1a of the lines `NAME: VALUE` (each with its newline; `NAME` dotted "
      "within a section, `VALUE` as in `config`) of every key that changes what is measured, "
      "sorted bytewise: every key but those under these, which change nothing measured "
      "(`--schema`'s `config_fingerprint.unmeasured_keys`):" UNMEASURED_DOC
      "; and no line of these (`neutral_lines`: keys added later, left out at the default that "
      "changes nothing):" NEUTRAL_DOC ". Sorted, so that the order of the config's sections is "
      "no part of it. Two runs with equal fingerprints measured the same way; the report "
      "computes the hash from `config` for every file (before 0.12.0 the lines were hashed in "
      "the order of the echo) and refuses to pool or compare runs whose hashes differ"),
    A("run_id", TEXT, NULL, 5, ANY, true,
      "id of the run (job): an RFC 9562 UUID of version 8 "
      "(`xxxxxxxx-xxxx-8xxx-[89ab]xxx-xxxxxxxxxxxx`), its other bits hashed from rank 0's host, "
      "PID, start time and clock; equal in a job's checkpoints and its file. Files of 0.5.0 "
      "written before the UUID layout have the same layout with version and variant bits of no "
      "meaning"),
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
    A("checkpoint_rank", INT, NULL, 0, CKPT, true,
      "whose rows the checkpoint (`OUT.checkpoints/rank-RRRRR.h5`) holds"),
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

bool nprb_is_noisy(double uncertainty_pct)
{
    return uncertainty_pct > NPRB_NOISY_PCT; /* false for NaN */
}

double nprb_latency_uncertainty_pct(const struct nprb_latency_row *l)
{
    if (isfinite(l->uncertainty_pct))
        return l->uncertainty_pct;
    return l->latency_ns_min > 0 ? 100 * (l->latency_ns_p90 - l->latency_ns_min) / l->latency_ns_min
                                 : NAN;
}

double nprb_bandwidth_uncertainty_pct(const struct nprb_bandwidth_row *b)
{
    if (isfinite(b->uncertainty_pct))
        return b->uncertainty_pct;
    return b->gbs_best > 0 ? 100 * fabs(b->gbs_best - b->gbs_median) / b->gbs_best : NAN;
}
