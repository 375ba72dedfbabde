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

enum key_kind {
    KEY_BOOL,
    KEY_INT,
    KEY_U64,
    KEY_SIZE,
    KEY_DURATION,
    KEY_THREADS,
    KEY_THP,
    KEY_SIZES,    /* "auto" or a list of sizes */
    KEY_PATTERNS, /* a list of latency patterns */
    KEY_KERNELS,  /* a list of bandwidth kernels */
    KEY_POLICIES, /* a list of memory policies besides bind */
    KEY_PAIRS,    /* local | all */
    KEY_FROM,     /* first | every: which CPU nodes a sweep runs from */
    KEY_MODES,    /* a list of first-touch modes */
    KEY_COUNTS,   /* a list of plain whole numbers */
};

/* The policies a matrix measures besides bind (which it always measures). */
#define NPRB_EXTRA_POLICIES                                                                        \
    (NPRB_MEM_POLICY_BIT(NPRB_MEM_INTERLEAVE) | NPRB_MEM_POLICY_BIT(NPRB_MEM_PREFERRED) |          \
     NPRB_MEM_POLICY_BIT(NPRB_MEM_FIRST_TOUCH))

struct config_key {
    const char *key; /* dotted name, as in YAML nesting and --set */
    enum key_kind kind;
    size_t offset;       /* into struct nprb_config */
    const char *initial; /* built-in default, parsed like user input */
    int64_t min, max;    /* bounds for KEY_INT, KEY_SIZE (bytes), KEY_THREADS */
    const char *help;
};

/** The key table (config.c), in the order of the echo and the reference. */
extern const struct config_key nprb_config_keys[];
extern const size_t nprb_config_key_count;

/** The key called @p name (dotted), or NULL. */
const struct config_key *nprb_config_key_find(const char *name);

/** Whether @p key takes a list (YAML sequence or comma list). */
bool nprb_config_key_is_list(const struct config_key *key);

/**
 * Parses @p text for @p key into @p cfg. @return 0, or -1 with what was expected
 * in @p err (text quoted as given: escape it before printing).
 */
int nprb_config_key_assign(struct nprb_config *cfg, const struct config_key *key, const char *text,
                           char *err, size_t errlen);

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
