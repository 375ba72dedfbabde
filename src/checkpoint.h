/**
 * @file checkpoint.h
 * Each rank keeps its finished rows in a small results file of its own, OUT.checkpoints/
 * rank-RRRRR.h5 beside the job's output, rewritten (temporary name, fsync, rename) after every
 * experiment phase. A job that dies part-way keeps what was measured: `numaprobe merge DIR -o
 * FILE` rebuilds a results file from them. A job that ends well removes them.
 */
#ifndef NPRB_CHECKPOINT_H
#define NPRB_CHECKPOINT_H

#include "h5out.h"
#include "results.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct nprb_checkpoint {
    char dir[PATH_MAX];
    char path[PATH_MAX + 32];
    int rank;
    bool written; /**< at least one checkpoint is on disk */
};

/** Sets the root attributes of a results file (the job's, written into each checkpoint). */
typedef void (*nprb_attrs_fn)(struct nprb_h5 *h5, void *arg);

/**
 * Names this rank's checkpoint for the job writing @p output, and creates the directory (every
 * rank does: on a filesystem that is not shared each host keeps its own).
 * @return 0, or -1 with the reason in @p err.
 */
int nprb_checkpoint_init(struct nprb_checkpoint *ck, const char *output, int rank, char *err,
                         size_t errlen);

/**
 * Writes the rank's rows so far: @p host as its /hosts row (status "running" until the rank has
 * finished), every other table from @p rows, the job's attributes through @p attrs, and
 * checkpoint_rank / checkpoint_complete. @return 0, or -1 with the reason in @p err.
 */
int nprb_checkpoint_write(struct nprb_checkpoint *ck, const struct nprb_results *rows,
                          const struct nprb_host_row *host, nprb_attrs_fn attrs, void *arg,
                          bool complete, char *err, size_t errlen);

/** Removes this rank's checkpoint file, and the directory once it is empty. */
void nprb_checkpoint_remove(struct nprb_checkpoint *ck);

#endif
