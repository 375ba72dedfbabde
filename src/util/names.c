/* SPDX-License-Identifier: BSD-3-Clause */
#include "util/names.h"

#include <stdio.h>
#include <string.h>

void nprb_choice_append(char *buf, size_t len, const char *name, bool last)
{
    size_t used = strnlen(buf, len);
    if (used + 1 < len)
        snprintf(buf + used, len - used, "%s%s", used == 0 ? "" : last ? " or " : ", ", name);
}
