/* SPDX-License-Identifier: BSD-3-Clause */
#include "host/provenance.h"

#include "results/results.h"

enum { PATH_MAX_SHORT = 512 };

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

/* Reads the first line of a small file, without the newline. */
static int read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    char *ok = fgets(buf, (int)len, f);
    fclose(f);
    if (ok == NULL)
        return -1;
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

/* THP's sysfs file lists every mode and brackets the active one: "always [madvise] never". */
static void active_bracketed(const char *line, char *out, size_t len)
{
    const char *open = strchr(line, '['), *close = open ? strchr(open, ']') : NULL;
    if (open == NULL || close == NULL) {
        nprb_copy_text(out, len, "unknown");
        return;
    }
    size_t n = (size_t)(close - open - 1);
    nprb_copy_text(out, n + 1 < len ? n + 1 : len, open + 1);
}

struct scheduler {
    const char *name;
    const char *job_var;
};

static const struct scheduler schedulers[] = {
    {"slurm", "SLURM_JOB_ID"},
    {"lsf", "LSB_JOBID"},
    {"pbs", "PBS_JOBID"},
};

const char *nprb_provenance_job_id(const char **scheduler)
{
    for (size_t i = 0; i < sizeof schedulers / sizeof schedulers[0]; i++) {
        const char *id = getenv(schedulers[i].job_var);
        if (id != NULL && *id != '\0') {
            if (scheduler != NULL)
                *scheduler = schedulers[i].name;
            return id;
        }
    }
    return NULL;
}

/* "on"/"off" from the cpufreq boost switch (AMD, acpi-cpufreq) or intel_pstate's no_turbo. */
static void read_boost(char *out, size_t len)
{
    char line[16];
    if (read_line("/sys/devices/system/cpu/cpufreq/boost", line, sizeof line) == 0)
        nprb_copy_text(out, len, line[0] == '1' ? "on" : "off");
    else if (read_line("/sys/devices/system/cpu/intel_pstate/no_turbo", line, sizeof line) == 0)
        nprb_copy_text(out, len, line[0] == '1' ? "off" : "on");
    else
        nprb_copy_text(out, len, "unknown");
}

/* The value of "Key:" in /proc/self/status, e.g. Cpus_allowed_list. */
static void read_status_field(const char *key, char *out, size_t len)
{
    nprb_copy_text(out, len, "unknown");
    FILE *f = fopen("/proc/self/status", "r");
    if (f == NULL)
        return;
    char line[4096];
    size_t klen = strlen(key);
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
            const char *v = line + klen + 1;
            v += strspn(v, " \t");
            nprb_copy_text(out, len, v);
            out[strcspn(out, "\n")] = '\0';
            break;
        }
    }
    fclose(f);
}

/* The cgroup the process is in: the unified (v2) path, or v1's cpuset hierarchy. */
static void read_cgroup(char *out, size_t len)
{
    nprb_copy_text(out, len, "unknown");
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (f == NULL)
        return;
    char line[1024];
    while (fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        const char *path = strchr(line, ':') ? strchr(strchr(line, ':') + 1, ':') : NULL;
        if (path == NULL)
            continue;
        if (strncmp(line, "0::", 3) == 0 || strstr(line, ":cpuset:") != NULL) {
            nprb_copy_text(out, len, path + 1);
            if (strstr(line, ":cpuset:") != NULL)
                break; /* v1 cpuset is what confines memory; prefer it on hybrid systems */
        }
    }
    fclose(f);
}

/* Who started us and which binding they asked for, from the launchers' own variables. */
static void read_launcher(char *out, size_t len)
{
    const char *policy = getenv("OMPI_MCA_hwloc_base_binding_policy");
    const char *slurm_bind = getenv("SLURM_CPU_BIND_TYPE");
    const char *ess = getenv("OMPI_MCA_ess"); /* Open MPI's singleton init sets PMIX_RANK too */
    if (ess != NULL && strcmp(ess, "singleton") == 0)
        snprintf(out, len, "none (singleton)");
    else if (getenv("OMPI_COMM_WORLD_SIZE") != NULL)
        snprintf(out, len, "Open MPI mpirun, bind-to %s",
                 policy != NULL ? policy : "(default: core for 2 ranks or fewer, else socket)");
    else if (getenv("SLURM_STEP_ID") != NULL && getenv("PMIX_RANK") != NULL)
        snprintf(out, len, "srun (PMIx), cpu-bind %s",
                 slurm_bind != NULL && *slurm_bind ? slurm_bind : "(unset)");
    else if (getenv("SLURM_STEP_ID") != NULL)
        snprintf(out, len, "srun, cpu-bind %s",
                 slurm_bind != NULL && *slurm_bind ? slurm_bind : "(unset)");
    else if (getenv("PMIX_RANK") != NULL || getenv("PMI_RANK") != NULL)
        snprintf(out, len, "a PMI launcher");
    else
        snprintf(out, len, "none (no launcher variables)");
}

void nprb_provenance_hugepages(struct nprb_results *results, int rank, unsigned node)
{
    char dir[96];
    snprintf(dir, sizeof dir, "/sys/devices/system/node/node%u/hugepages", node);
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        unsigned long long kib;
        if (sscanf(e->d_name, "hugepages-%llukB", &kib) != 1)
            continue;
        char path[PATH_MAX_SHORT], line[32];
        struct nprb_hugepage_row row = {
            .rank = rank, .node = (int32_t)node, .page_bytes = (uint64_t)kib << 10};
        snprintf(path, sizeof path, "%s/%s/nr_hugepages", dir, e->d_name);
        if (read_line(path, line, sizeof line) == 0)
            row.pages_total = strtoull(line, NULL, 10);
        snprintf(path, sizeof path, "%s/%s/free_hugepages", dir, e->d_name);
        if (read_line(path, line, sizeof line) == 0)
            row.pages_free = strtoull(line, NULL, 10);
        nprb_results_add(results, NPRB_TABLE_HUGEPAGES, &row);
    }
    closedir(d);
}

void nprb_provenance_topology_xml(struct nprb_results *results, int rank, const char *xml,
                                  size_t len)
{
    const size_t piece = NPRB_XML_PART_LEN - 1;
    for (size_t off = 0, part = 0; off < len; off += piece, part++) {
        struct nprb_topology_xml_row row = {.rank = rank, .part = (int32_t)part};
        size_t n = len - off < piece ? len - off : piece;
        memcpy(row.text, xml + off, n);
        row.text[n] = '\0';
        nprb_results_add(results, NPRB_TABLE_TOPOLOGY_XML, &row);
    }
}

void nprb_provenance_collect(struct nprb_provenance *prov)
{
    memset(prov, 0, sizeof *prov);
    struct utsname u;
    NPRB_SET_TEXT(prov->kernel, uname(&u) == 0 ? u.release : "unknown");

    char line[256];
    if (read_line("/sys/kernel/mm/transparent_hugepage/enabled", line, sizeof line) == 0)
        active_bracketed(line, prov->thp_mode, sizeof prov->thp_mode);
    else
        NPRB_SET_TEXT(prov->thp_mode, "unknown");

    prov->numa_balancing = -1;
    if (read_line("/proc/sys/kernel/numa_balancing", line, sizeof line) == 0)
        prov->numa_balancing = (int)strtol(line, NULL, 10);

    if (read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", line, sizeof line) == 0)
        NPRB_SET_TEXT(prov->governor, line);
    else
        NPRB_SET_TEXT(prov->governor, "none");
    read_boost(prov->boost, sizeof prov->boost);
    read_status_field("Cpus_allowed_list", prov->cpuset_cpus, sizeof prov->cpuset_cpus);
    read_status_field("Mems_allowed_list", prov->cpuset_mems, sizeof prov->cpuset_mems);
    read_cgroup(prov->cgroup, sizeof prov->cgroup);
    read_launcher(prov->launcher, sizeof prov->launcher);

    const char *scheduler = NULL, *id = nprb_provenance_job_id(&scheduler);
    NPRB_SET_TEXT(prov->scheduler, scheduler != NULL ? scheduler : "none");
    NPRB_SET_TEXT(prov->job_id, id != NULL ? id : "");

    static const char *const omp_vars[] = {"OMP_NUM_THREADS",  "OMP_PLACES",  "OMP_PROC_BIND",
                                           "OMP_THREAD_LIMIT", "OMP_DYNAMIC", "GOMP_CPU_AFFINITY",
                                           "KMP_AFFINITY"};
    size_t used = 0;
    for (size_t i = 0; i < sizeof omp_vars / sizeof omp_vars[0]; i++) {
        const char *v = getenv(omp_vars[i]);
        if (v == NULL || used >= sizeof prov->omp_env)
            continue;
        int n = snprintf(prov->omp_env + used, sizeof prov->omp_env - used, "%s%s=%s",
                         used ? ";" : "", omp_vars[i], v);
        if (n > 0)
            used += (size_t)n;
    }
}
