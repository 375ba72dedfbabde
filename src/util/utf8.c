/* SPDX-License-Identifier: BSD-3-Clause */
/* Text made well-formed UTF-8 by escaping the bytes that are not (utf8.h). */
#include "util/utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The length of the well-formed sequence that starts at @p s, or 0 where none does. The second
 * byte's range rules out overlong forms (E0, F0), surrogates (ED) and code points past U+10FFFF
 * (F4), as RFC 3629's table does; a NUL ends the text and is outside every range. */
static size_t sequence_length(const unsigned char *s)
{
    unsigned char c = s[0], lo = 0x80, hi = 0xBF;
    size_t n;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4;
    else
        return 0;
    if (c == 0xE0)
        lo = 0xA0;
    else if (c == 0xED)
        hi = 0x9F;
    else if (c == 0xF0)
        lo = 0x90;
    else if (c == 0xF4)
        hi = 0x8F;
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    return n;
}

bool nprb_utf8_valid(const char *text)
{
    for (const unsigned char *s = (const unsigned char *)text; *s;) {
        size_t n = sequence_length(s);
        if (n == 0)
            return false;
        s += n;
    }
    return true;
}

char *nprb_utf8_escaped(const char *text)
{
    char *out = malloc(4 * strlen(text) + 1);
    if (out == NULL)
        return NULL;
    char *o = out;
    /* A byte that starts no sequence is escaped alone and the next byte is tried afresh: the
     * bytes Python's decoder reports as one bad run are escaped one by one all the same. */
    for (const unsigned char *s = (const unsigned char *)text; *s;) {
        size_t n = sequence_length(s);
        if (n == 0) {
            o += sprintf(o, "\\x%02x", *s++);
            continue;
        }
        memcpy(o, s, n);
        o += n;
        s += n;
    }
    *o = '\0';
    return out;
}
