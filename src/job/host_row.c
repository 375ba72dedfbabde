/* SPDX-License-Identifier: BSD-3-Clause */
/* The /hosts row builder: topology summary and provenance into the row, the textbook's peak, and
 * the row of a hung rank. Kept apart from the job sequence so that the row's columns are filled
 * in one place whatever the moment (checkpoint, finish, rank 0 hanging). */
#include "job/host_row.h"

#include "host/balancing.h"
#include "kernels/stream.h"
#include "util/timer.h"

#include <stdio.h>
#include <string.h>

/* The textbook's yardstick: channels x transfer rate x 8 bytes per transfer. The config can
 * give what the firmware does not say (a speed SMBIOS leaves 0, channels with 2 DIMMs each). */
static void theoretical_peak(const struct nprb_host_facts *f, struct nprb_host_row *h)
{
    const struct nprb_dimms *d = &nprb_topo_summary(f->topo)->dimms;
    int speed = f->dimm_speed_mts > 0 ? f->dimm_speed_mts : d->speed_mts;
    int channels = f->memory_channels > 0 ? f->memory_channels : d->count;
    if (speed <= 0 || channels <= 0)
        return;
    h->peak_gbs = (double)channels * speed * 8 / 1e3;
    snprintf(h->peak_basis, sizeof h->peak_basis, "%d channels (%s) x %d MT/s (%s) x 8 B", channels,
             f->memory_channels > 0 ? "config" : "one per module", speed,
             f->dimm_speed_mts > 0 ? "config" : d->source);
}

void nprb_host_row_fill(struct nprb_host_row *h, const struct nprb_host_facts *f,
                        const char *status)
{
    const struct nprb_topo_summary *s = nprb_topo_summary(f->topo);
    const struct nprb_provenance *prov = f->prov;
    memset(h, 0, sizeof *h);
    h->rank = f->fleet->rank;
    h->host_index = f->fleet->host_index;
    h->ranks_on_host = f->fleet->host_size;
    NPRB_SET_TEXT(h->hostname, f->fleet->hostname);
    NPRB_SET_TEXT(h->fingerprint, s->fingerprint);
    NPRB_SET_TEXT(h->node_type, s->label);
    NPRB_SET_TEXT(h->cpu_model, s->cpu_model);
    h->packages = s->packages;
    h->numa_nodes = s->numa_nodes;
    h->cores = s->cores;
    h->pus = s->pus;
    h->memory_bytes = s->memory_bytes;
    h->l1d_bytes = s->l1d_bytes;
    h->l2_bytes = s->l2_bytes;
    h->l3_bytes = s->l3_bytes;
    NPRB_SET_TEXT(h->kernel, prov->kernel);
    NPRB_SET_TEXT(h->thp_mode, prov->thp_mode);
    h->numa_balancing = prov->numa_balancing;
    NPRB_SET_TEXT(h->governor, prov->governor);
    NPRB_SET_TEXT(h->boost, prov->boost);
    NPRB_SET_TEXT(h->launcher, prov->launcher);
    NPRB_SET_TEXT(h->omp_env, prov->omp_env);
    NPRB_SET_TEXT(h->cpuset_cpus, prov->cpuset_cpus);
    NPRB_SET_TEXT(h->cpuset_mems, prov->cpuset_mems);
    NPRB_SET_TEXT(h->cgroup, prov->cgroup);
    NPRB_SET_TEXT(h->scheduler, prov->scheduler);
    if (s->dimms.count > 0)
        snprintf(h->dimms, sizeof h->dimms, "%s (%s)", s->dimms.layout, s->dimms.source);
    h->dimm_speed_mts = s->dimms.speed_mts;
    theoretical_peak(f, h);
    NPRB_SET_TEXT(h->simd_path, nprb_simd_path());
    h->clock_tick_ns = nprb_clock_tick_ns();
    NPRB_SET_TEXT(h->usable_cpus, s->bound_cpus);
    NPRB_SET_TEXT(h->binding_check, f->binding->text);
    h->binding_verdict = f->binding->verdict;
    NPRB_SET_TEXT(h->job_id, prov->job_id);
    NPRB_SET_TEXT(h->restored, prov->restored);
    NPRB_SET_TEXT(h->restore_outcome, nprb_recovery_name(prov->restore_outcome));
    NPRB_SET_TEXT(h->status, status);
    h->elapsed_s = (double)(nprb_now_ns() - f->start_ns) * 1e-9;
}

void nprb_host_row_hung(struct nprb_host_row *h, const struct nprb_fleet *fleet, int rank,
                        const char *why)
{
    memset(h, 0, sizeof *h);
    h->rank = rank;
    h->host_index = fleet->host_of_rank[rank];
    for (int r = 0; r < fleet->size; r++)
        h->ranks_on_host += fleet->host_of_rank[r] == h->host_index;
    NPRB_SET_TEXT(h->hostname, fleet->name_of_rank[rank]);
    NPRB_SET_TEXT(h->status, "hung");
    NPRB_SET_TEXT(h->error, why);
}
