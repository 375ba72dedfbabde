/* SPDX-License-Identifier: BSD-3-Clause */
/* Each rank's checkpoint: written after every phase, moved aside when an earlier job's is in
 * the way, removed by the job that wrote it. */
#include "results/checkpoint.h"

#include "util/sibling.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* On a file system that is not shared, rank 0 cannot see this host's directory: an earlier
 * job's checkpoint of this rank is moved into "DIR.TIME/" here (link, then unlink: never over
 * another file). @return 0, or -1 with the reason in @p err. */
static int move_earlier(struct nprb_checkpoint *ck, char *err, size_t errlen)
{
    struct stat st;
    if (lstat(ck->path, &st) != 0)
        return 0;
    char suffix[32], target[PATH_MAX + 32];
    struct tm tm;
    gmtime_r(&st.st_mtime, &tm);
    strftime(suffix, sizeof suffix, ".%Y%m%dT%H%M%SZ", &tm);
    if (nprb_output_sibling(ck->dir, suffix, ck->aside, sizeof ck->aside) != 0 ||
        (mkdir(ck->aside, 0755) != 0 && errno != EEXIST) ||
        snprintf(target, sizeof target, "%s/rank-%05d.h5", ck->aside, ck->rank) < 0 ||
        link(ck->path, target) != 0 || unlink(ck->path) != 0) {
        snprintf(err, errlen, "cannot move an earlier job's checkpoint %s aside to %s: %s",
                 ck->path, ck->aside, strerror(errno));
        ck->aside[0] = '\0';
        return -1;
    }
    return 0;
}

int nprb_checkpoint_init(struct nprb_checkpoint *ck, const char *output, const char *job, int rank,
                         char *err, size_t errlen)
{
    memset(ck, 0, sizeof *ck);
    ck->rank = rank;
    snprintf(ck->job, sizeof ck->job, "%s", job);
    if (nprb_output_sibling(output, ".checkpoints", ck->dir, sizeof ck->dir) != 0) {
        snprintf(err, errlen, "checkpoint directory name too long for %s", output);
        return -1;
    }
    snprintf(ck->path, sizeof ck->path, "%s/rank-%05d.h5", ck->dir, rank);
    if (mkdir(ck->dir, 0755) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot create checkpoint directory %s: %s", ck->dir,
                 strerror(errno));
        return -1;
    }
    return move_earlier(ck, err, errlen);
}

int nprb_checkpoint_write(struct nprb_checkpoint *ck, const struct nprb_results *rows,
                          const struct nprb_host_row *host, nprb_attrs_fn attrs, void *arg,
                          bool complete, char *err, size_t errlen)
{
    struct nprb_h5 *h5 = NULL;
    if (nprb_h5_create(&h5, ck->path, err, errlen) != 0)
        return -1;
    int rc = nprb_h5_append(h5, NPRB_TABLE_HOSTS, host, 1);
    for (int t = 0; t < NPRB_N_TABLES; t++)
        if (t != NPRB_TABLE_HOSTS && nprb_h5_append(h5, (enum nprb_table_id)t, rows->tables[t].data,
                                                    rows->tables[t].count) != 0)
            rc = -1;
    attrs(h5, arg);
    nprb_h5_attr_int(h5, "checkpoint_rank", ck->rank);
    nprb_h5_attr_int(h5, "checkpoint_complete", complete);
    nprb_h5_attr_text(h5, "checkpoint_job", ck->job);
    if (rc != 0) {
        snprintf(err, errlen, "cannot write rows to checkpoint %s", ck->path);
        nprb_h5_discard(h5);
        return -1;
    }
    if (nprb_h5_commit(h5, err, errlen) != 0)
        return -1;
    struct stat st = {0};
    ck->written = stat(ck->path, &st) == 0;
    ck->dev = st.st_dev;
    ck->ino = st.st_ino;
    return 0;
}

void nprb_checkpoint_remove(struct nprb_checkpoint *ck)
{
    struct stat st;
    if (ck->written && stat(ck->path, &st) == 0 && st.st_dev == ck->dev && st.st_ino == ck->ino)
        unlink(ck->path);
    rmdir(ck->dir); /* fails, harmlessly, while other ranks' files are still there */
}
