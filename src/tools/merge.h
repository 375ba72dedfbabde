/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file merge.h
 * `numaprobe merge DIR -o FILE`: rebuilds one results file from the per-rank checkpoints of a
 * job (DIR/rank-RRRRR.h5, see docs/SCHEMA.md "Checkpoints and merge"), typically of a job that
 * died. Serial; no MPI. Memory holds one rank's rows at a time.
 */
#ifndef NPRB_MERGE_H
#define NPRB_MERGE_H

#include "util/status.h"

#include <stdbool.h>
#include <stdio.h>

/**
 * Merges every checkpoint in @p dir, in rank order, into @p output (temporary file, fsync,
 * rename). The output path is checked and locked before any checkpoint is read (output.h); an
 * existing file is replaced only with @p force. Each checkpoint is first
 * read in a child process, given @p limit_s seconds (-1: a minute and a second per MiB; 0: no
 * limit): one that crashes or hangs HDF5 is skipped. Progress and problems go
 * to @p err, the one-line outcome to @p out.
 * @return NPRB_OK (every rank present and finished), NPRB_ERR_PARTIAL (written, but ranks are
 * missing, unreadable or unfinished), NPRB_ERR_USAGE (unwritable output, no checkpoints, or
 * checkpoints of different jobs: nothing written), NPRB_ERR_SYSTEM (no checkpoint readable, or
 * the output could not be written).
 */
enum nprb_status nprb_merge(const char *dir, const char *output, bool force, long limit_s,
                            FILE *out, FILE *err);

/** The subcommand: argv = {"merge", DIR, "-o", FILE, [--timeout SECONDS]} in any order. */
enum nprb_status nprb_merge_command(int argc, char **argv, FILE *out, FILE *err);

#endif
