/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file restore.h
 * `numaprobe restore`: puts back a system setting a killed numaprobe run left changed, and
 * measures nothing. For a scheduler's epilog, a job script's exit trap, or a person.
 */
#ifndef NPRB_RESTORE_H
#define NPRB_RESTORE_H

#include "util/status.h"

#include <stdio.h>

/**
 * @return NPRB_OK when the settings are as numaprobe found them (put back now, nothing to put
 * back, or a live run holds a change it puts back itself), NPRB_ERR_SYSTEM when a dead run's
 * change could not be put back, NPRB_ERR_USAGE on an argument.
 */
enum nprb_status nprb_restore_command(int argc, char **argv, FILE *out, FILE *err);

#endif
