/* SPDX-License-Identifier: BSD-3-Clause */
/* The stdout report's grids of figures, and the bandwidth sweeps' grid from their rows
 * (report_grid.h). */
#include "report/report_grid.h"

#include "results/results.h"
#include "util/units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KEYS 64
#define MAX_ROWS 256 /* from: every with pairs: all gives nodes x nodes x patterns curves */
#define COLUMNS_PER_BLOCK 10

/* Rows named by text, columns by a number, NaN where nothing was measured. */
struct nprb_grid {
    int rows, cols;
    char row_name[MAX_ROWS][24];
    uint64_t col[MAX_KEYS];
    double value[MAX_ROWS][MAX_KEYS];
};

static int row_index(struct nprb_grid *g, const char *name)
{
    for (int r = 0; r < g->rows; r++)
        if (strcmp(g->row_name[r], name) == 0)
            return r;
    if (g->rows == MAX_ROWS)
        return -1;
    snprintf(g->row_name[g->rows], sizeof g->row_name[0], "%s", name);
    for (int c = 0; c < MAX_KEYS; c++)
        g->value[g->rows][c] = NAN;
    return g->rows++;
}

static int col_index(struct nprb_grid *g, uint64_t col)
{
    int c = 0;
    while (c < g->cols && g->col[c] < col)
        c++;
    if (c < g->cols && g->col[c] == col)
        return c;
    if (g->cols == MAX_KEYS)
        return -1;
    /* Keep columns sorted: shift the larger ones right. */
    memmove(&g->col[c + 1], &g->col[c], (size_t)(g->cols - c) * sizeof g->col[0]);
    for (int r = 0; r < MAX_ROWS; r++)
        memmove(&g->value[r][c + 1], &g->value[r][c], (size_t)(g->cols - c) * sizeof(double));
    for (int r = 0; r < MAX_ROWS; r++)
        g->value[r][c] = NAN;
    g->col[c] = col;
    g->cols++;
    return c;
}

struct nprb_grid *nprb_grid_create(void)
{
    return calloc(1, sizeof(struct nprb_grid));
}

void nprb_grid_destroy(struct nprb_grid *g)
{
    free(g);
}

void nprb_grid_put(struct nprb_grid *g, const char *row, uint64_t col, double value)
{
    int r = row_index(g, row), c = col_index(g, col);
    if (r >= 0 && c >= 0)
        g->value[r][c] = value;
}

bool nprb_grid_print(FILE *out, const char *title, const char *corner, const struct nprb_grid *g,
                     enum nprb_grid_columns columns, int decimals)
{
    if (g->rows == 0)
        return false;
    fprintf(out, "\n%s\n", title);
    for (int first = 0; first < g->cols; first += COLUMNS_PER_BLOCK) {
        int last = first + COLUMNS_PER_BLOCK < g->cols ? first + COLUMNS_PER_BLOCK : g->cols;
        fprintf(out, "%-17s", corner);
        for (int c = first; c < last; c++) {
            char head[32];
            if (columns == NPRB_GRID_SIZES)
                nprb_format_size(g->col[c], head, sizeof head);
            else
                snprintf(head, sizeof head, "%llu", (unsigned long long)g->col[c]);
            fprintf(out, " %9s", head);
        }
        fputc('\n', out);
        for (int r = 0; r < g->rows; r++) {
            fprintf(out, "%-17s", g->row_name[r]);
            for (int c = first; c < last; c++) {
                if (isnan(g->value[r][c]))
                    fprintf(out, " %9s", "-");
                else
                    fprintf(out, " %9.*f", decimals, g->value[r][c]);
            }
            fputc('\n', out);
        }
    }
    return true;
}

bool nprb_bandwidth_report(FILE *out, const struct nprb_results *rows,
                           enum nprb_experiment_id experiment, bool by_threads, const char *what)
{
    const struct nprb_rows *bw = &rows->tables[NPRB_TABLE_BANDWIDTH];
    struct nprb_grid *g = nprb_grid_create();
    if (g == NULL)
        return false;
    const struct nprb_bandwidth_row *last = NULL;
    for (size_t i = 0; i < bw->count; i++) {
        const struct nprb_bandwidth_row *b = nprb_row_at(bw, i);
        if (b->experiment_id != experiment || strcmp(b->status, NPRB_ROW_OK) != 0)
            continue;
        last = b;
        char name[32];
        if (b->stride_bytes != 0) /* one curve per stride of read_strided */
            snprintf(name, sizeof name, "%s:%llu", b->kernel, (unsigned long long)b->stride_bytes);
        else
            snprintf(name, sizeof name, "%s", b->kernel);
        nprb_grid_put(g, name, by_threads ? (uint64_t)b->threads : b->size_bytes, b->gbs_best);
    }
    char title[200] = "";
    if (last != NULL && by_threads)
        snprintf(title, sizeof title, "%s on %s: %s", last->experiment, last->hostname, what);
    else if (last != NULL)
        snprintf(title, sizeof title, "%s on %s: %s, %d threads", last->experiment, last->hostname,
                 what, last->threads);
    bool printed = nprb_grid_print(out, title, by_threads ? "kernel\\threads" : "kernel", g,
                                   by_threads ? NPRB_GRID_COUNTS : NPRB_GRID_SIZES, 1);
    nprb_grid_destroy(g);
    return printed;
}
