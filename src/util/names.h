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

#endif
