/* SPDX-License-Identifier: BSD-3-Clause */
/* What check says about a file, as lines or as JSON (check_say.h). */
#include "tools/check_say.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>

struct nprb_check_texts {
    json_t *problems, *warnings;
};

/* A damaged file's text (or a path) can hold any byte: what check says stays printable ASCII,
 * one line, and text JSON can hold. */
static char *printable(char *text)
{
    for (char *p = text; *p != '\0'; p++)
        if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
            *p = '?';
    return text;
}

int nprb_check_voice_open(struct nprb_check_voice *v, const char *path,
                          enum nprb_check_format format, FILE *out)
{
    *v = (struct nprb_check_voice){.path = path, .out = out};
    if (format != NPRB_CHECK_JSON)
        return 0;
    v->texts = malloc(sizeof *v->texts);
    if (v->texts == NULL)
        return -1;
    v->texts->problems = json_array();
    v->texts->warnings = json_array();
    return 0;
}

void nprb_check_voice_say(struct nprb_check_voice *v, bool warning, char *text)
{
    printable(text);
    if (v->texts != NULL)
        json_array_append_new(warning ? v->texts->warnings : v->texts->problems, json_string(text));
    else
        fprintf(v->out, "check: %s: %s%s\n", v->path, warning ? "warning: " : "", text);
}

static void verdict_json(struct nprb_check_voice *v, const struct nprb_check_facts *f)
{
    char path[4096], schema[64];
    snprintf(path, sizeof path, "%s", v->path);
    snprintf(schema, sizeof schema, "%s", f->schema_version ? f->schema_version : "");
    json_t *o = json_pack(
        "{s:s, s:s, s:s, s:s?, s:I, s:I, s:I, s:I, s:O, s:O, s:I, s:I, s:I}", "path",
        printable(path), "verdict", f->problems == 0 ? "valid" : "invalid", "kind", f->kind,
        "schema_version", f->schema_version ? printable(schema) : NULL, "ranks",
        (json_int_t)f->ranks, "world_size", (json_int_t)f->world_size, "hosts",
        (json_int_t)f->hosts, "complete", (json_int_t)f->complete, "problems", v->texts->problems,
        "warnings", v->texts->warnings, "problem_count", (json_int_t)f->problems, "warning_count",
        (json_int_t)f->warnings, "not_shown", (json_int_t)f->not_shown);
    if (o != NULL) {
        json_dumpf(o, v->out, JSON_COMPACT);
        fputc('\n', v->out);
    }
    json_decref(o);
}

void nprb_check_voice_verdict(struct nprb_check_voice *v, const struct nprb_check_facts *f)
{
    if (v->texts != NULL) {
        verdict_json(v, f);
        json_decref(v->texts->problems);
        json_decref(v->texts->warnings);
        free(v->texts);
        v->texts = NULL;
    } else if (f->problems == 0) {
        fprintf(v->out,
                "check: %s: valid (schema %s, %zu of %" PRId64 " ranks, %" PRId64
                " host(s), complete=%" PRId64 "%s)%s%zu warning(s)\n",
                v->path, f->schema_version ? f->schema_version : "(none)", f->ranks, f->world_size,
                f->hosts, f->complete, f->what, f->warnings ? ", " : "; ", f->warnings);
    } else {
        fprintf(v->out, "check: %s: INVALID: %zu problem(s), %zu warning(s)\n", v->path,
                f->problems, f->warnings);
    }
}
