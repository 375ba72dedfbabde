/* SPDX-License-Identifier: BSD-3-Clause */
/* The one command-line parser (options.h). */
#include "util/options.h"

/* getopt_long's value for a long option: past every char, so it never meets a short one. */
static int long_value(int row)
{
    return 256 + row;
}

void nprb_options_init(struct nprb_options *o, const struct nprb_option_row *rows, int count)
{
    o->rows = rows;
    o->count = count < NPRB_MAX_OPTIONS ? count : NPRB_MAX_OPTIONS;
    size_t s = 0;
    o->shortopts[s++] = ':'; /* a missing value is ':', told apart from an unknown option */
    for (int i = 0; i < o->count; i++) {
        o->longopts[i] = (struct option){
            rows[i].name, rows[i].arg ? required_argument : no_argument, NULL, long_value(i)};
        if (rows[i].short_name) {
            o->shortopts[s++] = rows[i].short_name;
            if (rows[i].arg)
                o->shortopts[s++] = ':';
        }
    }
    o->shortopts[s] = '\0';
    for (int i = 0; i < NPRB_MAX_OPTIONS; i++) {
        o->seen[i] = o->repeatable[i] = false;
        o->seen_value[i] = NULL;
    }
    o->longopts[o->count] = (struct option){NULL, 0, NULL, 0};
    optind = 0; /* glibc: 0 starts over, forgetting a cluster a last parse left half read */
    opterr = 0;
}

int nprb_options_next(struct nprb_options *o, int argc, char **argv, const char **value, char *err,
                      size_t len)
{
    int c = getopt_long(argc, argv, o->shortopts, o->longopts, NULL);
    if (c == -1)
        return -1;
    for (int i = 0; i < o->count; i++)
        if (c == long_value(i) || (o->rows[i].short_name && c == o->rows[i].short_name)) {
            *value = o->rows[i].arg ? optarg : NULL;
            /* The last of two would win silently, or a flag would be read as a count: one rule
             * for every option of every command, as the README's exit codes promise. */
            if (o->seen[i] && !o->repeatable[i]) {
                if (o->rows[i].arg)
                    snprintf(err, len, "option --%s given twice ('%s' and '%s')", o->rows[i].name,
                             o->seen_value[i], *value);
                else
                    snprintf(err, len, "option --%s given twice", o->rows[i].name);
                return -2;
            }
            o->seen[i] = true;
            o->seen_value[i] = *value;
            return i;
        }
    if (c == ':')
        snprintf(err, len, "option %s needs a value", argv[optind - 1]);
    else
        snprintf(err, len, "unknown option '%s'", argv[optind - 1]);
    return -2;
}

void nprb_options_allow_repeat(struct nprb_options *o, int row)
{
    if (row >= 0 && row < o->count)
        o->repeatable[row] = true;
}

void nprb_options_print(FILE *out, const struct nprb_option_row *rows, int count)
{
    for (int i = 0; i < count; i++) {
        char left[64];
        const char *arg = rows[i].arg ? rows[i].arg : "";
        if (rows[i].short_name)
            snprintf(left, sizeof left, "-%c, --%s%s%s", rows[i].short_name, rows[i].name,
                     *arg ? " " : "", arg);
        else
            snprintf(left, sizeof left, "    --%s%s%s", rows[i].name, *arg ? " " : "", arg);
        fprintf(out, "  %-28s %s\n", left, rows[i].help);
    }
}
