/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file health.h
 * numaprobe health: a node health check. Measures this host with the shipped `health` config
 * within a time budget, then has numaprobe-report judge the figures against a site's references
 * (one judge, the analysis's), and turns its verdict into a health check's exit status.
 */
#ifndef NPRB_HEALTH_H
#define NPRB_HEALTH_H

/** Exit statuses of numaprobe health (what NHC and the Slurm wrapper act on). */
enum nprb_health_exit {
    NPRB_HEALTH_OK = 0,         /**< every referenced figure judged and within its bounds */
    NPRB_HEALTH_FAILED = 1,     /**< a figure outside its bounds: the line names it */
    NPRB_HEALTH_NOT_JUDGED = 2, /**< nothing failed, but something could not be judged */
};

/**
 * Runs `numaprobe health ARGS` (@p argv[0] is "health") as one process: MPI is started here, as
 * a singleton. @return an enum nprb_health_exit.
 */
int nprb_health_main(int argc, char **argv);

#endif
