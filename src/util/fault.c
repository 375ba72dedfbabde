/* SPDX-License-Identifier: BSD-3-Clause */
#include "util/fault.h"

#include "util/list.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every fault the code asks for (fault.h says what each does). A name not here is a typo, and a
 * test run with it would pass or fail for the wrong reason: refused. */
static const char *const fault_names[NPRB_N_FAULTS] = {
    [NPRB_FAULT_CORRUPT_BANDWIDTH] = "corrupt_bandwidth",
    [NPRB_FAULT_CORRUPT_CHAIN] = "corrupt_chain",
    [NPRB_FAULT_HANG_LAST_RANK] = "hang_last_rank",
    [NPRB_FAULT_HANG_RANK0] = "hang_rank0",
    [NPRB_FAULT_HANG_RANK1] = "hang_rank1",
    [NPRB_FAULT_HIDDEN_FRAMES] = "hidden_frames",
    [NPRB_FAULT_KILL_LAST_RANK] = "kill_last_rank",
    [NPRB_FAULT_KILL_WRITER] = "kill_writer",
    [NPRB_FAULT_NO_POPULATE] = "no_populate",
    [NPRB_FAULT_NOISY_NODE0] = "noisy_node0",
    [NPRB_FAULT_SLOW_NODE0] = "slow_node0",
    [NPRB_FAULT_SMALL_NODES] = "small_nodes",
    [NPRB_FAULT_TERM_WRITER] = "term_writer",
    [NPRB_FAULT_TERM_IN_BALANCING] = "term_in_balancing",
    [NPRB_FAULT_TEXTFILE_FULL] = "textfile_full",
    [NPRB_FAULT_WRITER_ON_DISK] = "writer_on_disk",
};

/* NUMAPROBE_FAULT as a mask of fault ids, or the first name that is none (into @p unknown). */
static unsigned parse(char *unknown, size_t len)
{
    unsigned mask = 0;
    const char *list = getenv("NUMAPROBE_FAULT"), *p;
    size_t n;
    for (const char *cursor = list; list != NULL && nprb_list_next(&cursor, &p, &n);) {
        if (n == 0)
            continue;
        int id = -1;
        for (int i = 0; i < NPRB_N_FAULTS && id < 0; i++)
            if (strlen(fault_names[i]) == n && strncmp(p, fault_names[i], n) == 0)
                id = i;
        if (id >= 0)
            mask |= 1U << id;
        else if (unknown != NULL && unknown[0] == '\0')
            snprintf(unknown, len, "%.*s", (int)(n < 64 ? n : 64), p);
    }
    return mask;
}

/* Threads may ask at once; each would parse the same environment to the same mask. */
static atomic_uint fault_mask;
static atomic_bool fault_parsed;

bool nprb_fault(enum nprb_fault_id id)
{
    if (!atomic_load(&fault_parsed))
        nprb_fault_reload();
    return (atomic_load(&fault_mask) >> id) & 1U;
}

void nprb_fault_reload(void)
{
    atomic_store(&fault_mask, parse(NULL, 0));
    atomic_store(&fault_parsed, true);
}

int nprb_fault_check(char *err, size_t errlen)
{
    char unknown[72] = "";
    parse(unknown, sizeof unknown);
    if (unknown[0] == '\0')
        return 0;
    size_t used =
        (size_t)snprintf(err, errlen, "NUMAPROBE_FAULT: unknown fault '%s' (known:", unknown);
    for (int i = 0; i < NPRB_N_FAULTS && used < errlen; i++)
        used += (size_t)snprintf(err + used, errlen - used, " %s", fault_names[i]);
    if (used < errlen)
        snprintf(err + used, errlen - used, ")");
    return -1;
}
