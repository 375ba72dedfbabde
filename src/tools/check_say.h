/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file check_say.h
 * What `numaprobe check` says about one file, in either of its forms: a line a problem or
 * warning and a verdict line, or (--json) one JSON object holding the same texts and figures.
 * The checker finds; this says.
 */
#ifndef NPRB_CHECK_SAY_H
#define NPRB_CHECK_SAY_H

#include "tools/check.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct nprb_check_texts; /* --json: the texts said so far (jansson's, kept private) */

struct nprb_check_voice {
    const char *path;
    FILE *out;
    struct nprb_check_texts *texts; /**< NULL: lines on out */
};

/** What the verdict states besides the problems: the file's facts. */
struct nprb_check_facts {
    const char *schema_version; /**< NULL: none read */
    const char *kind;           /**< "final", "checkpoint" or "merged" */
    const char *what;           /**< the verdict line's words on the kind, e.g. ", merged from" */
    size_t ranks, problems, warnings, not_shown;
    int64_t world_size, hosts, complete;
};

/** Starts saying things of @p path in @p format on @p out. @return 0, or -1 (no memory). */
int nprb_check_voice_open(struct nprb_check_voice *v, const char *path,
                          enum nprb_check_format format, FILE *out);

/** One problem or warning, @p text made printable ASCII in place (a damaged file's bytes). */
void nprb_check_voice_say(struct nprb_check_voice *v, bool warning, char *text);

/** The verdict, after every problem; then the voice is closed. */
void nprb_check_voice_verdict(struct nprb_check_voice *v, const struct nprb_check_facts *f);

#endif
