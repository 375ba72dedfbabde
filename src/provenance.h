/**
 * @file provenance.h
 * The environment a host measured under: kernel, huge pages, NUMA balancing, frequency governor,
 * scheduler job, OpenMP settings. Read from /proc, /sys and the environment; nothing is changed.
 */
#ifndef NPRB_PROVENANCE_H
#define NPRB_PROVENANCE_H

struct nprb_provenance {
    char kernel[64];    /**< uname -r */
    char thp_mode[16];  /**< always | madvise | never | unknown */
    int numa_balancing; /**< 0, 1, 2 (tiering), or -1 when unreadable */
    char governor[24];  /**< cpu0's cpufreq governor, "none" without cpufreq */
    char scheduler[8];  /**< slurm | lsf | pbs | none */
    char job_id[32];
    char omp_env[256]; /**< OMP_NUM_THREADS, OMP_PLACES, OMP_PROC_BIND as k=v;... */
};

/** Reads the current environment. Fields that cannot be read say "unknown" (or -1). */
void nprb_provenance_collect(struct nprb_provenance *prov);

#endif
