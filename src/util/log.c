/* SPDX-License-Identifier: BSD-3-Clause */
/* Leveled messages and timestamped progress lines on stderr (log.h). */
#include "util/log.h"

#include <stdarg.h>
#include <string.h>
#include <time.h>

static const char *level_name(enum nprb_log_level level)
{
    switch (level) {
    case NPRB_LOG_ERROR:
        return "error";
    case NPRB_LOG_WARN:
        return "warning";
    case NPRB_LOG_INFO:
        return "info";
    case NPRB_LOG_DEBUG:
        return "debug";
    }
    return "?";
}

void nprb_log_print(const struct nprb_log *log, enum nprb_log_level level, const char *func,
                    int errnum, const char *fmt, ...)
{
    if (level > log->level)
        return;
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);

    char where[32] = "";
    if (log->rank >= 0)
        snprintf(where, sizeof where, "[%d]", log->rank);
    if (level == NPRB_LOG_DEBUG)
        fprintf(log->stream, "numaprobe%s %s: %s: %s", where, level_name(level), func, text);
    else
        fprintf(log->stream, "numaprobe%s %s: %s", where, level_name(level), text);
    if (errnum > 0)
        fprintf(log->stream, ": %s", strerror(errnum));
    fputc('\n', log->stream);
    fflush(log->stream);
}

void nprb_log_progress(const struct nprb_log *log, const char *fmt, ...)
{
    if (log->rank > 0 || log->level < NPRB_LOG_INFO)
        return;
    /* ISO 8601 with the date and the zone: a nightly job's log spans midnight, and sites read
     * logs from hosts set to different zones. */
    char stamp[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);

    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    fprintf(log->stream, "[%s] %s\n", stamp, text);
    fflush(log->stream);
}
