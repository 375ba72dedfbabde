/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file fault.h
 * Fault injection for the test suite: NUMAPROBE_FAULT names faults to inject, comma-separated.
 * Every check that guards a result (kernel validation, chain integrity) has a fault that makes it
 * fire, so the tests can show that a wrong answer really fails the run (exit 4).
 *   corrupt_bandwidth  one element of each bandwidth thread's data is changed after timing
 *   corrupt_chain      one link of every latency chain points at the wrong slot
 *   hang_last_rank     the job's last rank (of 2 or more) stops for ever before measuring: the
 *                      gather's watchdog must give it up
 *   hang_rank0         rank 0 stops for ever at the start of its second experiment: its own
 *                      watchdog thread must write what the job has
 *   hang_rank1         rank 1 (of 2 or more) stops for ever before measuring: with rank 0 on the
 *                      same host, rank 0 must stop waiting for its turn
 *   hidden_frames      the page census is told nothing by move_pages, pagemap or a touch, as
 *                      for an unprivileged run whose pages NUMA balancing unmapped: every node
 *                      must then come from numa_maps
 *   kill_last_rank     the job's last rank kills itself (SIGKILL) after its first checkpoint
 *   kill_writer        rank 0 kills itself after writing every row, before the rename
 *   no_populate        pages are not faulted in ahead of their first store (nprb_populate()
 *                      does nothing), as on kernels before 5.14: placement must not change
 *   noisy_node0        two bandwidth repetitions in three on memory bound to node 0 are held
 *                      to twice their time: a figure too noisy to judge (what a health check
 *                      must not fail, nor pass)
 *   slow_node0         bandwidth on memory bound to node 0 runs at 60%: each timed repetition
 *                      is held until it has taken 1/0.6 of its time, as on a node that lost
 *                      DIMMs or a channel (what a health check must fail)
 *   small_nodes        every node says it has 64 MiB free, as a small guest's node does with a
 *                      sweep's buffers on it: the room checks must count what numaprobe keeps
 *   term_writer        the same with SIGTERM (a scheduler's time limit): the temporary file goes
 *   term_in_balancing  SIGTERM while the balancing experiment has changed kernel.numa_balancing:
 *                      the handler must put the setting back
 *   textfile_full      writing the host's OpenMetrics file (--textfile-dir) fails as on a full
 *                      disk, after its temporary was made: the results file must be kept, the
 *                      temporary removed and the failure said
 *   writer_on_disk     a results file leaves memory for its temporary file on disk at its first
 *                      rows, not at 16 MiB (h5out.c): the disk path of a fleet's file, taken by
 *                      a small one
 */
#ifndef NPRB_FAULT_H
#define NPRB_FAULT_H

#include <stdbool.h>
#include <stddef.h>

/** The faults above, in their order. */
enum nprb_fault_id {
    NPRB_FAULT_CORRUPT_BANDWIDTH,
    NPRB_FAULT_CORRUPT_CHAIN,
    NPRB_FAULT_HANG_LAST_RANK,
    NPRB_FAULT_HANG_RANK0,
    NPRB_FAULT_HANG_RANK1,
    NPRB_FAULT_HIDDEN_FRAMES,
    NPRB_FAULT_KILL_LAST_RANK,
    NPRB_FAULT_KILL_WRITER,
    NPRB_FAULT_NO_POPULATE,
    NPRB_FAULT_NOISY_NODE0,
    NPRB_FAULT_SLOW_NODE0,
    NPRB_FAULT_SMALL_NODES,
    NPRB_FAULT_TERM_WRITER,
    NPRB_FAULT_TERM_IN_BALANCING,
    NPRB_FAULT_TEXTFILE_FULL,
    NPRB_FAULT_WRITER_ON_DISK,
    NPRB_N_FAULTS
};

/** Whether fault @p id is named in NUMAPROBE_FAULT (read and parsed once, on the first call). */
bool nprb_fault(enum nprb_fault_id id);

/** Reads NUMAPROBE_FAULT again: for the unit tests, which set it within one process. */
void nprb_fault_reload(void);

/**
 * Whether every name in NUMAPROBE_FAULT is a fault above (a misspelt one would quietly inject
 * nothing). @return 0, or -1 with the unknown name and the known ones in @p err.
 */
int nprb_fault_check(char *err, size_t errlen);

#endif
