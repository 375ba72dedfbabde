/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file c2c.h
 * Cache lines handed between two cores: the two halves of a ping-pong on two flag lines (the line
 * each core reads was just written by the other: Modified in the other's cache, a HITM), and the
 * line flush that leaves a chain clean for the other core to read (a HIT). The caller pins the
 * threads and times them (measure/c2c_run.c).
 */
#ifndef NPRB_C2C_H
#define NPRB_C2C_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/** Bytes between the two flags: two lines apart, so that no adjacent-line prefetch pairs them. */
#define NPRB_C2C_FLAG_SPAN 128

/** The two flag lines of a ping-pong, each written by one side only. */
struct nprb_c2c_flags {
    _Alignas(NPRB_C2C_FLAG_SPAN) _Atomic uint64_t ping; /**< written by the initiator */
    _Alignas(NPRB_C2C_FLAG_SPAN) _Atomic uint64_t pong; /**< written by the responder */
};

/**
 * The initiator's half: for n from @p first to first + @p rounds - 1, writes n to ping and waits
 * until pong reads n. Each round trip moves each flag line once between the cores, so one way
 * is half the round trip's time (c2clat's figure).
 */
void nprb_c2c_ping(struct nprb_c2c_flags *flags, uint64_t first, uint64_t rounds);

/** The responder's half: waits for each n of nprb_c2c_ping() in ping, then writes it to pong. */
void nprb_c2c_pong(struct nprb_c2c_flags *flags, uint64_t first, uint64_t rounds);

/** Whether this build can flush a line from every cache from user space (x86-64, AArch64). */
bool nprb_line_flush_available(void);

/**
 * Writes each of the @p lines 64-byte lines at @p base back to memory and drops it from every
 * cache, then waits until that is done: the next read of any of them finds it in no core's
 * cache. A no-op where nprb_line_flush_available() is false.
 */
void nprb_lines_flush(void *base, uint64_t lines);

#endif
