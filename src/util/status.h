/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file status.h
 * One result code for the whole library. Library functions return one of these and never exit;
 * only main() maps them to process exit codes (see nprb_status_exit_code()).
 */
#ifndef NPRB_STATUS_H
#define NPRB_STATUS_H

enum nprb_status {
    NPRB_OK = 0,
    NPRB_ERR_USAGE,      /**< bad argument, bad config, unwritable output path */
    NPRB_ERR_SYSTEM,     /**< a system call or library failed at run time */
    NPRB_ERR_NOMEM,      /**< memory could not be had */
    NPRB_ERR_ENV,        /**< environment check failed (an error only under --strict) */
    NPRB_ERR_VALIDATION, /**< a kernel produced a wrong answer */
    NPRB_ERR_PARTIAL,    /**< some hosts failed; results of the others were written */
};

/** Process exit codes, documented in --help and README. */
enum nprb_exit_code {
    NPRB_EXIT_OK = 0,
    NPRB_EXIT_RUNTIME = 1,
    NPRB_EXIT_USAGE = 2,
    NPRB_EXIT_ENV = 3,
    NPRB_EXIT_VALIDATION = 4,
    NPRB_EXIT_PARTIAL = 5,
};

/** Maps a status to the process exit code main() returns. */
int nprb_status_exit_code(enum nprb_status status);

/** Short stable name of a status ("ok", "usage", ...), for logs and results rows. */
const char *nprb_status_name(enum nprb_status status);

/** The worse of two statuses, by the precedence used for the job's exit code. */
enum nprb_status nprb_status_worst(enum nprb_status a, enum nprb_status b);

#endif
