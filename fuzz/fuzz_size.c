/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: sizes and durations as users write them ("512MiB", "2G", "10ms"), and the
 * latency pattern names built on them ("stride:64").
 *
 * Besides "does not crash": durations and whole numbers never take hex, exponents, '+' or '_';
 * a size that parses is formatted (nprb_format_size, used by the config echo and every message)
 * and the text must parse back to the same number of bytes. */
#include "kernels/pattern.h"
#include "util/units.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char text[256];
    if (size >= sizeof text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';

    uint64_t bytes, back;
    if (nprb_parse_size(text, &bytes) == 0) {
        char formatted[32];
        nprb_format_size(bytes, formatted, sizeof formatted);
        if (nprb_parse_size(formatted, &back) != 0 || back != bytes) {
            fprintf(stderr, "'%s' = %llu B formats as '%s', which does not parse back\n", text,
                    (unsigned long long)bytes, formatted);
            abort();
        }
    }
    double seconds;
    if (nprb_parse_duration(text, &seconds) == 0 && !(seconds >= 0)) {
        fprintf(stderr, "'%s' parses as a negative or NaN duration %g\n", text, seconds);
        abort();
    }
    /* One grammar for every number (units.h): no suffix holds these, so a duration or a whole
     * number that parses never had hex, an exponent, a '+' or a '_'. */
    int64_t whole;
    if ((nprb_parse_duration(text, &seconds) == 0 || nprb_parse_integer(text, &whole) == 0) &&
        strpbrk(text, "xXeE+_") != NULL) {
        fprintf(stderr, "'%s' parses as a number with hex, an exponent, a sign or '_'\n", text);
        abort();
    }
    struct nprb_pattern pattern;
    char why[160];
    why[0] = '\0';
    if (nprb_pattern_parse(text, &pattern, why, sizeof why) != 0 && why[0] == '\0')
        abort(); /* every refusal must say why */
    return 0;
}
