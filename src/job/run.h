/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file run.h
 * One numaprobe job, start to finish, along DESIGN.md's data flow:
 * config -> topology -> plan -> output check -> provenance -> measure -> gather + write -> report.
 */
#ifndef NPRB_RUN_H
#define NPRB_RUN_H

#include "job/cli.h"
#include "fleet/fleet.h"
#include "util/log.h"
#include "util/status.h"

/**
 * Runs the job on this rank. Collective: every rank of @p fleet calls it.
 * @p command_line is the invocation as typed, stored in the file.
 * @return the job's status (the same on every rank), which main() maps to the exit code.
 */
enum nprb_status nprb_run(const struct nprb_cli *cli, const char *command_line,
                          struct nprb_fleet *fleet, const struct nprb_log *log);

#endif
