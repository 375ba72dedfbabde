/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file omp_env.h
 * What OpenMP's environment did to this process before main() ran, and undoing it. libgomp
 * reads OMP_PROC_BIND and OMP_PLACES in its constructor and binds the initial thread to the
 * first place; every thread started after that (MPI's included) inherits the narrow mask, which
 * then looks like a launcher's binding. numaprobe pins its own threads whatever OMP_* says, so
 * it puts the mask back before it looks at the binding, and says so.
 */
#ifndef NPRB_OMP_ENV_H
#define NPRB_OMP_ENV_H

#include <stdbool.h>
#include <stddef.h>

/** What was found and undone. */
struct nprb_omp_env {
    /** OpenMP binds threads (OMP_PROC_BIND not false, or OMP_PLACES set). */
    bool binds;
    /** The initial thread's mask was narrowed and has been put back. */
    bool undone;
    /** One line for binding_check, e.g. "OMP_PROC_BIND=close bound the main thread to CPU 0:
     * undone"; empty when nothing was done. */
    char note[96];
    /** Who bound the process when OpenMP's binding could not be told from the launcher's (one
     * place only): "OMP_PLACES={3} or the launcher"; empty otherwise. */
    char binder[64];
};

/**
 * When OpenMP binds threads, sets every thread of the process that carries the initial thread's
 * mask to the union of OpenMP's places (the CPUs the process had when libgomp started: the
 * launcher's binding, or what an explicit OMP_PLACES list names of it). Call before anything reads
 * the binding or starts threads.
 * @return 0, or -1 with a message in @p err (the binding is then left as it was).
 */
int nprb_omp_env_undo_binding(struct nprb_omp_env *env, char *err, size_t errlen);

/**
 * Why an OpenMP team got fewer threads than @p asked ("OMP_THREAD_LIMIT=1", ...), as a short
 * phrase in @p buf.
 */
void nprb_omp_env_shortfall(int asked, char *buf, size_t len);

#endif
