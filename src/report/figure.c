/* SPDX-License-Identifier: BSD-3-Clause */
#include "report/figure.h"

#include "results/contract.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

bool nprb_latency_matrix_cell(const struct nprb_latency_row *l)
{
    return l->experiment_id == NPRB_EXPERIMENT_LATENCY_MATRIX && l->mem_policy_id == NPRB_MEM_BIND;
}

bool nprb_bandwidth_matrix_cell(const struct nprb_bandwidth_row *b)
{
    return b->experiment_id == NPRB_EXPERIMENT_BANDWIDTH_MATRIX &&
           b->mem_policy_id == NPRB_MEM_BIND;
}

bool nprb_latency_headline(const struct nprb_latency_row *l)
{
    return nprb_latency_matrix_cell(l) && strcmp(l->status, NPRB_ROW_OK) == 0;
}

bool nprb_bandwidth_headline(const struct nprb_bandwidth_row *b)
{
    return nprb_bandwidth_matrix_cell(b) && strcmp(b->status, NPRB_ROW_OK) == 0;
}

char *nprb_uncertainty_text(char *buf, size_t len, double uncertainty_pct)
{
    if (isnan(uncertainty_pct))
        snprintf(buf, len, "+-?");
    else if (uncertainty_pct >= 999.5) /* a width a matrix cell can hold */
        snprintf(buf, len, "+->999%%");
    else
        snprintf(buf, len, "+-%.0f%%", uncertainty_pct);
    return buf;
}

char *nprb_figure_text(char *buf, size_t len, double value, int decimals, const char *unit,
                       double uncertainty_pct)
{
    char u[16];
    snprintf(buf, len, "%.*f%s%s %s%s", decimals, value, unit[0] ? " " : "", unit,
             nprb_uncertainty_text(u, sizeof u, uncertainty_pct),
             nprb_is_noisy(uncertainty_pct) ? " ~noisy" : "");
    return buf;
}
