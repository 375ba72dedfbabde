/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file names.h
 * The shared shape of every name-to-enum table's message: "unknown X 'y' (expected a, b or c)".
 * Each table (kernels, patterns, policies, first-touch modes) keeps its names beside its enum and
 * builds the list of choices here, so the message always lists what the table holds.
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

#endif
