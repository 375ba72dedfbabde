/* SPDX-License-Identifier: BSD-3-Clause */
/* perf-hold: opens one software perf event of each kind numaprobe counts, on itself, and keeps
 * them open until killed. The kernel turns a static branch on at the first open of each kind
 * (and of any event bound to a task) and off after the last close, patching its own text each
 * time; under QEMU's software emulation that patch can lock a guest up (see perf-flip.c and
 * README.md). While these stay open, numaprobe's opens and closes are never the first or the
 * last, so the guest's text is not patched for them. guest-init starts it before the command. */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
    static const unsigned long long kinds[] = {
        PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_CPU_MIGRATIONS,
        PERF_COUNT_SW_CONTEXT_SWITCHES, PERF_COUNT_SW_CPU_CLOCK};
    int held = 0;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        struct perf_event_attr attr;
        memset(&attr, 0, sizeof attr);
        attr.size = sizeof attr;
        attr.type = PERF_TYPE_SOFTWARE;
        attr.config = kinds[i];
        attr.disabled = 1;
        if (syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0) >= 0)
            held++;
        else
            perror("perf-hold: perf_event_open");
    }
    printf("perf-hold: %d perf event(s) held open\n", held);
    fflush(stdout);
    for (;;)
        pause();
}
