/* SPDX-License-Identifier: BSD-3-Clause */
#include "util/names.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

void nprb_choice_append(char *buf, size_t len, const char *name, bool last)
{
    size_t used = strnlen(buf, len);
    if (used + 1 < len)
        snprintf(buf + used, len - used, "%s%s", used == 0 ? "" : last ? " or " : ", ", name);
}

int nprb_name_find(const void *rows, size_t stride, size_t count, unsigned allowed,
                   const char *text, bool ignore_case, bool plain_list, char *choices,
                   size_t choices_len)
{
    unsigned left = count < 32 ? allowed & ((1u << count) - 1) : allowed;
    choices[0] = '\0';
    for (size_t i = 0; i < count && i < 32; i++) {
        if (!(left & (1u << i)))
            continue;
        const char *name = *(const char *const *)((const char *)rows + i * stride);
        if ((ignore_case ? strcasecmp(text, name) : strcmp(text, name)) == 0)
            return (int)i;
        left &= ~(1u << i);
        nprb_choice_append(choices, choices_len, name, left == 0 && !plain_list);
    }
    return -1;
}

int nprb_name_parse(const struct nprb_name_table *table, const char *text, int *value, char *why,
                    size_t len)
{
    char choices[512];
    int i = nprb_name_find(table->rows, table->stride, table->count, table->allowed, text,
                           table->ignore_case, table->plain_list, choices, sizeof choices);
    if (i >= 0) {
        *value = i;
        return 0;
    }
    if (table->what != NULL)
        snprintf(why, len, "unknown %s '%s' (expected %s)", table->what, text, choices);
    else
        snprintf(why, len, "expected %s%s, got '%s'", table->plain_list ? "one of " : "", choices,
                 text);
    return -1;
}

const char *nprb_name_of(const struct nprb_name_table *table, int value)
{
    if (value < 0 || (size_t)value >= table->count)
        return "?";
    return *(const char *const *)((const char *)table->rows + (size_t)value * table->stride);
}

bool nprb_name_allowed(const struct nprb_name_table *table, int value)
{
    return value >= 0 && (size_t)value < table->count && value < 32 &&
           (table->allowed & (1u << value));
}
