/* SPDX-License-Identifier: BSD-3-Clause */
/* OpenMP's environment, undone where it would change what numaprobe measures (omp_env.h). */
#include "host/omp_env.h"

#include <dirent.h>
#include <errno.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* The variable that made OpenMP bind, as NAME=value for messages. */
static void binding_cause(char *buf, size_t len)
{
    const char *bind = getenv("OMP_PROC_BIND"), *places = getenv("OMP_PLACES");
    if (bind != NULL && *bind != '\0')
        snprintf(buf, len, "OMP_PROC_BIND=%.24s", bind);
    else if (places != NULL && *places != '\0')
        snprintf(buf, len, "OMP_PLACES=%.24s", places);
    else
        snprintf(buf, len, "OpenMP's defaults");
}

static void cpu_list(const cpu_set_t *set, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int cpu = 0; cpu < CPU_SETSIZE && used + 1 < len; cpu++) {
        if (!CPU_ISSET(cpu, set))
            continue;
        int last = cpu;
        while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, set))
            last++;
        int n = last == cpu
                    ? snprintf(buf + used, len - used, "%s%d", used ? "," : "", cpu)
                    : snprintf(buf + used, len - used, "%s%d-%d", used ? "," : "", cpu, last);
        used += n > 0 ? (size_t)n : 0;
        cpu = last;
    }
}

/* Every thread of the process with mask @p from gets mask @p to: the initial thread and those
 * that inherited its narrowed mask (MPI's progress threads), not threads bound otherwise. */
static int rebind_threads(const cpu_set_t *from, const cpu_set_t *to)
{
    DIR *dir = opendir("/proc/self/task");
    if (dir == NULL)
        return sched_setaffinity(0, sizeof *to, to);
    int rc = 0;
    for (struct dirent *d; (d = readdir(dir)) != NULL;) {
        pid_t tid = (pid_t)atoi(d->d_name);
        cpu_set_t now;
        if (tid <= 0 || sched_getaffinity(tid, sizeof now, &now) != 0 || !CPU_EQUAL(&now, from))
            continue;
        if (sched_setaffinity(tid, sizeof *to, to) != 0)
            rc = -1;
    }
    closedir(dir);
    return rc;
}

/* The CPUs of OpenMP place @p p, added to @p set. */
static void add_place(int p, cpu_set_t *set)
{
    int count = omp_get_place_num_procs(p);
    int *ids = count > 0 ? malloc((size_t)count * sizeof *ids) : NULL;
    if (ids == NULL)
        return;
    omp_get_place_proc_ids(p, ids);
    for (int i = 0; i < count; i++)
        if (ids[i] >= 0 && ids[i] < CPU_SETSIZE)
            CPU_SET(ids[i], set);
    free(ids);
}

int nprb_omp_env_undo_binding(struct nprb_omp_env *env, char *err, size_t errlen)
{
    memset(env, 0, sizeof *env);
    env->binds = omp_get_proc_bind() != omp_proc_bind_false && omp_get_num_places() > 0;
    cpu_set_t initial, first, target;
    if (!env->binds || sched_getaffinity(0, sizeof initial, &initial) != 0)
        return 0;
    /* libgomp binds the initial thread to the first place: a main thread found anywhere else
     * was bound by someone else, whose binding stands. */
    CPU_ZERO(&first);
    add_place(0, &first);
    if (!CPU_EQUAL(&initial, &first))
        return 0;
    /* libgomp made its places of the CPUs it found at start (the launcher's binding), for
     * OMP_PLACES unset or an abstract name (cores, sockets), and kept only those CPUs of an
     * explicit list ({0},{1}): the union of the places gives the launcher's binding back, or
     * as much of it as the list names. A list of one place names no more than the main thread
     * has: the launcher's binding is then unknown, and is kept, said to be OMP's or the
     * launcher's (Open MPI sets OMP_PLACES itself for --map-by ...:pe=N). */
    CPU_ZERO(&target);
    for (int p = 0; p < omp_get_num_places(); p++)
        add_place(p, &target);
    char cause[48], was[48], now[48];
    binding_cause(cause, sizeof cause);
    cpu_list(&initial, was, sizeof was);
    if (CPU_EQUAL(&initial, &target)) {
        const char *places = getenv("OMP_PLACES");
        if (places != NULL && places[strspn(places, " \t")] == '{')
            snprintf(env->binder, sizeof env->binder, "%s or the launcher", cause);
        return 0;
    }
    if (rebind_threads(&initial, &target) != 0) {
        snprintf(err, errlen, "%s bound the main thread to CPU %s; cannot undo it: %s", cause, was,
                 strerror(errno));
        return -1;
    }
    cpu_set_t restored;
    if (sched_getaffinity(0, sizeof restored, &restored) != 0 || CPU_EQUAL(&restored, &initial))
        return 0;
    cpu_list(&restored, now, sizeof now);
    env->undone = true;
    snprintf(env->note, sizeof env->note, "%s bound the main thread to CPU %s: undone (CPUs %s)",
             cause, was, now);
    return 0;
}

void nprb_omp_env_shortfall(int asked, char *buf, size_t len)
{
    const char *limit = getenv("OMP_THREAD_LIMIT");
    if (omp_get_thread_limit() < asked)
        snprintf(buf, len, "OMP_THREAD_LIMIT=%.16s", limit != NULL ? limit : "?");
    else if (omp_get_max_active_levels() < 1)
        snprintf(buf, len, "OMP_MAX_ACTIVE_LEVELS=0");
    else
        snprintf(buf, len, "the OpenMP runtime gave fewer");
}
