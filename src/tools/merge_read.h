/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file merge_read.h
 * Inside numaprobe merge (merge.h): the checkpoints of DIR and the first pass over them, which
 * reads root attributes only, each checkpoint first in a child process that may crash, so that
 * damaged files are skipped and checkpoints of different jobs are refused before anything is
 * written. merge.c moves the rows and writes the merged file.
 */
#ifndef NPRB_MERGE_READ_H
#define NPRB_MERGE_READ_H

#include "results/h5in.h"
#include "util/status.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct nprb_merge_checkpoint {
    long rank; /* from the file name */
    char path[PATH_MAX];
    char refused[96]; /* why it is not read at all (not a regular file), or empty */
    bool usable;      /* readable and of this job */
    bool finished;    /* checkpoint_complete = 1 */
};

struct nprb_merge {
    const char *dir, *output;
    long limit_s; /* per checkpoint read; -1: by its size */
    FILE *err;
    struct nprb_merge_checkpoint *items;
    size_t count;
    struct nprb_attrs job; /* root attributes of the first readable checkpoint */
    size_t first;          /* its index */
    char end_utc[64];      /* latest end_utc among the checkpoints */
    int64_t hosts_ok, hosts_failed;
};

/** DIR's checkpoints (rank-NNNNN.h5), in rank order, in m->items; a usage error when there are
 * none or two of one rank. */
enum nprb_status nprb_merge_list_checkpoints(struct nprb_merge *m);

/** The first pass: marks each checkpoint usable (readable and of the job) and finished, and
 * adopts the first usable one's attributes as the job's. Different jobs in one directory are a
 * usage error; no usable checkpoint at all is a system error. */
enum nprb_status nprb_merge_read_attributes(struct nprb_merge *m);

#endif
