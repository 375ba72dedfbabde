/* SPDX-License-Identifier: BSD-3-Clause */
#include "report/report.h"

#include "report/figure.h"
#include "report/report_counters.h"
#include "report/report_topology.h"
#include "results/contract.h"
#include "util/timer.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void nprb_report_header(FILE *out)
{
    fprintf(out,
            "NUMA matrices per host (L local, P same package, X cross package, M memory-only "
            "node, ! not valid: see the notes, ? implausible: see the row's flags; +-U%%: the "
            "figure's uncertainty, %c noisy: above %.0f%%, shown but judged by no verdict)\n",
            NPRB_NOISY_MARK, NPRB_NOISY_PCT);
}

/* Rows that are not ok, once per distinct note. */
static void notes(FILE *out, const struct nprb_results *rows)
{
    char seen[16][NPRB_NOTE_LEN];
    int n = 0;
    for (int t = NPRB_TABLE_LATENCY; t <= NPRB_TABLE_BANDWIDTH; t++) {
        const struct nprb_rows *tab = &rows->tables[t];
        for (size_t i = 0; i < tab->count; i++) {
            const char *status =
                t == NPRB_TABLE_LATENCY
                    ? ((const struct nprb_latency_row *)nprb_row_at(tab, i))->status
                    : ((const struct nprb_bandwidth_row *)nprb_row_at(tab, i))->status;
            const char *note = t == NPRB_TABLE_LATENCY
                                   ? ((const struct nprb_latency_row *)nprb_row_at(tab, i))->note
                                   : ((const struct nprb_bandwidth_row *)nprb_row_at(tab, i))->note;
            if (strcmp(status, NPRB_ROW_OK) == 0 || note[0] == '\0')
                continue;
            bool dup = false;
            for (int k = 0; k < n; k++)
                dup |= strcmp(seen[k], note) == 0;
            if (dup || n == 16)
                continue;
            snprintf(seen[n++], NPRB_NOTE_LEN, "%s", note);
            fprintf(out, "  note (%s): %s\n", status, note);
        }
    }
}

/* Measured against theoretical: each node's best local read of memory bound to it (bind cells
 * only: a first-touch or preferred cell may hold other nodes' pages) beside its share of
 * channels x MT/s x 8 B (the channels split evenly over the nodes with CPUs), and the host's
 * cores all reading their own node's memory at once (first_touch with chunks bound) beside the
 * whole peak. Without a DIMM speed there is no peak: say what would give one. */
static void print_peak(FILE *out, const struct nprb_host_row *host, const struct nprb_results *rows)
{
    const struct nprb_rows *bw = &rows->tables[NPRB_TABLE_BANDWIDTH];
    const struct nprb_rows *nodes = &rows->tables[NPRB_TABLE_NUMA_NODES];
    int cpu_nodes = 0;
    for (size_t i = 0; i < nodes->count; i++)
        cpu_nodes += ((const struct nprb_numa_node_row *)nprb_row_at(nodes, i))->cpus > 0;
    if (cpu_nodes == 0)
        return;
    if (host->peak_gbs <= 0) {
        fprintf(out, "  theoretical peak unknown: no DIMM speed (SMBIOS needs root; or set "
                     "memory.dimm_speed and memory.channels)\n");
        return;
    }
    double share = host->peak_gbs / cpu_nodes, best = 0, host_wide = 0;
    double best_u = NAN, host_wide_u = NAN;
    for (size_t i = 0; i < bw->count; i++) {
        const struct nprb_bandwidth_row *b = nprb_row_at(bw, i);
        if (b->kernel_id != NPRB_KERNEL_READ || strcmp(b->status, NPRB_ROW_OK) != 0)
            continue;
        if (nprb_bandwidth_matrix_cell(b) && b->pair_class_id == NPRB_PAIR_LOCAL &&
            b->gbs_best > best) {
            best = b->gbs_best;
            best_u = nprb_bandwidth_uncertainty_pct(b);
        }
        if (b->experiment_id == NPRB_EXPERIMENT_FIRST_TOUCH && b->init_mode_id == NPRB_TOUCH_BIND) {
            host_wide = b->gbs_best;
            host_wide_u = nprb_bandwidth_uncertainty_pct(b);
        }
    }
    fprintf(out, "  theoretical peak %.1f GB/s (%s), %.1f GB/s per node", host->peak_gbs,
            host->peak_basis, share);
    char fig[64];
    if (best > 0)
        fprintf(out, "; best local read %s = %.0f%% of a node's share",
                nprb_figure_text(fig, sizeof fig, best, 1, "GB/s", best_u), 100 * best / share);
    if (host_wide > 0)
        fprintf(out, "; every node reading its own memory at once %s = %.0f%% of the peak",
                nprb_figure_text(fig, sizeof fig, host_wide, 1, "GB/s", host_wide_u),
                100 * host_wide / host->peak_gbs);
    fputc('\n', out);
}

void nprb_report_rank_head(FILE *out, const struct nprb_results *rows)
{
    const struct nprb_rows *hosts = &rows->tables[NPRB_TABLE_HOSTS];
    if (hosts->count == 0)
        return;
    const struct nprb_host_row *host = nprb_row_at(hosts, 0);
    fprintf(out, "\n%s (rank %d): %s, %s%s%s\n", host->hostname, host->rank, host->node_type,
            host->binding_check, strcmp(host->status, NPRB_ROW_OK) != 0 ? "; host " : "",
            strcmp(host->status, NPRB_ROW_OK) != 0 ? host->status : "");
    /* A host left changed by a killed run ran every job since under that setting: said first. */
    if (host->restored[0] != '\0')
        fprintf(out, "  at start: %s\n", host->restored);
    nprb_report_topology(out, rows);
}

void nprb_report_rank_tail(FILE *out, const struct nprb_results *rows)
{
    const struct nprb_rows *hosts = &rows->tables[NPRB_TABLE_HOSTS];
    if (hosts->count == 0)
        return;
    const struct nprb_host_row *host = nprb_row_at(hosts, 0);
    nprb_report_classes(out, rows);
    print_peak(out, host, rows);
    nprb_report_counters(out, rows);
    notes(out, rows);
}

void nprb_report_rank_line(FILE *out, const struct nprb_results *rows)
{
    const struct nprb_rows *hosts = &rows->tables[NPRB_TABLE_HOSTS];
    const struct nprb_rows *lat = &rows->tables[NPRB_TABLE_LATENCY];
    const struct nprb_rows *bw = &rows->tables[NPRB_TABLE_BANDWIDTH];
    if (hosts->count == 0)
        return;
    const struct nprb_host_row *host = nprb_row_at(hosts, 0);
    double ns[64], gbs[64];
    double ns_u = NAN, gbs_u = NAN; /* a median's uncertainty: the largest of its cells' */
    int n_ns = 0, n_gbs = 0, invalid = 0;
    for (size_t i = 0; i < lat->count; i++) {
        const struct nprb_latency_row *l = nprb_row_at(lat, i);
        bool cell = nprb_latency_matrix_cell(l) && l->pair_class_id == NPRB_PAIR_LOCAL;
        invalid += cell && strcmp(l->status, NPRB_ROW_INVALID) == 0;
        if (cell && strcmp(l->status, NPRB_ROW_OK) == 0 && n_ns < 64) {
            ns[n_ns++] = l->latency_ns_median;
            ns_u = fmax(ns_u, nprb_latency_uncertainty_pct(l));
        }
    }
    for (size_t i = 0; i < bw->count; i++) {
        const struct nprb_bandwidth_row *b = nprb_row_at(bw, i);
        bool cell = nprb_bandwidth_matrix_cell(b) && b->kernel_id == NPRB_KERNEL_READ &&
                    b->pair_class_id == NPRB_PAIR_LOCAL;
        invalid += cell && strcmp(b->status, NPRB_ROW_INVALID) == 0;
        if (cell && strcmp(b->status, NPRB_ROW_OK) == 0 && n_gbs < 64) {
            gbs[n_gbs++] = b->gbs_best;
            gbs_u = fmax(gbs_u, nprb_bandwidth_uncertainty_pct(b));
        }
    }
    fprintf(out, "%s (rank %d): %s, %s", host->hostname, host->rank, host->node_type, host->status);
    char fig[64];
    if (n_ns > 0)
        fprintf(out, ", local latency %s",
                nprb_figure_text(fig, sizeof fig, nprb_median(ns, (size_t)n_ns), 1, "ns", ns_u));
    if (n_gbs > 0)
        fprintf(
            out, ", local read %s",
            nprb_figure_text(fig, sizeof fig, nprb_median(gbs, (size_t)n_gbs), 1, "GB/s", gbs_u));
    if (invalid > 0)
        fprintf(out, ", %d local cell(s) not valid", invalid);
    if (host->binding_verdict != NPRB_BINDING_OK)
        fprintf(out, "; binding: %s", host->binding_check);
    if (host->error[0] != '\0')
        fprintf(out, "; %s", host->error);
    if (host->restored[0] != '\0')
        fprintf(out, "; at start: %s", host->restored);
    fputc('\n', out);
}

void nprb_report_footer(FILE *out, const char *path, int hosts, int ranks, int failed_hosts)
{
    fprintf(out,
            "\nLatency: one pinned thread chases a random cycle of 256-byte slots (random within\n"
            "  256 KiB windows, as multichase does) through memory bound to the column's node;\n"
            "  ns per dependent load, median over samples. Bandwidth: one pinned thread per core\n"
            "  of the row's node streams its own chunk; GB/s = 1e9 bytes/s of the bytes the\n"
            "  program reads and writes (STREAM's count; bus bytes with write-allocate are in the\n"
            "  file). Every figure's pages were verified with move_pages: a cell whose pages are\n"
            "  not where its policy says (under 99%% on the bound node, or an uneven interleave)\n"
            "  is marked '!' and not to be used. interleave: over every node with memory;\n"
            "  preferred and first_touch: the row's own node.\n");
    fprintf(out, "\n%d host(s), %d rank(s), %d host(s) failed. Results: %s\n", hosts, ranks,
            failed_hosts, path);
}
