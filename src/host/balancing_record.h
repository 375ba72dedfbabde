/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file balancing_record.h
 * The record of kernel.numa_balancing under /run/numaprobe (balancing.h says why): its text, read
 * and written whole, its lock, the runs in it and whether they still live, and the setting's
 * file. Everything here is async-signal-safe (no stdio, no malloc), as the signal handler's
 * restore uses it. For balancing.c alone.
 */
#ifndef NPRB_BALANCING_RECORD_H
#define NPRB_BALANCING_RECORD_H

#include "host/balancing.h"

#include <stdbool.h>

enum { NPRB_RECORD_MAX_OWNERS = 32, NPRB_RECORD_JOB_LEN = 32 };

/* One run that changed the setting: who (PID and start time, so that a PID used again by
 * another process is not taken for it), its job, and the value it wants while it measures. */
struct nprb_owner {
    long pid;
    unsigned long long start;
    int wanted;
    char job[NPRB_RECORD_JOB_LEN];
};

/* The state file: the value found before any numaprobe changed the setting, and the runs that
 * hold a change, oldest first. */
struct nprb_record {
    bool found; /* a state file was there */
    int original;
    int count;
    struct nprb_owner owners[NPRB_RECORD_MAX_OWNERS];
};

enum nprb_record_file { NPRB_RECORD_SETTING, NPRB_RECORD_DIR, NPRB_RECORD_STATE, NPRB_RECORD_LOCK };

/** The path of @p file: constants unless nprb_balancing_use_paths() redirected them. */
const char *nprb_record_path(enum nprb_record_file file);

/** Writes @p value to the setting's file. @return 0, or -1 with errno. */
int nprb_record_write_setting(int value);

/** A process's start time in ticks since boot; 0 when it is gone or a zombie. */
unsigned long long nprb_record_start_time(long pid);

/**
 * Reads the record into @p r (r->found false when there is none). @return 0, or -1 when the
 * file cannot be read or holds no record numaprobe understands: not ours to act on.
 */
int nprb_record_read(struct nprb_record *r);

/** Writes @p r whole (renamed into place), or removes the file when no run is left in it. */
int nprb_record_write(const struct nprb_record *r);

/** What the setting should be: what the latest live run wants, or the value found before. */
int nprb_record_target(const struct nprb_record *r);

/** Drops the runs that are gone, the last of them into @p dead (may be NULL). @return how many. */
int nprb_record_prune(struct nprb_record *r, struct nprb_owner *dead);

/** The lock beside the record, shared or exclusive, waited for a few seconds at most. @return a
 * descriptor to close, or -1 with errno. */
int nprb_record_lock(bool writing);

#endif
