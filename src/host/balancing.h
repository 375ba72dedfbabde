/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file balancing.h
 * Changing kernel.numa_balancing for an experiment and always putting it back.
 *
 * Before the first change a run records the setting it found in a state file under /run (a
 * tmpfs: a reboot, which resets the setting, clears it too), with its PID, start time, job id
 * and the value it wants. It puts the setting back on return, on exit and on SIGINT/SIGTERM/
 * SIGHUP. SIGKILL leaves the record behind: the next numaprobe start, or `numaprobe restore`,
 * finds its owner gone and puts the recorded value back (nprb_balancing_recover()).
 *
 * Runs of two jobs on one host share the record: the setting holds what the latest live run
 * wants, and goes back to the value found before any of them only when the last one leaves. So
 * neither restores the other's value early, and a killed one is cleaned up by whoever is next.
 */
#ifndef NPRB_BALANCING_H
#define NPRB_BALANCING_H

#include <stddef.h>

/** Where the record lives; `numaprobe restore` and the docs name it. */
#define NPRB_BALANCING_STATE_DIR "/run/numaprobe"

/** The current setting (0, 1, 2...), or -1 when /proc/sys/kernel/numa_balancing is unreadable. */
int nprb_balancing_get(void);

/** The current setting as words for a message: "1", or "unreadable: " and why. */
void nprb_balancing_describe(char *buf, size_t len);

/**
 * Sets kernel.numa_balancing to @p value after recording, under the state file's lock, the
 * value found before any numaprobe changed it; arms the restore on exit and on signals. Nothing
 * is changed when the record cannot be written. @return 0, or -1 with errno (EACCES without
 * root) and, in @p err, what failed.
 */
int nprb_balancing_set(int value, char *err, size_t errlen);

/**
 * Leaves the record: puts back the value found before the first nprb_balancing_set() when no
 * other live run holds it, else the value the latest of those wants. Idempotent and
 * async-signal-safe (open, read, write, rename, fcntl only), so the signal handler calls it.
 */
void nprb_balancing_restore(void);

enum nprb_recovery {
    NPRB_RECOVERY_NONE,     /**< no record: the setting is as numaprobe found it */
    NPRB_RECOVERY_RESTORED, /**< a dead run's change was put back */
    NPRB_RECOVERY_CLEARED,  /**< a dead run's record removed; the setting was already back */
    NPRB_RECOVERY_HELD,     /**< a live run holds a change; left to it */
    NPRB_RECOVERY_FAILED,   /**< a dead run's change could not be put back (not root, say) */
    NPRB_N_RECOVERY
};

/** The outcome's name in /hosts `restore_outcome`: none, restored, cleared, held, failed. */
const char *nprb_recovery_name(enum nprb_recovery outcome);

struct nprb_balancing_recovery {
    enum nprb_recovery outcome;
    int left;       /**< the setting found, -1 unknown */
    int restored;   /**< the value put back (or that should be), -1 none */
    char text[400]; /**< one sentence for stderr and /hosts `restored`; empty for NONE */
};

/**
 * Every start's check: a record whose owners are all gone is put back and removed, under the
 * lock, so that two starts never both act on it. Needs no root to look; without root it says
 * what to run. Never fails the caller: what happened is in @p out.
 */
void nprb_balancing_recover(struct nprb_balancing_recovery *out);

/**
 * For tests: the setting's file and the state directory in place of /proc/sys/kernel/
 * numa_balancing and NPRB_BALANCING_STATE_DIR (NULL keeps the default).
 */
void nprb_balancing_use_paths(const char *setting, const char *state_dir);

#endif
