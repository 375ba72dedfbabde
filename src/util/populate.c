/* SPDX-License-Identifier: BSD-3-Clause */
#include "util/populate.h"

#include "util/fault.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; older headers lack the name */
#endif

size_t nprb_populate(void *addr, size_t bytes)
{
    static long page;
    if (page == 0)
        page = sysconf(_SC_PAGESIZE);
    size_t head = (size_t)((uintptr_t)page - (uintptr_t)addr % (uintptr_t)page) % (size_t)page;
    if (bytes < head)
        return 0;
    size_t whole = (bytes - head) / (size_t)page * (size_t)page;
    if (whole == 0 || nprb_fault(NPRB_FAULT_NO_POPULATE))
        return 0;
    /* EINVAL before 5.14; ENOMEM or EFAULT when the memory cannot be had: then the caller's own
     * stores meet the same condition they always did. */
    if (madvise((char *)addr + head, whole, MADV_POPULATE_WRITE) != 0)
        return 0;
    return whole;
}

void nprb_fault_in(void *addr, size_t bytes)
{
    if (bytes == 0)
        return;
    if (nprb_populate(addr, bytes) == 0) {
        memset(addr, 0, bytes);
        return;
    }
    volatile char *p = addr;
    for (size_t off = 0; off < bytes; off += 4096)
        p[off] = 0;
    p[bytes - 1] = 0; /* the last page, where the stride stepped over it */
}
