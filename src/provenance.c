#include "provenance.h"

#include "results.h"

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

    NPRB_SET_TEXT(prov->scheduler, "none");
    NPRB_SET_TEXT(prov->job_id, "");
    for (size_t i = 0; i < sizeof schedulers / sizeof schedulers[0]; i++) {
        const char *id = getenv(schedulers[i].job_var);
        if (id != NULL && *id != '\0') {
            NPRB_SET_TEXT(prov->scheduler, schedulers[i].name);
            NPRB_SET_TEXT(prov->job_id, id);
            break;
        }
    }

    static const char *const omp_vars[] = {"OMP_NUM_THREADS", "OMP_PLACES", "OMP_PROC_BIND"};
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
