/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file utf8.h
 * Text of the system's (host names, paths, errors) that is not UTF-8, made UTF-8 one way for
 * every output that needs it (JSON with jansson refuses such text): each byte that is not part
 * of a well-formed UTF-8 sequence (RFC 3629: no overlong forms, surrogates or code points past
 * U+10FFFF) becomes the four characters `\xNN`, NN its value in lowercase hex. This is what
 * Python's `bytes.decode("utf-8", "backslashreplace")` gives, so the analysis, which decodes the
 * results file's text that way, names a host as the summary does, and two names that differ in
 * such bytes stay two.
 */
#ifndef NPRB_UTF8_H
#define NPRB_UTF8_H

#include <stdbool.h>

/** Whether @p text (NUL-terminated) is well-formed UTF-8 as above. */
bool nprb_utf8_valid(const char *text);

/**
 * @p text with every byte that is not well-formed UTF-8 written as `\xNN`, in a new string the
 * caller frees (at most four times as long). @return NULL only when out of memory.
 */
char *nprb_utf8_escaped(const char *text);

#endif
