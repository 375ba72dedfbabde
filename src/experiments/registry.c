/* SPDX-License-Identifier: BSD-3-Clause */
/* The registry: the descriptors of the one list of experiments (results/experiment_list.h), in
 * its order, which is the order a run makes them and the order of the config's sections and the
 * stdout report's; and the check, on every start, that each descriptor is the one its line
 * names. */
#include "experiments/registry.h"

#include "report/report.h"

#include <stdbool.h>
#include <string.h>

#define DECLARE(id, name) extern const struct nprb_experiment nprb_exp_##name;
NPRB_EXPERIMENTS(DECLARE)
#undef DECLARE

#define POINT(id, name) &nprb_exp_##name,
const struct nprb_experiment *const nprb_experiments[] = {NPRB_EXPERIMENTS(POINT)};
#undef POINT
const size_t nprb_experiment_count = sizeof nprb_experiments / sizeof nprb_experiments[0];
_Static_assert(sizeof nprb_experiments / sizeof nprb_experiments[0] + 1 == NPRB_N_EXPERIMENT_IDS,
               "one descriptor per line of the list");

int nprb_experiments_check(const struct nprb_experiment *const *list, size_t count, char *err,
                           size_t errlen)
{
    for (size_t e = 0; e < count; e++) {
        const struct nprb_experiment *x = list[e];
        const char *name = nprb_experiment_id_name((enum nprb_experiment_id)(e + 1));
        const char *section = x->config != NULL ? x->config->name : "none";
        bool enabled = false;
        for (size_t k = 0; x->config != NULL && k < x->config->key_count; k++)
            enabled |= strcmp(x->config->keys[k].key, "enabled") == 0 &&
                       x->config->keys[k].kind->id == KIND_BOOL;
        if ((size_t)x->id != e + 1 || strcmp(section, name) != 0 || !enabled) {
            snprintf(err, errlen,
                     "internal: nprb_exp_%s, line %zu of the experiment list, has the id '%s' "
                     "and the config section '%s'%s; it needs '%s' for both and an enabled key "
                     "(NPRB_EXPERIMENT_SECTION(section, %s, ...) in its file)",
                     name, e + 1, nprb_experiment_name(x), section,
                     enabled ? "" : " with no enabled key", name, name);
            return -1;
        }
        if (x->about == NULL || x->about[0] == '\0') {
            snprintf(err, errlen,
                     "internal: nprb_exp_%s says nothing of what it measures (its descriptor's "
                     ".about, which numaprobe --experiments prints)",
                     name);
            return -1;
        }
    }
    return 0;
}

void nprb_experiments_print_about(FILE *out)
{
    fprintf(out, "| experiment | what it measures |\n|---|---|\n");
    for (size_t e = 0; e < nprb_experiment_count; e++)
        fprintf(out, "| `%s` | %s |\n", nprb_experiment_name(nprb_experiments[e]),
                nprb_experiments[e]->about);
}

int nprb_experiments_config_defaults(struct nprb_config *cfg, char *err, size_t errlen)
{
    if (nprb_experiments_check(nprb_experiments, nprb_experiment_count, err, errlen) != 0)
        return -1;
    nprb_config_defaults(cfg);
    for (size_t e = 0; e < nprb_experiment_count; e++)
        if (nprb_experiments[e]->config != NULL &&
            nprb_config_add_section(cfg, nprb_experiments[e]->config, err, errlen) != 0)
            return -1;
    /* The host's own sections after the experiments'. */
    if (nprb_config_add_section(cfg, &nprb_config_memory, err, errlen) != 0 ||
        nprb_config_add_section(cfg, &nprb_config_counters, err, errlen) != 0)
        return -1;
    return 0;
}

int nprb_experiments_only(struct nprb_config *cfg, uint64_t only, char *err, size_t errlen)
{
    for (size_t e = 0; only != 0 && e < nprb_experiment_count; e++) {
        const struct nprb_experiment *x = nprb_experiments[e];
        char key[96];
        snprintf(key, sizeof key, "%s.enabled", nprb_experiment_name(x));
        bool on = only & NPRB_EXPERIMENT_BIT(x->id);
        if (nprb_config_set_option(cfg, "--only", key, on ? "true" : "false", err, errlen) != 0)
            return -1;
    }
    return 0;
}

void nprb_experiments_report(FILE *out, const struct nprb_results *rows, uint64_t *shown)
{
    for (size_t e = 0; e < nprb_experiment_count && e < 64; e++) {
        const struct nprb_experiment *x = nprb_experiments[e];
        if (x->report != NULL && !(*shown & (UINT64_C(1) << e)) && x->report(out, rows))
            *shown |= UINT64_C(1) << e;
    }
}

void nprb_experiments_host_report(FILE *out, const struct nprb_results *rows)
{
    nprb_report_rank_head(out, rows);
    if (rows->tables[NPRB_TABLE_HOSTS].count == 0)
        return;
    for (size_t e = 0; e < nprb_experiment_count; e++)
        if (nprb_experiments[e]->host_report != NULL)
            nprb_experiments[e]->host_report(out, rows);
    nprb_report_rank_tail(out, rows);
}

int nprb_plan_build(struct nprb_plan *plan, const struct nprb_config *cfg,
                    const struct nprb_topo *topo, const struct nprb_share *share, char *err,
                    size_t errlen)
{
    memset(plan, 0, sizeof *plan);
    struct nprb_planner p = {plan, cfg, topo, share->host_rank == 0, *share, err, errlen};
    for (size_t e = 0; e < nprb_experiment_count; e++) {
        if (nprb_experiments[e]->plan(&p) != 0) {
            nprb_plan_free(plan);
            return -1;
        }
    }
    /* The headline cells again, pass after pass, after everything else: apart in time from
     * their first pass, so that their spread covers what changes over the run (a neighbour's
     * traffic), not only what changes within one burst of repetitions. */
    size_t firsts = plan->count;
    for (int pass = 1;; pass++) {
        bool more = false;
        for (size_t i = 0; i < firsts; i++) {
            struct nprb_plan_item again = plan->items[i];
            if (again.passes <= pass || again.skip_reason[0] != '\0')
                continue;
            again.pass = pass;
            again.origin = i;
            more = true;
            if (nprb_plan_add(&p, &again) != 0) {
                nprb_plan_free(plan);
                return -1;
            }
        }
        if (!more)
            return 0;
    }
}
