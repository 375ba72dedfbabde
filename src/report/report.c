/* SPDX-License-Identifier: BSD-3-Clause */
#include "report/report.h"

#include "report/report_counters.h"
#include "report/report_topology.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NODES_SHOWN 64
#define POLICIES 3

static const char *const policy_names[POLICIES] = {"interleave", "preferred", "first_touch"};
static const char *const policy_heads[POLICIES] = {"interleave", "preferred", "1st-touch"};

/* One matrix of figures: rows are CPU nodes, columns memory nodes then the policies. */
struct matrix {
    int cpus[MAX_NODES_SHOWN], mems[MAX_NODES_SHOWN];
    int n_cpus, n_mems;
    double value[MAX_NODES_SHOWN][MAX_NODES_SHOWN + POLICIES];
    char mark[MAX_NODES_SHOWN][MAX_NODES_SHOWN + POLICIES];    /* class letter, or '!' invalid */
    bool flagged[MAX_NODES_SHOWN][MAX_NODES_SHOWN + POLICIES]; /* a plausibility flag: '?' */
};

static int slot_of(int *list, int *n, int node)
{
    for (int i = 0; i < *n; i++)
        if (list[i] == node)
            return i;
    if (*n == MAX_NODES_SHOWN)
        return -1;
    int i = *n;
    while (i > 0 && list[i - 1] > node) {
        list[i] = list[i - 1];
        i--;
    }
    list[i] = node;
    (*n)++;
    return -2; /* inserted: positions moved, look it up again */
}

static int index_of(int *list, int *n, int node)
{
    int i = slot_of(list, n, node);
    return i == -2 ? slot_of(list, n, node) : i;
}

static char class_letter(const char *pair_class, const char *status)
{
    if (strcmp(status, "ok") != 0)
        return '!';
    switch (pair_class[0]) {
    case 'l':
        return 'L'; /* local */
    case 's':
        return 'P'; /* same package */
    case 'c':
        return 'X'; /* cross package */
    case 'm':
        return 'M'; /* memory-only node */
    }
    return ' ';
}

static int policy_column(const char *policy)
{
    for (int k = 0; k < POLICIES; k++)
        if (strcmp(policy, policy_names[k]) == 0)
            return k;
    return -1;
}

/* Adds one figure; rows and columns come in any order, the matrix keeps them sorted. */
static void put(struct matrix *m, int cpu, int mem, const char *policy, double value,
                const char *pair_class, const char *status, const char *flags)
{
    int r = index_of(m->cpus, &m->n_cpus, cpu);
    int c;
    if (strcmp(policy, "bind") == 0) {
        int before = m->n_mems;
        c = index_of(m->mems, &m->n_mems, mem);
        if (m->n_mems != before) { /* a new column: shift the others right */
            for (int i = 0; i < MAX_NODES_SHOWN; i++) {
                memmove(&m->value[i][c + 1], &m->value[i][c],
                        (size_t)(before - c) * sizeof m->value[0][0]);
                memmove(&m->mark[i][c + 1], &m->mark[i][c], (size_t)(before - c));
                memmove(&m->flagged[i][c + 1], &m->flagged[i][c],
                        (size_t)(before - c) * sizeof m->flagged[0][0]);
                m->value[i][c] = NAN;
                m->mark[i][c] = ' ';
                m->flagged[i][c] = false;
            }
        }
    } else {
        int k = policy_column(policy);
        c = k < 0 ? -1 : MAX_NODES_SHOWN + k;
    }
    if (r < 0 || c < 0)
        return;
    m->value[r][c] = value;
    m->mark[r][c] = class_letter(pair_class, status);
    m->flagged[r][c] = flags[0] != '\0';
}

static void clear(struct matrix *m)
{
    m->n_cpus = m->n_mems = 0;
    for (int i = 0; i < MAX_NODES_SHOWN; i++)
        for (int j = 0; j < MAX_NODES_SHOWN + POLICIES; j++) {
            m->value[i][j] = NAN;
            m->mark[i][j] = ' ';
            m->flagged[i][j] = false;
        }
}

static void cell(FILE *out, double value, char mark, bool flagged)
{
    if (isnan(value))
        fprintf(out, " %10s", mark == '!' ? "failed" : "-");
    else if (flagged)
        fprintf(out, " %8.1f%c?", value, mark);
    else
        fprintf(out, " %9.1f%c", value, mark);
}

static void print_matrix(FILE *out, const char *title, const struct matrix *m)
{
    if (m->n_cpus == 0)
        return;
    bool policy_used[POLICIES] = {false};
    for (int r = 0; r < m->n_cpus; r++)
        for (int k = 0; k < POLICIES; k++)
            policy_used[k] |= !isnan(m->value[r][MAX_NODES_SHOWN + k]);
    fprintf(out, "  %s\n  %-10s", title, "CPUs\\mem");
    for (int c = 0; c < m->n_mems; c++)
        fprintf(out, " %9s%d", "node ", m->mems[c]);
    for (int k = 0; k < POLICIES; k++)
        if (policy_used[k])
            fprintf(out, " %10.10s", policy_heads[k]);
    fputc('\n', out);
    for (int r = 0; r < m->n_cpus; r++) {
        fprintf(out, "  node %-5d", m->cpus[r]);
        for (int c = 0; c < m->n_mems; c++)
            cell(out, m->value[r][c], m->mark[r][c], m->flagged[r][c]);
        for (int k = 0; k < POLICIES; k++)
            if (policy_used[k])
                cell(out, m->value[r][MAX_NODES_SHOWN + k], m->mark[r][MAX_NODES_SHOWN + k],
                     m->flagged[r][MAX_NODES_SHOWN + k]);
        fputc('\n', out);
    }
}

static int slit_of(const struct nprb_rows *dist, int from, int to)
{
    for (size_t i = 0; i < dist->count; i++) {
        const struct nprb_distance_row *d =
            (const struct nprb_distance_row *)(dist->data + i * dist->row_bytes);
        if (d->from_node == from && d->to_node == to)
            return d->slit;
    }
    return 0;
}

/* Latency relative to the row's local figure beside the firmware's relative distance: where the
 * two disagree, the SLIT table (which schedulers and numactl trust) misdescribes the machine. */
static void print_ratios(FILE *out, const struct matrix *m, const struct nprb_rows *dist)
{
    if (m->n_mems < 2)
        return;
    fprintf(out, "  remote/local latency, measured (firmware SLIT ratio)\n");
    for (int r = 0; r < m->n_cpus; r++) {
        int local = -1;
        for (int c = 0; c < m->n_mems; c++)
            if (m->mems[c] == m->cpus[r])
                local = c;
        if (local < 0 || isnan(m->value[r][local]))
            continue;
        fprintf(out, "  node %-5d", m->cpus[r]);
        int slit_local = slit_of(dist, m->cpus[r], m->cpus[r]);
        for (int c = 0; c < m->n_mems; c++) {
            int slit = slit_of(dist, m->cpus[r], m->mems[c]);
            char firmware[16] = "?";
            if (slit > 0 && slit_local > 0)
                snprintf(firmware, sizeof firmware, "%.2f", (double)slit / slit_local);
            if (isnan(m->value[r][c]))
                fprintf(out, " %14s", "-");
            else
                fprintf(out, " %6.2f (%5s)", m->value[r][c] / m->value[r][local], firmware);
        }
        fputc('\n', out);
    }
}

void nprb_report_header(FILE *out)
{
    fprintf(out, "NUMA matrices per host (L local, P same package, X cross package, M memory-only "
                 "node, ! not valid: see the notes, ? implausible: see the row's flags)\n");
}

static const void *row_at(const struct nprb_rows *rows, size_t i)
{
    return rows->data + i * rows->row_bytes;
}

/* Rows that are not ok, once per distinct note. */
static void notes(FILE *out, const struct nprb_results *rows)
{
    char seen[16][NPRB_NOTE_LEN];
    int n = 0;
    for (int t = NPRB_TABLE_LATENCY; t <= NPRB_TABLE_BANDWIDTH; t++) {
        const struct nprb_rows *tab = &rows->tables[t];
        for (size_t i = 0; i < tab->count; i++) {
            const char *status = t == NPRB_TABLE_LATENCY
                                     ? ((const struct nprb_latency_row *)row_at(tab, i))->status
                                     : ((const struct nprb_bandwidth_row *)row_at(tab, i))->status;
            const char *note = t == NPRB_TABLE_LATENCY
                                   ? ((const struct nprb_latency_row *)row_at(tab, i))->note
                                   : ((const struct nprb_bandwidth_row *)row_at(tab, i))->note;
            if (strcmp(status, "ok") == 0 || note[0] == '\0')
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
        cpu_nodes += ((const struct nprb_numa_node_row *)row_at(nodes, i))->cpus > 0;
    if (cpu_nodes == 0)
        return;
    if (host->peak_gbs <= 0) {
        fprintf(out, "  theoretical peak unknown: no DIMM speed (SMBIOS needs root; or set "
                     "memory.dimm_speed and memory.channels)\n");
        return;
    }
    double share = host->peak_gbs / cpu_nodes, best = 0, host_wide = 0;
    for (size_t i = 0; i < bw->count; i++) {
        const struct nprb_bandwidth_row *b = row_at(bw, i);
        if (strcmp(b->kernel, "read") != 0 || strcmp(b->status, "ok") != 0)
            continue;
        if (strcmp(b->experiment, "bandwidth_matrix") == 0 && strcmp(b->mem_policy, "bind") == 0 &&
            strcmp(b->pair_class, "local") == 0)
            best = b->gbs_best > best ? b->gbs_best : best;
        if (strcmp(b->experiment, "first_touch") == 0 && strcmp(b->init_mode, "bind") == 0)
            host_wide = b->gbs_best;
    }
    fprintf(out, "  theoretical peak %.1f GB/s (%s), %.1f GB/s per node", host->peak_gbs,
            host->peak_basis, share);
    if (best > 0)
        fprintf(out, "; best local read %.1f GB/s = %.0f%% of a node's share", best,
                100 * best / share);
    if (host_wide > 0)
        fprintf(out, "; every node reading its own memory at once %.1f GB/s = %.0f%% of the peak",
                host_wide, 100 * host_wide / host->peak_gbs);
    fputc('\n', out);
}

void nprb_report_rank(FILE *out, const struct nprb_results *rows)
{
    const struct nprb_rows *hosts = &rows->tables[NPRB_TABLE_HOSTS];
    if (hosts->count == 0)
        return;
    const struct nprb_host_row *host = row_at(hosts, 0);
    fprintf(out, "\n%s (rank %d): %s, %s%s%s\n", host->hostname, host->rank, host->node_type,
            host->binding_check, strcmp(host->status, "ok") != 0 ? "; host " : "",
            strcmp(host->status, "ok") != 0 ? host->status : "");
    /* A host left changed by a killed run ran every job since under that setting: said first. */
    if (host->restored[0] != '\0')
        fprintf(out, "  at start: %s\n", host->restored);
    nprb_report_topology(out, rows);
    struct matrix *m = malloc(sizeof *m);
    if (m == NULL)
        return;
    clear(m);
    const struct nprb_rows *lat = &rows->tables[NPRB_TABLE_LATENCY];
    for (size_t i = 0; i < lat->count; i++) {
        const struct nprb_latency_row *l = row_at(lat, i);
        if (strcmp(l->experiment, "latency_matrix") == 0 &&
            strcmp(l->status, "not_applicable") != 0)
            put(m, l->cpu_node, l->mem_node, l->mem_policy, l->latency_ns_median, l->pair_class,
                l->status, l->flags);
    }
    print_matrix(out, "idle latency, ns (median)", m);
    print_ratios(out, m, &rows->tables[NPRB_TABLE_DISTANCES]);

    const struct nprb_rows *bw = &rows->tables[NPRB_TABLE_BANDWIDTH];
    char kernels[8][16];
    int n_kernels = 0;
    for (size_t i = 0; i < bw->count; i++) {
        const struct nprb_bandwidth_row *b = row_at(bw, i);
        bool known = false;
        for (int k = 0; k < n_kernels; k++)
            known |= strcmp(kernels[k], b->kernel) == 0;
        if (!known && n_kernels < 8 && strcmp(b->experiment, "bandwidth_matrix") == 0)
            snprintf(kernels[n_kernels++], sizeof kernels[0], "%s", b->kernel);
    }
    for (int k = 0; k < n_kernels; k++) {
        clear(m);
        int threads = 0;
        for (size_t i = 0; i < bw->count; i++) {
            const struct nprb_bandwidth_row *b = row_at(bw, i);
            if (strcmp(b->experiment, "bandwidth_matrix") != 0 ||
                strcmp(b->kernel, kernels[k]) != 0 || strcmp(b->status, "not_applicable") == 0)
                continue;
            put(m, b->cpu_node, b->mem_node, b->mem_policy, b->gbs_best, b->pair_class, b->status,
                b->flags);
            threads = b->threads;
        }
        char title[96];
        snprintf(title, sizeof title, "%s bandwidth, GB/s (best; %d threads per CPU node)",
                 kernels[k], threads);
        print_matrix(out, title, m);
    }
    free(m);
    nprb_report_classes(out, rows);
    print_peak(out, host, rows);
    nprb_report_counters(out, rows);
    notes(out, rows);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void nprb_report_rank_line(FILE *out, const struct nprb_results *rows)
{
    const struct nprb_rows *hosts = &rows->tables[NPRB_TABLE_HOSTS];
    const struct nprb_rows *lat = &rows->tables[NPRB_TABLE_LATENCY];
    const struct nprb_rows *bw = &rows->tables[NPRB_TABLE_BANDWIDTH];
    if (hosts->count == 0)
        return;
    const struct nprb_host_row *host = row_at(hosts, 0);
    double ns[64], gbs[64];
    int n_ns = 0, n_gbs = 0, invalid = 0;
    for (size_t i = 0; i < lat->count; i++) {
        const struct nprb_latency_row *l = row_at(lat, i);
        bool cell = strcmp(l->experiment, "latency_matrix") == 0 &&
                    strcmp(l->mem_policy, "bind") == 0 && strcmp(l->pair_class, "local") == 0;
        invalid += cell && strcmp(l->status, NPRB_ROW_INVALID) == 0;
        if (cell && strcmp(l->status, NPRB_ROW_OK) == 0 && n_ns < 64)
            ns[n_ns++] = l->latency_ns_median;
    }
    for (size_t i = 0; i < bw->count; i++) {
        const struct nprb_bandwidth_row *b = row_at(bw, i);
        bool cell = strcmp(b->experiment, "bandwidth_matrix") == 0 &&
                    strcmp(b->kernel, "read") == 0 && strcmp(b->mem_policy, "bind") == 0 &&
                    strcmp(b->pair_class, "local") == 0;
        invalid += cell && strcmp(b->status, NPRB_ROW_INVALID) == 0;
        if (cell && strcmp(b->status, NPRB_ROW_OK) == 0 && n_gbs < 64)
            gbs[n_gbs++] = b->gbs_best;
    }
    fprintf(out, "%s (rank %d): %s, %s", host->hostname, host->rank, host->node_type, host->status);
    if (n_ns > 0)
        fprintf(out, ", local latency %.1f ns", median_of(ns, n_ns));
    if (n_gbs > 0)
        fprintf(out, ", local read %.1f GB/s", median_of(gbs, n_gbs));
    if (invalid > 0)
        fprintf(out, ", %d local cell(s) not valid", invalid);
    if (strncmp(host->binding_check, "ok", 2) != 0)
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
