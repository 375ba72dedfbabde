/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file check.h
 * `numaprobe check FILE`: validates a results file (final, merged, or a rank's checkpoint)
 * against the schema this binary writes (docs/SCHEMA.md, "numaprobe check"): readable HDF5,
 * root attributes, every table with every column of the right type, and the file's internal
 * consistency (ranks, hosts, statuses, fractions, placement rows). Serial; no MPI.
 */
#ifndef NPRB_CHECK_H
#define NPRB_CHECK_H

#include "util/status.h"

#include <stdio.h>

/** How a check reports: lines of text, or one JSON object a file (`check --json`). */
enum nprb_check_format { NPRB_CHECK_TEXT, NPRB_CHECK_JSON };

/**
 * Checks the file at @p path, printing one line per problem or warning to @p out
 * ("check: PATH: /latency row 12: rank 9 not in /hosts") and a summary line. The file is read in
 * a child process (so @p out must be a stream on a file descriptor, not a memory stream): a file
 * so damaged that reading it crashes, or does not end within @p limit_s seconds (-1: a minute and
 * a second per MiB; 0: no limit), is reported as invalid.
 * @return NPRB_OK (valid), NPRB_ERR_VALIDATION (invalid), NPRB_ERR_USAGE when @p path cannot be
 * read as a file at all (missing, no permission, or not a regular file: a directory, a FIFO, a
 * device; the reason went to @p err; a FIFO is refused before it is opened, which would block), or
 * NPRB_ERR_SYSTEM when the check itself failed. With NPRB_CHECK_JSON, @p out gets instead one
 * JSON object on one line: path, verdict, problems and warnings (the text of each, as the lines
 * would say it), the counts, and what the file is.
 */
enum nprb_status nprb_check_file(const char *path, enum nprb_check_format format, FILE *out,
                                 FILE *err, long limit_s);

/**
 * Checks the file at @p path in this process, unprotected: what nprb_check_file() runs in its
 * child. Prints as nprb_check_file() does.
 * @return NPRB_EXIT_OK (valid) or NPRB_EXIT_VALIDATION (invalid).
 */
int nprb_check_readable_file(const char *path, enum nprb_check_format format, FILE *out);

/**
 * The subcommand: argv = {"check", [--timeout SECONDS] [--json], FILE...}. Every FILE is
 * checked; with several, a last line counts them. With --json, stdout is one JSON document:
 * every file's object, the counts and the exit status. Usage errors (no FILE, an option) go to @p
 * err.
 * @return by precedence: NPRB_ERR_VALIDATION when any FILE is invalid, else NPRB_ERR_SYSTEM when
 * the check of one failed, else NPRB_ERR_USAGE when one cannot be read as a file, else NPRB_OK.
 */
enum nprb_status nprb_check_command(int argc, char **argv, FILE *out, FILE *err);

#endif
