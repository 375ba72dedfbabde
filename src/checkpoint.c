#include "checkpoint.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int nprb_checkpoint_init(struct nprb_checkpoint *ck, const char *output, int rank, char *err,
                         size_t errlen)
{
    memset(ck, 0, sizeof *ck);
    ck->rank = rank;
    int n = snprintf(ck->dir, sizeof ck->dir, "%s.checkpoints", output);
    if (n < 0 || (size_t)n >= sizeof ck->dir) {
        snprintf(err, errlen, "checkpoint directory name too long for %s", output);
        return -1;
    }
    snprintf(ck->path, sizeof ck->path, "%s/rank-%05d.h5", ck->dir, rank);
    if (mkdir(ck->dir, 0755) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot create checkpoint directory %s: %s", ck->dir,
                 strerror(errno));
        return -1;
    }
    return 0;
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
    if (rc != 0) {
        snprintf(err, errlen, "cannot write rows to checkpoint %s", ck->path);
        nprb_h5_discard(h5);
        return -1;
    }
    if (nprb_h5_commit(h5, err, errlen) != 0)
        return -1;
    ck->written = true;
    return 0;
}

void nprb_checkpoint_remove(struct nprb_checkpoint *ck)
{
    if (ck->written)
        unlink(ck->path);
    rmdir(ck->dir); /* fails, harmlessly, while other ranks' files are still there */
}
