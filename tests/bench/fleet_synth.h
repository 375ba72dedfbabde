/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file fleet_synth.h
 * A synthetic fleet for the write-path benchmarks (bench_write, bench_collector): hosts of one
 * rank each, made from the first rank's rows of one real results file (a host as numaprobe
 * measured it). Every float column in `ns` or `GB/s` (found through the contract's units) is
 * scaled by the host's node type (a faster and a slower type beside the template's, and more),
 * by a per-host spread of about 2% and a per-row one of 0.5%; one host in 500 has its bandwidth
 * cut to 60% (an outlier), one in 1000 THP `never` (config drift). The template's own sample
 * spread is taken out first, so a template measured on a busy machine still gives judged figures.
 */
#ifndef NPRB_FLEET_SYNTH_H
#define NPRB_FLEET_SYNTH_H

#include "results/h5in.h"
#include "results/h5out.h"
#include "results/results.h"

#include <stddef.h>
#include <stdint.h>

enum { FLEET_SYNTH_MAX_TYPES = 8 };

struct fleet_synth {
    struct nprb_attrs attrs; /**< the template's root attributes */
    struct nprb_results tpl; /**< the template's first rank, quieted */
    struct nprb_results row; /**< the host last made by fleet_synth_host() */
    size_t rows_a_host;
    int hosts, types;
    int64_t failed; /**< hosts whose /hosts status is not ok (all or none: the template's) */
};

/**
 * Reads @p template_path and prepares a fleet of @p hosts hosts of @p types node types.
 * @return 0, or -1 with a message on stderr naming @p who.
 */
int fleet_synth_open(struct fleet_synth *f, const char *who, const char *template_path, int hosts,
                     int types);

/** Makes host @p index's rows (rank @p index, host name node<type><index>) into f->row. */
void fleet_synth_host(struct fleet_synth *f, int index);

/**
 * The root attributes of a job's file (the contract's, of every file and of a final one): the
 * template's values where it has them, this fleet's counts, @p command_line.
 * @return 0, or -1 when one could not be written.
 */
int fleet_synth_root_attrs(const struct fleet_synth *f, struct nprb_h5 *h5,
                           const char *command_line);

void fleet_synth_close(struct fleet_synth *f);

#endif
