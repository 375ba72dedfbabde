/* SPDX-License-Identifier: BSD-3-Clause */
/* The one list of experiments (results/experiment_list.h) and the registry built from it: each
 * descriptor is its line of the list (id, config section, an enabled key, what it measures), a
 * list out of step is refused naming the descriptor, the names parse back into their ids, and
 * --only's set enables the named experiments and disables every other. */
#include "check.h"
#include "experiments/registry.h"
#include "results/row_ids.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static bool enabled(const struct nprb_config *cfg, enum nprb_experiment_id id)
{
    char key[96];
    snprintf(key, sizeof key, "%s.enabled", nprb_experiment_id_name(id));
    const bool *on = nprb_config_value(cfg, key);
    return on != NULL && *on;
}

int main(void)
{
    char err[512] = "";
    CHECK(nprb_experiment_count + 1 == NPRB_N_EXPERIMENT_IDS);
    CHECK(nprb_experiments_check(nprb_experiments, nprb_experiment_count, err, sizeof err) == 0);
    if (err[0] != '\0')
        fprintf(stderr, "%s\n", err);

    /* Descriptors out of the list's order: the first one out of place is named. */
    const struct nprb_experiment *swapped[NPRB_N_EXPERIMENT_IDS];
    memcpy(swapped, nprb_experiments, nprb_experiment_count * sizeof swapped[0]);
    swapped[1] = nprb_experiments[2];
    swapped[2] = nprb_experiments[1];
    CHECK(nprb_experiments_check(swapped, nprb_experiment_count, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "nprb_exp_bandwidth_matrix, line 2 of the experiment list, has the "
                            "id 'latency_sweep' and the config section 'latency_sweep'");

    /* A descriptor that says nothing of what it measures (--experiments' row) is refused. */
    struct nprb_experiment mute = *nprb_experiments[0];
    mute.about = "";
    memcpy(swapped, nprb_experiments, nprb_experiment_count * sizeof swapped[0]);
    swapped[0] = &mute;
    CHECK(nprb_experiments_check(swapped, nprb_experiment_count, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "nprb_exp_latency_matrix says nothing of what it measures");

    /* Every name of the list parses back into its id; any other name is refused, with the list. */
    for (int id = NPRB_EXPERIMENT_NONE + 1; id < NPRB_N_EXPERIMENT_IDS; id++) {
        enum nprb_experiment_id back = NPRB_EXPERIMENT_NONE;
        CHECK(nprb_experiment_parse(nprb_experiment_id_name((enum nprb_experiment_id)id), &back,
                                    err, sizeof err) == 0 &&
              (int)back == id);
    }
    enum nprb_experiment_id none;
    CHECK(nprb_experiment_parse("latency", &none, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "unknown experiment 'latency' (expected latency_matrix, "
                            "bandwidth_matrix, ");
    /* The message ends with the list's last two names, whichever they are. */
    char tail[128];
    snprintf(tail, sizeof tail, ", %s or %s)",
             nprb_experiment_id_name((enum nprb_experiment_id)(NPRB_N_EXPERIMENT_IDS - 2)),
             nprb_experiment_id_name((enum nprb_experiment_id)(NPRB_N_EXPERIMENT_IDS - 1)));
    CHECK_STR_CONTAINS(err, tail);
    CHECK(nprb_experiment_parse("-", &none, err, sizeof err) == -1);
    CHECK(NPRB_EXPERIMENT_OF(page_size) == NPRB_EXPERIMENT_PAGE_SIZE);

    /* --only: the named experiments on (even one the config turned off), every other off, as
     * --set would set them; no set leaves the config as it was. */
    static struct nprb_config cfg;
    CHECK(nprb_experiments_config_defaults(&cfg, err, sizeof err) == 0);
    CHECK(nprb_config_set(&cfg, "mlp.enabled=false", err, sizeof err) == 0);
    CHECK(nprb_experiments_only(&cfg, 0, err, sizeof err) == 0);
    CHECK(!enabled(&cfg, NPRB_EXPERIMENT_MLP) && enabled(&cfg, NPRB_EXPERIMENT_LATENCY_MATRIX));
    uint64_t only =
        NPRB_EXPERIMENT_BIT(NPRB_EXPERIMENT_MLP) | NPRB_EXPERIMENT_BIT(NPRB_EXPERIMENT_PAGE_SIZE);
    CHECK(nprb_experiments_only(&cfg, only, err, sizeof err) == 0);
    int on = 0;
    for (int id = NPRB_EXPERIMENT_NONE + 1; id < NPRB_N_EXPERIMENT_IDS; id++)
        on += enabled(&cfg, (enum nprb_experiment_id)id);
    CHECK(on == 2 && enabled(&cfg, NPRB_EXPERIMENT_MLP) &&
          enabled(&cfg, NPRB_EXPERIMENT_PAGE_SIZE));
    char origin[64];
    CHECK(strcmp(nprb_config_origin(&cfg, "latency_matrix.enabled", origin, sizeof origin),
                 "--set ") == 0);
    return CHECK_DONE();
}
