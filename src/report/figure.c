/* SPDX-License-Identifier: BSD-3-Clause */
#include "report/figure.h"

#include "results/contract.h"

#include <math.h>
#include <stdio.h>

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
