/* SPDX-License-Identifier: BSD-3-Clause */
/* The results-file contract (results/contract.h): every root attribute once, of a type the
 * writer has, every column described, the added columns known, and the writer refusing a root
 * attribute the contract does not name, or names with another type. */
#include "check.h"
#include "results/contract.h"
#include "results/h5out.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

int main(void)
{
    size_t count = 0;
    const struct nprb_root_attr *attrs = nprb_root_attrs(&count);
    CHECK(count > 0);
    for (size_t i = 0; i < count; i++) {
        CHECK(attrs[i].type == NPRB_ATTR_TEXT || attrs[i].type == NPRB_ATTR_INT);
        CHECK(attrs[i].description != NULL && attrs[i].description[0] != '\0');
        CHECK(nprb_root_attr_named(attrs[i].name) == &attrs[i]); /* no name twice */
    }
    CHECK(nprb_root_attr_named("run_id")->since_minor == 5);
    CHECK(nprb_root_attr_named("checkpoint_rank")->scope == NPRB_ATTR_CHECKPOINT);
    CHECK(nprb_root_attr_named("no_such_attribute") == NULL);

    for (int t = 0; t < NPRB_N_TABLES; t++) {
        const struct nprb_table_desc *d = nprb_table_desc((enum nprb_table_id)t);
        CHECK(d->description != NULL && d->description[0] != '\0');
        for (size_t f = 0; f < d->field_count; f++)
            if (d->fields[f].description == NULL || d->fields[f].description[0] == '\0') {
                fprintf(stderr, "/%s.%s has no description\n", d->name, d->fields[f].name);
                CHECK(0);
            }
    }
    const struct nprb_table_desc *nodes = nprb_table_desc(NPRB_TABLE_NUMA_NODES);
    const struct nprb_table_desc *lat = nprb_table_desc(NPRB_TABLE_LATENCY);
    CHECK(nprb_table_field(nodes, "free_bytes")->since_minor == 4);
    CHECK(nprb_table_field(lat, "rank")->since_minor == 0);
    CHECK(strcmp(nprb_table_field(lat, "latency_ns_median")->unit, "ns") == 0);
    CHECK(nprb_table_field(lat, "pattern")->unit == NULL);
    CHECK(nprb_table_field(lat, "passes")->absent == 1); /* an older file measured once */
    CHECK(isnan(nprb_table_field(lat, "uncertainty_pct")->absent));
    CHECK(nprb_table_field(lat, "no_such_column") == NULL);
    CHECK(nprb_table_desc(NPRB_TABLE_COUNTERS)->since_minor == 7);
    CHECK(nprb_schema_minor(NPRB_SCHEMA_VERSION) >= 5);
    CHECK(nprb_schema_minor("99.1.0") == -1 && nprb_schema_minor(NULL) == -1);

    char path[256], err[512];
    const char *tmp = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/nprb-test-contract-%d.h5", tmp ? tmp : "/tmp", (int)getpid());
    struct nprb_h5 *h5 = NULL;
    CHECK(nprb_h5_create(&h5, path, err, sizeof err) == 0);
    if (h5 != NULL) {
        CHECK(nprb_h5_attr_text(h5, "schema", NPRB_SCHEMA_NAME) == 0);
        CHECK(nprb_h5_attr_int(h5, "world_size", 1) == 0);
        CHECK(nprb_h5_attr_text(h5, "no_such_attribute", "x") == -1);
        CHECK(nprb_h5_attr_int(h5, "schema", 1) == -1);
        nprb_h5_discard(h5);
    }
    return CHECK_DONE();
}
