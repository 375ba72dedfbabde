/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file checkpoint.h
 * Each rank keeps its finished rows in a small results file of its own, OUT.checkpoints/
 * rank-RRRRR.h5 beside the job's output, rewritten (temporary name, fsync, rename) after every
 * experiment phase. A job that dies part-way keeps what was measured: `numaprobe merge DIR -o
 * FILE` rebuilds a results file from them. A job that ends well removes them: only the files it
 * wrote itself (each names its job in `checkpoint_job`, and the rank removes the file only while
 * it is the one it wrote). An earlier job's checkpoint found in the way is moved aside, never
 * overwritten.
 */
#ifndef NPRB_CHECKPOINT_H
#define NPRB_CHECKPOINT_H

#include "results/h5out.h"
#include "results/results.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct nprb_checkpoint {
    char dir[PATH_MAX];
    char path[PATH_MAX + 32];
    char job[128]; /**< the job's identity: rank 0's host, PID and start time */
    int rank;
    bool written; /**< at least one checkpoint is on disk */
    dev_t dev;    /**< ... this file: removed only while it is still the one written */
    ino_t ino;
    char aside[PATH_MAX]; /**< where an earlier job's checkpoint of this rank was moved, or "" */
};

/** Sets the root attributes of a results file (the job's, written into each checkpoint). */
typedef void (*nprb_attrs_fn)(struct nprb_h5 *h5, void *arg);

/**
 * Names this rank's checkpoint for the job @p job writing @p output, and creates the directory
 * (every rank does: on a filesystem that is not shared each host keeps its own). A checkpoint of
 * this rank already there is an earlier job's: it is moved to "DIR.TIME/" (ck->aside).
 * @return 0, or -1 with the reason in @p err.
 */
int nprb_checkpoint_init(struct nprb_checkpoint *ck, const char *output, const char *job, int rank,
                         char *err, size_t errlen);

/**
 * Writes the rank's rows so far: @p host as its /hosts row (status "running" until the rank has
 * finished), every other table from @p rows, the job's attributes through @p attrs, and
 * checkpoint_rank / checkpoint_complete / checkpoint_job. @return 0, or -1 with the reason in @p
 * err.
 */
int nprb_checkpoint_write(struct nprb_checkpoint *ck, const struct nprb_results *rows,
                          const struct nprb_host_row *host, nprb_attrs_fn attrs, void *arg,
                          bool complete, char *err, size_t errlen);

/** Removes this rank's checkpoint file if it is still the one this rank wrote, and the directory
 * once it is empty. */
void nprb_checkpoint_remove(struct nprb_checkpoint *ck);

#endif
