/* SPDX-License-Identifier: BSD-3-Clause */
#include "util/status.h"

int nprb_status_exit_code(enum nprb_status status)
{
    switch (status) {
    case NPRB_OK:
        return NPRB_EXIT_OK;
    case NPRB_ERR_USAGE:
        return NPRB_EXIT_USAGE;
    case NPRB_ERR_ENV:
        return NPRB_EXIT_ENV;
    case NPRB_ERR_VALIDATION:
        return NPRB_EXIT_VALIDATION;
    case NPRB_ERR_PARTIAL:
        return NPRB_EXIT_PARTIAL;
    case NPRB_ERR_SYSTEM:
    case NPRB_ERR_NOMEM:
        break;
    }
    return NPRB_EXIT_RUNTIME;
}

const char *nprb_status_name(enum nprb_status status)
{
    switch (status) {
    case NPRB_OK:
        return "ok";
    case NPRB_ERR_USAGE:
        return "usage";
    case NPRB_ERR_SYSTEM:
        return "system";
    case NPRB_ERR_NOMEM:
        return "nomem";
    case NPRB_ERR_ENV:
        return "environment";
    case NPRB_ERR_VALIDATION:
        return "validation";
    case NPRB_ERR_PARTIAL:
        return "partial";
    }
    return "unknown";
}

/* Precedence: a usage error hides everything (nothing ran); a wrong answer is worse than a
 * failed host, because a wrong answer means a figure in the file cannot be trusted. */
static int severity(enum nprb_status s)
{
    switch (s) {
    case NPRB_OK:
        return 0;
    case NPRB_ERR_PARTIAL:
        return 1;
    case NPRB_ERR_ENV:
        return 2;
    case NPRB_ERR_SYSTEM:
    case NPRB_ERR_NOMEM:
        return 3;
    case NPRB_ERR_VALIDATION:
        return 4;
    case NPRB_ERR_USAGE:
        return 5;
    }
    return 3;
}

enum nprb_status nprb_status_worst(enum nprb_status a, enum nprb_status b)
{
    return severity(b) > severity(a) ? b : a;
}
