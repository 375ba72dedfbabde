/* SPDX-License-Identifier: BSD-3-Clause */
#include "util/fault.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool nprb_fault(const char *name)
{
    const char *list = getenv("NUMAPROBE_FAULT");
    size_t len = strlen(name);
    for (const char *p = list; p != NULL && *p != '\0';) {
        const char *end = strchr(p, ',');
        size_t n = end != NULL ? (size_t)(end - p) : strlen(p);
        if (n == len && strncmp(p, name, len) == 0)
            return true;
        p = end != NULL ? end + 1 : NULL;
    }
    return false;
}

/* Every fault the code asks for (fault.h says what each does). A name not here is a typo, and a
 * test run with it would pass or fail for the wrong reason: refused. */
static const char *const known_faults[] = {
    "corrupt_bandwidth", "corrupt_chain", "hang_last_rank", "hang_rank0",
    "hang_rank1",        "hidden_frames", "kill_last_rank", "kill_writer",
    "no_populate",       "small_nodes",   "term_writer",    "term_in_balancing",
};

int nprb_fault_check(char *err, size_t errlen)
{
    const char *list = getenv("NUMAPROBE_FAULT");
    for (const char *p = list; p != NULL && *p != '\0';) {
        const char *end = strchr(p, ',');
        size_t n = end != NULL ? (size_t)(end - p) : strlen(p);
        bool known = false;
        for (size_t i = 0; i < sizeof known_faults / sizeof known_faults[0]; i++)
            known |= strlen(known_faults[i]) == n && strncmp(p, known_faults[i], n) == 0;
        if (!known) {
            size_t used = (size_t)snprintf(
                err, errlen,
                "NUMAPROBE_FAULT: unknown fault '%.*s' (known:", (int)(n < 64 ? n : 64), p);
            for (size_t i = 0; i < sizeof known_faults / sizeof known_faults[0] && used < errlen;
                 i++)
                used += (size_t)snprintf(err + used, errlen - used, " %s", known_faults[i]);
            if (used < errlen)
                snprintf(err + used, errlen - used, ")");
            return -1;
        }
        p = end != NULL ? end + 1 : NULL;
    }
    return 0;
}
