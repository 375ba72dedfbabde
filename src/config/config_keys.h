/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file config_keys.h
 * Inside the config module only (config.c, config_yaml.c, config_echo.c): the one table of
 * configuration keys and the parser of one value, which the YAML walk, --set, the echo and the
 * reference all go through.
 */
#ifndef NPRB_CONFIG_KEYS_H
#define NPRB_CONFIG_KEYS_H

#include "config/config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** The table of global keys (config.c), first in the echo and the reference, in its order. */
extern const struct config_key nprb_config_keys[];
extern const size_t nprb_config_key_count;

/*
 * Every key of a config has a number: the global table's first, then each section's keys in
 * the order the sections were added (config_section.c). Where a value came from (key_line), the
 * echo and the reference go by it.
 */

/** How many keys @p cfg has. */
size_t nprb_config_key_total(const struct nprb_config *cfg);

/** Key number @p i of @p cfg; its dotted name ("page_size.size") into @p name. */
const struct config_key *nprb_config_key_at(const struct nprb_config *cfg, size_t i, char *name,
                                            size_t len);

/** The number of the key called @p name (dotted), or -1. */
long nprb_config_key_index(const struct nprb_config *cfg, const char *name);

/** Where key number @p i keeps its value in @p cfg. */
void *nprb_config_key_field(const struct nprb_config *cfg, size_t i);

/** Whether @p key takes a list (YAML sequence or comma list). */
bool nprb_config_key_is_list(const struct config_key *key);

/**
 * Parses @p text for key number @p i into @p cfg. @return 0, or -1 with what was expected
 * in @p err (text quoted as given: escape it before printing).
 */
int nprb_config_key_assign(struct nprb_config *cfg, size_t i, const char *text, char *err,
                           size_t errlen);

/**
 * Makes the message in @p msg safe for a terminal and one line long: control characters (C0,
 * DEL and the C1 range U+0080..U+009F, which terminals also obey) become \n, \r, \t or \xNN /
 * \u00NN, a backslash stays itself. Truncates at @p len like snprintf.
 */
void nprb_config_escape(char *msg, size_t len);

/** Formats a config error into @p err (the messages of config.c and config_yaml.c). */
void nprb_config_fmt_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
