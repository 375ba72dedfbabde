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
#include <stddef.h>

enum { NPRB_RECORD_MAX_OWNERS = 32, NPRB_RECORD_JOB_LEN = 32, NPRB_RECORD_LOCK_WAIT_S = 5 };

/* One run that changed the setting: who (PID and start time, so that a PID used again by
 * another process is not taken for it), its job, and the value it wants while it measures. */
struct nprb_owner {
    long pid;
    unsigned long long start;
    int wanted;
    char job[NPRB_RECORD_JOB_LEN];
};

/* What reading the state file found. Only a record that is read whole, written as numaprobe
 * writes it and kept where only root (or this user) could have written it is acted on. */
enum nprb_record_status {
    NPRB_RECORD_ABSENT,     /* no state file: nothing recorded */
    NPRB_RECORD_READ,       /* a record, read whole */
    NPRB_RECORD_UNREADABLE, /* there, but it could not be read (errno in `error`) */
    NPRB_RECORD_DAMAGED,    /* read, but not a record numaprobe writes (`why` says where) */
    NPRB_RECORD_FOREIGN,    /* the file or its directory could have been written by another user,
                               or is a link (`why` says which) */
};

/* The state file: the value found before any numaprobe changed the setting, and the runs that
 * hold a change, oldest first. */
struct nprb_record {
    bool found; /* a state file was there and was read */
    int original;
    int count;
    struct nprb_owner owners[NPRB_RECORD_MAX_OWNERS];
    int error;     /* NPRB_RECORD_UNREADABLE: the errno */
    char why[160]; /* NPRB_RECORD_DAMAGED, NPRB_RECORD_FOREIGN: one phrase */
};

/** The values kernel.numa_balancing documents: 0 off, or 1 (normal) ORed with 2 (tiering). */
enum { NPRB_BALANCING_MAX_VALUE = 3 };

/** The most bytes a record may have; a longer file is not one numaprobe wrote. */
enum { NPRB_RECORD_MAX_BYTES = 4096 };

enum nprb_record_file { NPRB_RECORD_SETTING, NPRB_RECORD_DIR, NPRB_RECORD_STATE, NPRB_RECORD_LOCK };

/** The path of @p file: constants unless nprb_balancing_use_paths() redirected them. */
const char *nprb_record_path(enum nprb_record_file file);

/** Writes @p value to the setting's file. @return 0, or -1 with errno. */
int nprb_record_write_setting(int value);

/** A process's start time in ticks since boot; 0 when it is gone or a zombie. */
unsigned long long nprb_record_start_time(long pid);

/** The current setting, or -1 with a phrase saying why it cannot be had in @p why. */
int nprb_record_read_setting(char *why, size_t len);

/**
 * Whether the state directory is one numaprobe may trust: a directory, not a link, owned by
 * root or this user and writable by no one else. @return 0, or -1 with the phrase in @p why.
 */
int nprb_record_dir_trusted(char *why, size_t len);

/**
 * Creates the state directory (mode 0755 whatever the umask) where it is missing. @return 0, or
 * -1 with errno.
 */
int nprb_record_make_dir(void);

/**
 * Reads the record into @p r (r->found false when there is none), opened without following a
 * link, checked like the directory, at most NPRB_RECORD_MAX_BYTES, every line of it parsed.
 * @return what was found; only NPRB_RECORD_READ and NPRB_RECORD_ABSENT may be acted on.
 */
enum nprb_record_status nprb_record_read(struct nprb_record *r);

/** Writes @p r whole (a new file of mode 0644, never through a link, renamed into place), or
 * removes the file when no run is left in it. @return 0, or -1 with errno. */
int nprb_record_write(const struct nprb_record *r);

/** What the setting should be: what the latest live run wants, or the value found before. */
int nprb_record_target(const struct nprb_record *r);

/** Drops the runs that are gone, the last of them into @p dead (may be NULL). @return how many. */
int nprb_record_prune(struct nprb_record *r, struct nprb_owner *dead);

/** The lock beside the record, shared or exclusive, waited for NPRB_RECORD_LOCK_WAIT_S at most,
 * never through a link. @return a descriptor to close, or -1 with errno (ETIMEDOUT: another
 * process held it all that time). */
int nprb_record_lock(bool writing);

#endif
