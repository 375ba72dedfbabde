/* SPDX-License-Identifier: BSD-3-Clause */
#include "host/uncore.h"

#include "host/counters.h"
#include "host/pmu_sysfs.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* The memory-controller PMUs whose sysfs names read and write byte events: Intel's integrated
 * memory controllers (Xeon since Sandy Bridge EP, named the same up to Granite Rapids). AMD's
 * UMC and data-fabric PMUs describe no such events in sysfs, so they are not guessed at. */
static const struct {
    const char *prefix;
    const char *event[NPRB_N_UNCORE_EVENTS];
} families[] = {
    {"uncore_imc_", {"cas_count_read", "cas_count_write"}},
};

static const char *const event_names[NPRB_N_UNCORE_EVENTS] = {"mc_read_bytes", "mc_write_bytes"};

const char *nprb_uncore_event_name(enum nprb_uncore_event event)
{
    return event_names[event];
}

static int open_on_cpu(const struct nprb_pmu_event *ev, int cpu)
{
    const uint64_t config[3] = {ev->config, ev->config1, ev->config2};
    return nprb_perf_event_open(ev->type, config, -1, cpu, false);
}

static void close_all(struct nprb_uncore *uc)
{
    for (int i = 0; i < uc->count; i++)
        close(uc->fd[i]);
    uc->count = 0;
}

/* Opens every box's events on one CPU of each socket; -1 with the reason in @p why. */
static int open_all(struct nprb_uncore *uc, char *why, size_t len)
{
    memset(uc, 0, sizeof *uc);
    char boxes[64][NPRB_PMU_NAME_MAX];
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++) {
        int n = nprb_pmu_list(NPRB_PMU_SYSFS_ROOT, families[f].prefix, boxes, 64);
        for (int b = 0; b < n; b++) {
            /* uncore_imc_N alone: uncore_imc_free_running_N counts other events */
            const char *index = boxes[b] + strlen(families[f].prefix);
            if (*index == '\0' || strspn(index, "0123456789") != strlen(index))
                continue;
            for (int e = 0; e < NPRB_N_UNCORE_EVENTS; e++) {
                struct nprb_pmu_event ev;
                if (nprb_pmu_event_read(NPRB_PMU_SYSFS_ROOT, boxes[b], families[f].event[e], &ev,
                                        why, len) != 0) {
                    close_all(uc);
                    return -1;
                }
                double per_count = nprb_pmu_bytes(1.0, &ev);
                if (!isfinite(per_count) || ev.cpu_count == 0) {
                    snprintf(why, len, "%s/%s: sysfs gives no byte unit or no cpumask", boxes[b],
                             families[f].event[e]);
                    close_all(uc);
                    return -1;
                }
                for (int s = 0; s < ev.cpu_count && s < NPRB_UNCORE_MAX_SOCKETS; s++) {
                    if (uc->count == NPRB_UNCORE_MAX_FDS)
                        break;
                    int fd = open_on_cpu(&ev, ev.cpus[s]);
                    if (fd < 0) {
                        int err = errno;
                        snprintf(why, len, "perf_event_open of %s/%s on CPU %d: %s%s", boxes[b],
                                 families[f].event[e], ev.cpus[s], strerror(err),
                                 err == EACCES || err == EPERM
                                     ? " (system-wide counting needs root, CAP_PERFMON or "
                                       "kernel.perf_event_paranoid <= 0)"
                                     : "");
                        close_all(uc);
                        return -1;
                    }
                    uc->fd[uc->count] = fd;
                    uc->socket[uc->count] = s;
                    uc->event[uc->count] = (enum nprb_uncore_event)e;
                    uc->bytes_per_count[uc->count] = per_count;
                    uc->count++;
                    if (s + 1 > uc->sockets)
                        uc->sockets = s + 1;
                }
            }
        }
        if (uc->count > 0)
            return 0;
    }
    snprintf(why, len,
             "no memory-controller PMU with byte events in %s (looked for uncore_imc_*: Intel "
             "Xeon on bare metal)",
             NPRB_PMU_SYSFS_ROOT);
    return -1;
}

static char unavailable_why[160];
static pthread_once_t probe_once = PTHREAD_ONCE_INIT;

static void probe(void)
{
    struct nprb_uncore uc;
    if (open_all(&uc, unavailable_why, sizeof unavailable_why) == 0) {
        unavailable_why[0] = '\0';
        close_all(&uc);
    } else if (unavailable_why[0] == '\0') {
        snprintf(unavailable_why, sizeof unavailable_why, "memory controllers not countable");
    }
}

bool nprb_uncore_unavailable(char *why, size_t len)
{
    pthread_once(&probe_once, probe);
    if (unavailable_why[0] == '\0')
        return false;
    snprintf(why, len, "%s", unavailable_why);
    return true;
}

int nprb_uncore_open(struct nprb_uncore *uc)
{
    char why[160];
    return open_all(uc, why, sizeof why);
}

void nprb_uncore_start(struct nprb_uncore *uc)
{
    for (int i = 0; i < uc->count; i++) {
        ioctl(uc->fd[i], PERF_EVENT_IOC_RESET, 0);
        ioctl(uc->fd[i], PERF_EVENT_IOC_ENABLE, 0);
    }
}

void nprb_uncore_stop(struct nprb_uncore *uc)
{
    for (int i = 0; i < uc->count; i++)
        ioctl(uc->fd[i], PERF_EVENT_IOC_DISABLE, 0);
}

void nprb_uncore_collect(struct nprb_uncore *uc, struct nprb_uncore_counts *counts)
{
    memset(counts, 0, sizeof *counts);
    for (int i = 0; i < uc->count; i++) {
        uint64_t got[3]; /* value, time enabled, time running */
        if (read(uc->fd[i], got, sizeof got) != (ssize_t)sizeof got)
            continue;
        int e = uc->event[i], s = uc->socket[i];
        counts->value[e][s] += got[0];
        counts->bytes[e][s] += nprb_counter_scaled(got[0], got[1], got[2]) * uc->bytes_per_count[i];
        if (counts->enabled_ns[e][s] == 0) {
            counts->enabled_ns[e][s] = got[1];
            counts->running_ns[e][s] = got[2];
        }
    }
    counts->sockets = uc->sockets;
    close_all(uc);
}
