/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file log.h
 * Leveled messages to stderr. The logger is a value passed explicitly (no globals): it knows the
 * MPI rank so that "once per job" messages come from rank 0 only.
 */
#ifndef NPRB_LOG_H
#define NPRB_LOG_H

#include <stdbool.h>
#include <stdio.h>

enum nprb_log_level { NPRB_LOG_ERROR, NPRB_LOG_WARN, NPRB_LOG_INFO, NPRB_LOG_DEBUG };

struct nprb_log {
    FILE *stream;              /**< where messages go; stderr in the program */
    enum nprb_log_level level; /**< messages above this level are dropped */
    int rank;                  /**< MPI world rank, or -1 before MPI is up */
};

/**
 * Prints one message: "numaprobe[rank] LEVEL: text" (plus ": strerror(errnum)" when errnum > 0).
 * @p func is added at debug level, where it helps and does not clutter user-facing errors.
 */
void nprb_log_print(const struct nprb_log *log, enum nprb_log_level level, const char *func,
                    int errnum, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/**
 * A timestamped progress line ("[2026-01-31T23:59:59Z] text", ISO 8601 in UTC), rank 0 only,
 * flushed: batch logs are files. Silent below NPRB_LOG_INFO (--quiet).
 */
void nprb_log_progress(const struct nprb_log *log, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#define NPRB_ERROR(log, ...) nprb_log_print((log), NPRB_LOG_ERROR, __func__, 0, __VA_ARGS__)
#define NPRB_ERRNO(log, errnum, ...)                                                               \
    nprb_log_print((log), NPRB_LOG_ERROR, __func__, (errnum), __VA_ARGS__)
#define NPRB_WARN(log, ...) nprb_log_print((log), NPRB_LOG_WARN, __func__, 0, __VA_ARGS__)
#define NPRB_INFO(log, ...) nprb_log_print((log), NPRB_LOG_INFO, __func__, 0, __VA_ARGS__)
#define NPRB_DEBUG(log, ...) nprb_log_print((log), NPRB_LOG_DEBUG, __func__, 0, __VA_ARGS__)

#endif
