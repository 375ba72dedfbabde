/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file provenance.h
 * The environment a host measured under: kernel, huge pages, NUMA balancing, frequency governor
 * and boost, cgroup cpuset, scheduler job, launcher, OpenMP settings, huge page pools, the hwloc
 * topology XML. Read from /proc, /sys and the environment; nothing is changed.
 */
#ifndef NPRB_PROVENANCE_H
#define NPRB_PROVENANCE_H

#include "host/balancing.h"

#include <stddef.h>

struct nprb_provenance {
    char kernel[64];    /**< uname -r */
    char thp_mode[16];  /**< always | madvise | never | unknown */
    int numa_balancing; /**< 0, 1, 2 (tiering), or -1 when unreadable */
    char governor[24];  /**< cpu0's cpufreq governor, "none" without cpufreq */
    char scheduler[8];  /**< slurm | lsf | pbs | none */
    char job_id[32];
    char omp_env[256];     /**< OMP_* (and GOMP/KMP affinity) variables as k=v;... */
    char boost[16];        /**< on | off | unknown (cpufreq boost, intel_pstate no_turbo) */
    char cpuset_cpus[128]; /**< /proc/self/status Cpus_allowed_list */
    char cpuset_mems[128]; /**< /proc/self/status Mems_allowed_list */
    char cgroup[128];      /**< cgroup v2 path ("0::"), else the v1 cpuset hierarchy's */
    char launcher[128];    /**< who started this process, and the binding it asked for */
    char omp_undone[96];   /**< what OMP_* had bound before main() and numaprobe undid (job) */
    char omp_binder[64];   /**< who bound the process, when OMP_PLACES may have (job) */
    char restored[240];    /**< a setting a killed run left changed, put back at start (job) */
    enum nprb_recovery restore_outcome; /**< what became of it (job); NONE: nothing left */
};

struct nprb_results;

/**
 * The scheduler's job id from the environment (Slurm, LSF, PBS), or NULL outside a job;
 * @p scheduler (may be NULL) gets the scheduler's name.
 */
const char *nprb_provenance_job_id(const char **scheduler);

/** Reads the current environment. Fields that cannot be read say "unknown" (or -1). */
void nprb_provenance_collect(struct nprb_provenance *prov);

/** Adds /hugepages rows for NUMA node @p node: every page size's pool, total and free. */
void nprb_provenance_hugepages(struct nprb_results *results, int rank, unsigned node);

/**
 * Adds the hwloc topology XML (@p xml, @p len bytes) as /topology_xml rows of
 * NPRB_XML_PART_LEN - 1 characters each.
 */
void nprb_provenance_topology_xml(struct nprb_results *results, int rank, const char *xml,
                                  size_t len);

#endif
