/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file output.h
 * The output path of a run or a merge, before and around the write: what may be a results file
 * (checked before anything is measured), the lock that keeps two jobs off one output, the names
 * of the files beside it (temporary, lock, checkpoints) kept within NAME_MAX, and an earlier
 * job's checkpoints moved aside rather than overwritten.
 */
#ifndef NPRB_OUTPUT_H
#define NPRB_OUTPUT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/**
 * Whether @p path may become a results file: not empty, not "-", a file name within NAME_MAX in
 * an existing directory, and nothing there yet but a regular file, replaced only with
 * @p force (a directory, device, FIFO, socket or symbolic link is refused: the final rename
 * would replace the node itself). @return 0, or -1 with "cannot write results to PATH: why" in
 * @p err. Writability is proven later, by the lock and the temporary file.
 */
int nprb_output_check(const char *path, bool force, char *err, size_t errlen);

/**
 * Whether @p path names one of the files a job writing @p output owns: the output itself (the
 * same inode, or the same name once both directories are resolved, whether it exists yet or
 * not), its lock, its checkpoint directory or anything in it, or a temporary name of it
 * (OUT.tmp-*). @return true with "it is ..." in @p why; false for none of them, and for a path
 * whose directory cannot be resolved (nprb_output_check() refuses it).
 */
bool nprb_output_owns(const char *output, const char *path, char *why, size_t whylen);

/**
 * The lock of one output: OUT.lock, holding "HOST PID", created with O_CREAT|O_EXCL. A process
 * holds at most two at once (a job's results file and its summary).
 */
struct nprb_output_lock {
    char path[PATH_MAX];
    bool held;
    int slot; /**< which of the process's held locks the signal handler removes */
};

/**
 * Takes the lock of @p output for the whole job. A lock naming a PID of this host that no longer
 * runs (a job killed by SIGKILL) is taken over, and @p warning says so; any other lock is
 * refused. The lock is also removed by SIGINT, SIGTERM and SIGHUP (signals.h).
 * @return 0, or -1 with "cannot write results to PATH: ..." naming the holder in @p err and
 * errno EBUSY when another job holds the lock (another errno for any other reason).
 */
int nprb_output_lock(struct nprb_output_lock *lock, const char *output, char *warning,
                     size_t warnlen, char *err, size_t errlen);

/** Removes the lock if held. Safe to call twice. */
void nprb_output_unlock(struct nprb_output_lock *lock);

/**
 * Rank 0, holding the lock: whatever sits at the checkpoint directory @p dir of @p output (an
 * earlier job's checkpoints, a file) is renamed aside to "DIR.TIME" (its modification time),
 * never removed. An empty directory is kept. @p aside gets the new name ("" when nothing moved).
 * @return 0, or -1 with the reason in @p err.
 */
int nprb_output_checkpoints_aside(const char *dir, char *aside, size_t asidelen, char *err,
                                  size_t errlen);

struct nprb_h5;

/**
 * Everything before measuring, in order: nprb_output_check(), the lock, with @p checkpoints an
 * earlier job's checkpoints moved aside (@p aside names where, or is ""), then the temporary
 * file (nprb_h5_create()). On failure nothing is left: no lock, no temporary.
 * @p warning gets a lock taken over from a dead job, or "". @return 0, or -1 with @p err.
 */
int nprb_output_begin(const char *path, bool force, bool checkpoints, struct nprb_output_lock *lock,
                      struct nprb_h5 **h5, char *aside, size_t asidelen, char *warning,
                      size_t warnlen, char *err, size_t errlen);

#endif
