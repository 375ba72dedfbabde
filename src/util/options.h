/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file options.h
 * The one command-line parser of numaprobe and its subcommands: getopt_long, with its option
 * array and the option lines of --help both made from one table of rows, so an option cannot be
 * accepted without being documented, nor documented without being accepted.
 */
#ifndef NPRB_OPTIONS_H
#define NPRB_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/** The most options one command has. */
#define NPRB_MAX_OPTIONS 32

/** One option: what getopt_long takes and what --help prints. */
struct nprb_option_row {
    const char *name; /**< long name, without the dashes */
    char short_name;  /**< 0: long only */
    const char *arg;  /**< the value's name in --help; NULL: a flag */
    const char *help;
};

struct nprb_options {
    const struct nprb_option_row *rows;
    int count;
    struct option longopts[NPRB_MAX_OPTIONS + 1];
    char shortopts[2 * NPRB_MAX_OPTIONS + 2];
    bool seen[NPRB_MAX_OPTIONS];
    bool repeatable[NPRB_MAX_OPTIONS];        /**< may be given more than once (--set) */
    const char *seen_value[NPRB_MAX_OPTIONS]; /**< the first value of each option given */
};

/** Makes getopt_long's tables from @p rows (@p count of them, at most NPRB_MAX_OPTIONS) and
 * starts a new parse at argv[1]. */
void nprb_options_init(struct nprb_options *o, const struct nprb_option_row *rows, int count);

/**
 * The next option of @p argv: its row's index, with its value in *@p value (NULL for a flag).
 * @return the index; -1 when the options are done (the operands are argv[optind] on);
 * -2 for an unknown option, one without its value, or one given twice that is not
 * repeatable (its two values named), with the message in @p err.
 */
int nprb_options_next(struct nprb_options *o, int argc, char **argv, const char **value, char *err,
                      size_t len);

/** Lets row @p row be given more than once (--set); any other option given twice is an error. */
void nprb_options_allow_repeat(struct nprb_options *o, int row);

/** The rows' lines of --help, "  -o, --output FILE   help", one an option. */
void nprb_options_print(FILE *out, const struct nprb_option_row *rows, int count);

#endif
