/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: the config parser (YAML text and --set assignments).
 *
 * Input: YAML text, or, when it starts with '=', one --set assignment per line. Besides "does not
 * crash", it checks a property: a config that loads is echoed (nprb_config_to_yaml, the text
 * stored in every results file), and the echo must load again into the same values and echo
 * identically; a config that cannot be written back as it was read would make the stored config
 * a lie. */
#include "config/config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void forget_origin(struct nprb_config *cfg)
{
    memset(cfg->source, 0, sizeof cfg->source);
    memset(cfg->key_line, 0, sizeof cfg->key_line);
}

/* Checks the echo round trip of @p cfg; aborts (a finding) when it does not hold. */
static void check_round_trip(const struct nprb_config *cfg)
{
    static char echo[NPRB_CONFIG_TEXT_MAX], again[NPRB_CONFIG_TEXT_MAX];
    char err[512];
    struct nprb_config reloaded;
    nprb_config_to_yaml(cfg, echo, sizeof echo);
    nprb_config_defaults(&reloaded);
    if (nprb_config_load_text(&reloaded, echo, "echo", err, sizeof err) != 0) {
        fprintf(stderr, "the echo of a valid config does not load: %s\n%s", err, echo);
        abort();
    }
    /* Where each value came from (file, line, --set) is not a value: compare the values. */
    struct nprb_config original = *cfg;
    forget_origin(&original);
    forget_origin(&reloaded);
    if (memcmp(&original, &reloaded, sizeof reloaded) != 0) {
        size_t at = 0;
        while (((const unsigned char *)&original)[at] == ((const unsigned char *)&reloaded)[at])
            at++;
        fprintf(stderr,
                "the echo does not load as the config it was written from (byte %zu of struct "
                "nprb_config differs):\n%s",
                at, echo);
        abort();
    }
    nprb_config_to_yaml(&reloaded, again, sizeof again);
    if (strcmp(echo, again) != 0) {
        fprintf(stderr, "the echo changes when loaded again:\n%s---\n%s", echo, again);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0; /* the parser's limit is 1 MiB; longer inputs only slow the search */
    char *text = malloc(size + 1);
    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
#ifdef NPRB_FUZZ_PLANTED_CRASH
    /* fuzz/run --selftest: proves that a finding fails the run. */
    if (strstr(text, "planted-crash") != NULL)
        abort();
#endif
    struct nprb_config cfg;
    char err[512];
    nprb_config_defaults(&cfg);
    int rc = 0;
    if (size > 0 && text[0] == '=') {
        for (char *line = text + 1, *next; line != NULL && rc == 0; line = next) {
            next = strchr(line, '\n');
            if (next != NULL)
                *next++ = '\0';
            rc = nprb_config_set(&cfg, line, err, sizeof err);
        }
    } else {
        rc = nprb_config_load_text(&cfg, text, "fuzz.yaml", err, sizeof err);
    }
    if (rc == 0)
        check_round_trip(&cfg);
    else if (strlen(err) == 0)
        abort(); /* every refusal must say why */
    free(text);
    return 0;
}
