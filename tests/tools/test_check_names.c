/* SPDX-License-Identifier: BSD-3-Clause */
/* check's list of /c2c_latency pair classes is the writer's: every class host/core_pairs.c can
 * name is accepted, and nothing else (tools/ may not use host/, so it keeps its own copy). */
#include "../unit/check.h"
#include "host/core_pairs.h"
#include "tools/check_rows.h"

#include <stdbool.h>
#include <string.h>

int main(void)
{
    CHECK(nprb_check_pair_class_count == (size_t)NPRB_N_CORE_CLASSES);
    for (int c = 0; c < NPRB_N_CORE_CLASSES; c++) {
        const char *name = nprb_core_class_name((enum nprb_core_class)c);
        bool known = false;
        for (size_t i = 0; i < nprb_check_pair_class_count; i++)
            known = known || strcmp(nprb_check_pair_classes[i], name) == 0;
        CHECK(known);
    }
    return CHECK_DONE();
}
