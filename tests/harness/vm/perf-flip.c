/* SPDX-License-Identifier: BSD-3-Clause */
/* perf-flip [THREADS [SECONDS]]: opens and closes software perf events in a loop, alternating two
 * kinds, so that every open and close turns one of the kernel's static branches on or off. Each
 * turn patches kernel text (int3, then an IPI that every CPU must answer). Under QEMU's software
 * emulation a guest locks up in that patch within a few hundred turns: another vCPU keeps running
 * its stale translation of the int3 and never answers. It involves nothing of numaprobe, and shows
 * that the guest, not the program, hangs. Prints the turns of each second; see README.md. */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 64

static double run_seconds;
static volatile long turns[MAX_THREADS];

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *flip(void *arg)
{
    long id = (long)arg;
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_SOFTWARE;
    attr.disabled = 1;
    double end = now() + run_seconds;
    while (now() < end) {
        attr.config = (turns[id] & 1) ? PERF_COUNT_SW_CPU_MIGRATIONS : PERF_COUNT_SW_PAGE_FAULTS;
        int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
        if (fd < 0) {
            perror("perf-flip: perf_event_open");
            exit(1);
        }
        close(fd);
        turns[id]++;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 1;
    run_seconds = argc > 2 ? atof(argv[2]) : 60;
    if (threads < 1 || threads > MAX_THREADS || run_seconds <= 0) {
        fprintf(stderr, "usage: perf-flip [THREADS (1-%d) [SECONDS]]\n", MAX_THREADS);
        return 2;
    }
    pthread_t tid[MAX_THREADS];
    for (long i = 0; i < threads; i++)
        pthread_create(&tid[i], NULL, flip, (void *)i);
    long last = 0;
    for (int s = 1; s <= (int)run_seconds; s++) {
        sleep(1);
        long sum = 0;
        for (int i = 0; i < threads; i++)
            sum += turns[i];
        printf("perf-flip: second %d: %ld turns\n", s, sum - last);
        fflush(stdout);
        last = sum;
    }
    long total = 0;
    for (int i = 0; i < threads; i++) {
        pthread_join(tid[i], NULL);
        total += turns[i];
    }
    printf("perf-flip: %ld turns in %.0f s, no lockup\n", total, run_seconds);
    return 0;
}
