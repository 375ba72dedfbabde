/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file populate.h
 * Pages faulted in by the calling thread before it writes them: what every buffer's first touch
 * does first. The kernel allocates each page exactly as the thread's first store would (the
 * VMA's policy, else the thread's node; a huge page where THP would give one), but in one system
 * call instead of one trap per page. Where page faults are slow (a VM's shadow paging) this is
 * most of a measurement's setup, and the call is many times faster (bench/README.md).
 */
#ifndef NPRB_POPULATE_H
#define NPRB_POPULATE_H

#include <stddef.h>

/**
 * Faults in, for writing, the pages wholly inside [@p addr, @p addr + @p bytes), in address
 * order, from the calling thread. A page shared with the bytes on either side is left to its
 * first writer, so that chunks cut at any element keep first touch's own race for it.
 * MADV_POPULATE_WRITE (Linux 5.14) where the kernel has it; elsewhere, or when the fault
 * no_populate is injected, nothing: the caller's stores then fault the pages as before.
 * @return bytes populated (0 when the kernel cannot, or on ENOMEM: the stores then fail or
 * succeed as they would have).
 */
size_t nprb_populate(void *addr, size_t bytes);

/**
 * Every page of [@p addr, @p addr + @p bytes) faulted in and written once, in address order, from
 * the calling thread: nprb_populate(), then one store per page (the first store is what a VM with
 * shadow paging charges for); where the kernel cannot populate, a memset does both. The bytes are
 * zero afterwards only where the memset ran: for buffers whose contents are written next.
 */
void nprb_fault_in(void *addr, size_t bytes);

#endif
