/* SPDX-License-Identifier: BSD-3-Clause */
/* The row descriptors are what the file's schema is made of: every field inside its row, in
 * order, without overlap, and "rank" first in every table (the join key of the schema). And the
 * enums a row carries are parsed from its text's words, never from a word's beginning. */
#include "check.h"
#include "results/results.h"

int main(void)
{
    for (int t = 0; t < NPRB_N_TABLES; t++) {
        const struct nprb_table_desc *d = nprb_table_desc((enum nprb_table_id)t);
        CHECK(d != NULL && d->field_count > 0);
        CHECK(strcmp(d->fields[0].name, "rank") == 0);
        size_t end = 0;
        for (size_t f = 0; f < d->field_count; f++) {
            CHECK(d->fields[f].offset >= end);
            end = d->fields[f].offset + d->fields[f].size;
            CHECK(end <= d->row_bytes);
        }
    }
    struct nprb_results r;
    nprb_results_init(&r);
    for (int i = 0; i < 100; i++) {
        struct nprb_distance_row d = {.rank = i, .slit = 10};
        CHECK(nprb_results_add(&r, NPRB_TABLE_DISTANCES, &d) == 0);
    }
    CHECK(r.tables[NPRB_TABLE_DISTANCES].count == 100);
    CHECK(((struct nprb_distance_row *)r.tables[NPRB_TABLE_DISTANCES].data)[99].rank == 99);

    /* A copy (rank 0's watchdog takes one, under the rows' lock) holds every row of every table,
     * and later rows of the original stay out of it. */
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    r.lock = &lock;
    struct nprb_host_row h = {.rank = 0};
    CHECK(nprb_results_add(&r, NPRB_TABLE_HOSTS, &h) == 0);
    struct nprb_results copy;
    nprb_results_init(&copy);
    CHECK(nprb_results_copy(&copy, &r) == 0);
    CHECK(nprb_results_add(&r, NPRB_TABLE_HOSTS, &h) == 0);
    CHECK(copy.tables[NPRB_TABLE_DISTANCES].count == 100 &&
          copy.tables[NPRB_TABLE_HOSTS].count == 1);
    CHECK(((struct nprb_distance_row *)copy.tables[NPRB_TABLE_DISTANCES].data)[42].rank == 42);
    CHECK(copy.tables[NPRB_TABLE_LATENCY].count == 0 && copy.lock == NULL);
    nprb_results_free(&copy);
    nprb_results_free(&r);

    char small[4];
    nprb_copy_text(small, sizeof small, "abcdef");
    CHECK(strcmp(small, "abc") == 0);
    nprb_copy_text(small, sizeof small, NULL);
    CHECK(small[0] == '\0');

    CHECK(nprb_binding_verdict_parse("ok: CPUs 0-3 (4 of 4 allowed)") == NPRB_BINDING_OK);
    CHECK(nprb_binding_verdict_parse("narrow: CPUs 0") == NPRB_BINDING_NARROW);
    CHECK(nprb_binding_verdict_parse("widened: the launcher") == NPRB_BINDING_WIDENED);
    CHECK(nprb_binding_verdict_parse("okay: CPUs 0") == NPRB_BINDING_UNKNOWN);
    CHECK(nprb_binding_verdict_parse("ok") == NPRB_BINDING_UNKNOWN);
    CHECK(nprb_binding_verdict_parse("") == NPRB_BINDING_UNKNOWN);
    for (int c = 0; c < NPRB_N_PAIR_CLASSES; c++)
        CHECK((int)nprb_pair_class_parse(nprb_pair_class_name((enum nprb_pair_class)c)) == c);
    CHECK(nprb_pair_class_parse("locally") == NPRB_PAIR_UNKNOWN);
    return CHECK_DONE();
}
