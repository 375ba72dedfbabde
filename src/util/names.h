/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file names.h
 * The shared shape of every name-to-enum table's message: "unknown X 'y' (expected a, b or c)".
 * Each table (kernels, patterns, policies, first-touch modes) keeps its names beside its enum and
 * builds the list of choices here, so the message always lists what the table holds. A table
 * described once (struct nprb_name_table) is also what a config key of its names points at
 * (config.h: KEY_NAME, KEY_NAMES), so that the key engine parses, echoes and documents any such
 * key with no code of its own.
 */
#ifndef NPRB_NAMES_H
#define NPRB_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/** Appends @p name to the choices in @p buf: ", name", or " or name" when @p last. */
void nprb_choice_append(char *buf, size_t len, const char *name, bool last);

/** Every row of a table, for nprb_name_find()'s @p allowed. */
#define NPRB_NAMES_ALL (~0u)

/**
 * Looks @p text up in a name table: @p count rows of @p stride bytes that each start with their
 * name (a `const char *` first: an array of names, or a table of structs whose first member is
 * the name). Rows whose bit is clear in @p allowed (at most 32 rows) are not names at all here.
 * @return the row's index; or -1, with the allowed names in @p choices: "a, b or c", or "a, b, c"
 * when @p plain_list.
 */
int nprb_name_find(const void *rows, size_t stride, size_t count, unsigned allowed,
                   const char *text, bool ignore_case, bool plain_list, char *choices,
                   size_t choices_len);

/**
 * A name-to-enum table: @p count rows of @p stride bytes, each starting with its name (a
 * `const char *`), row i naming the enum's value i; and how it reads a name and refuses one.
 */
struct nprb_name_table {
    const void *rows;
    size_t stride, count;
    unsigned allowed; /**< the rows that are names here (NPRB_NAMES_ALL: every row) */
    bool ignore_case;
    /** The refusal: "unknown WHAT 'x' (expected a, b or c)"; NULL: "expected a, b or c, got
     * 'x'", or "expected one of a, b, c, got 'x'" with @p plain_list. */
    const char *what;
    bool plain_list;
};

/**
 * Looks @p text up in @p table: its row's index (the enum's value) into *@p value.
 * @return 0, or -1 with the table's refusal in @p why.
 */
int nprb_name_parse(const struct nprb_name_table *table, const char *text, int *value, char *why,
                    size_t len);

/** The name of value @p value of @p table, or "?" for a value it has no row of. */
const char *nprb_name_of(const struct nprb_name_table *table, int value);

/** Whether row @p value of @p table is a name here (its bit of allowed). */
bool nprb_name_allowed(const struct nprb_name_table *table, int value);

#endif
