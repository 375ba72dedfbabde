/* SPDX-License-Identifier: BSD-3-Clause */
#include "report/report_matrix.h"

#include "report/figure.h"
#include "results/contract.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NODES_SHOWN 64
#define POLICIES 3

/* The spread policies' columns, after the bound memory's, and their heads. */
static const enum nprb_mem_policy spread_policies[POLICIES] = {
    NPRB_MEM_INTERLEAVE, NPRB_MEM_PREFERRED, NPRB_MEM_FIRST_TOUCH};
static const char *const policy_heads[POLICIES] = {"interleave", "preferred", "1st-touch"};

struct nprb_matrix {
    int cpus[MAX_NODES_SHOWN], mems[MAX_NODES_SHOWN];
    int n_cpus, n_mems;
    double value[MAX_NODES_SHOWN][MAX_NODES_SHOWN + POLICIES];
    double uncertainty[MAX_NODES_SHOWN][MAX_NODES_SHOWN + POLICIES]; /* percent; NaN unknown */
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

static char class_letter(enum nprb_pair_class pair_class, const char *status)
{
    if (strcmp(status, NPRB_ROW_OK) != 0)
        return '!';
    switch (pair_class) {
    case NPRB_PAIR_LOCAL:
        return 'L';
    case NPRB_PAIR_SAME_PACKAGE:
        return 'P';
    case NPRB_PAIR_CROSS_PACKAGE:
        return 'X';
    case NPRB_PAIR_MEMORY_ONLY:
        return 'M';
    default:
        return ' ';
    }
}

static int policy_column(enum nprb_mem_policy policy)
{
    for (int k = 0; k < POLICIES; k++)
        if (policy == spread_policies[k])
            return k;
    return -1;
}

void nprb_matrix_put(struct nprb_matrix *m, int cpu, int mem, enum nprb_mem_policy policy,
                     double value, double uncertainty_pct, enum nprb_pair_class pair_class,
                     const char *status, const char *flags)
{
    int r = index_of(m->cpus, &m->n_cpus, cpu);
    int c;
    if (policy == NPRB_MEM_BIND) {
        int before = m->n_mems;
        c = index_of(m->mems, &m->n_mems, mem);
        if (m->n_mems != before) { /* a new column: shift the others right */
            for (int i = 0; i < MAX_NODES_SHOWN; i++) {
                memmove(&m->value[i][c + 1], &m->value[i][c],
                        (size_t)(before - c) * sizeof m->value[0][0]);
                memmove(&m->uncertainty[i][c + 1], &m->uncertainty[i][c],
                        (size_t)(before - c) * sizeof m->uncertainty[0][0]);
                memmove(&m->mark[i][c + 1], &m->mark[i][c], (size_t)(before - c));
                memmove(&m->flagged[i][c + 1], &m->flagged[i][c],
                        (size_t)(before - c) * sizeof m->flagged[0][0]);
                m->value[i][c] = m->uncertainty[i][c] = NAN;
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
    m->uncertainty[r][c] = uncertainty_pct;
    m->mark[r][c] = class_letter(pair_class, status);
    m->flagged[r][c] = flags[0] != '\0';
}

struct nprb_matrix *nprb_matrix_create(void)
{
    struct nprb_matrix *m = malloc(sizeof *m);
    if (m != NULL)
        nprb_matrix_clear(m);
    return m;
}

void nprb_matrix_destroy(struct nprb_matrix *m)
{
    free(m);
}

void nprb_matrix_clear(struct nprb_matrix *m)
{
    m->n_cpus = m->n_mems = 0;
    for (int i = 0; i < MAX_NODES_SHOWN; i++)
        for (int j = 0; j < MAX_NODES_SHOWN + POLICIES; j++) {
            m->value[i][j] = m->uncertainty[i][j] = NAN;
            m->mark[i][j] = ' ';
            m->flagged[i][j] = false;
        }
}

/* One cell, CELL_WIDTH wide: "value+-u%", the class letter, then '?' where a plausibility flag
 * is set and the noisy mark where the uncertainty is above the noise limit. */
#define CELL_WIDTH 17

static void cell(FILE *out, double value, double uncertainty, char mark, bool flagged)
{
    if (isnan(value)) {
        fprintf(out, " %*s", CELL_WIDTH, mark == '!' ? "failed" : "-");
        return;
    }
    char u[16];
    nprb_uncertainty_text(u, sizeof u, uncertainty);
    fprintf(out, " %8.1f%-6s%c%c%c", value, u, mark, flagged ? '?' : ' ',
            nprb_is_noisy(uncertainty) ? NPRB_NOISY_MARK : ' ');
}

void nprb_matrix_print(FILE *out, const char *title, const struct nprb_matrix *m)
{
    if (m->n_cpus == 0)
        return;
    bool policy_used[POLICIES] = {false};
    for (int r = 0; r < m->n_cpus; r++)
        for (int k = 0; k < POLICIES; k++)
            policy_used[k] |= !isnan(m->value[r][MAX_NODES_SHOWN + k]);
    fprintf(out, "  %s\n  %-10s", title, "CPUs\\mem");
    for (int c = 0; c < m->n_mems; c++) {
        char head[16];
        snprintf(head, sizeof head, "node %d", m->mems[c]);
        fprintf(out, " %*s   ", CELL_WIDTH - 3, head); /* over the figure, not its marks */
    }
    for (int k = 0; k < POLICIES; k++)
        if (policy_used[k])
            fprintf(out, " %*.10s   ", CELL_WIDTH - 3, policy_heads[k]);
    fputc('\n', out);
    for (int r = 0; r < m->n_cpus; r++) {
        fprintf(out, "  node %-5d", m->cpus[r]);
        for (int c = 0; c < m->n_mems; c++)
            cell(out, m->value[r][c], m->uncertainty[r][c], m->mark[r][c], m->flagged[r][c]);
        for (int k = 0; k < POLICIES; k++)
            if (policy_used[k])
                cell(out, m->value[r][MAX_NODES_SHOWN + k], m->uncertainty[r][MAX_NODES_SHOWN + k],
                     m->mark[r][MAX_NODES_SHOWN + k], m->flagged[r][MAX_NODES_SHOWN + k]);
        fputc('\n', out);
    }
}

static int slit_of(const struct nprb_rows *dist, int from, int to)
{
    for (size_t i = 0; i < dist->count; i++) {
        const struct nprb_distance_row *d = nprb_row_at(dist, i);
        if (d->from_node == from && d->to_node == to)
            return d->slit;
    }
    return 0;
}

/* Latency relative to the row's local figure beside the firmware's relative distance: where the
 * two disagree, the SLIT table (which schedulers and numactl trust) misdescribes the machine. */
void nprb_matrix_print_ratios(FILE *out, const struct nprb_matrix *m, const struct nprb_rows *dist)
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
