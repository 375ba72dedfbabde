/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file stream_cpu.h
 * Internal to the stream kernels: the kernels that are one instruction set's own instruction
 * rather than a loop any compiler builds, and whether this CPU runs them: copy_movsb (x86-64's
 * rep movsb) and write_zva (Arm64's DC ZVA). stream.c tables them. On the other instruction set
 * the run functions store nothing, which validation refuses; nprb_kernel_available() says so
 * before any run.
 */
#ifndef NPRB_STREAM_CPU_H
#define NPRB_STREAM_CPU_H

#include "kernels/stream.h"

#include <stdbool.h>

/** c[i] = a[i] by one rep movsb (x86-64). */
double nprb_run_copy_movsb(const struct nprb_stream_args *args);

/** Whether this CPU runs copy_movsb; @p why as nprb_kernel_available()'s. */
bool nprb_copy_movsb_available(const char **why);

/** a[i] = 0 by a DC ZVA per block, ordinary stores around the blocks (Arm64). */
double nprb_run_write_zva(const struct nprb_stream_args *args);

/** Whether this CPU runs write_zva: Arm64, DC ZVA allowed, and its block at least a line. */
bool nprb_write_zva_available(const char **why);

#endif
