/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file units.h
 * Sizes and durations as users write them ("512MiB", "2G", "64k", "4096", "10ms").
 */
#ifndef NPRB_UNITS_H
#define NPRB_UNITS_H

#include <stddef.h>
#include <stdint.h>

/**
 * Parses a size: a whole number with an optional binary suffix K, M, G, T (also KiB, MiB, GiB,
 * TiB, KB, MB, GB, TB, case-insensitive; all mean powers of 1024, as memory sizes do) or B.
 * Leading/trailing blanks are allowed; signs, fractions and overflow are not.
 * @return 0 and sets *bytes on success; -1 with errno = EINVAL (malformed) or ERANGE (overflow).
 */
int nprb_parse_size(const char *text, uint64_t *bytes);

/**
 * Parses a whole number: decimal digits, an optional '-', blanks around. Like sizes, refuses '+',
 * '_', exponents ("1e3"), hex ("0x10") and fractions.
 * @return 0 and sets *value; -1 with errno = EINVAL (malformed) or ERANGE (beyond int64_t).
 */
int nprb_parse_integer(const char *text, int64_t *value);

/**
 * Parses a duration: decimal digits with an optional fraction (".5", "1.25"; at most 63
 * characters) and a suffix ns, us, ms, s, min; a bare number means seconds. Refuses signs,
 * exponents, hex, inf and nan, as sizes do. @return 0 and sets *seconds; -1 with errno = EINVAL
 * (malformed) or ERANGE (too many digits).
 */
int nprb_parse_duration(const char *text, double *seconds);

/** Shortest and longest duration a config key takes: 1ns and 60min. */
#define NPRB_DURATION_MIN_S 1e-9
#define NPRB_DURATION_MAX_S 3600.0

/** Writes the shortest exact form of a size ("1GiB", "1536KiB", "100B") into buf. */
void nprb_format_size(uint64_t bytes, char *buf, size_t len);

/**
 * Writes an estimate of @p seconds as people read one: "about 40 s", "about 9 min 40 s",
 * "about 2 h 5 min" (rounded to the unit shown), "under 1 s".
 */
void nprb_format_duration_words(double seconds, char *buf, size_t len);

/** A range of estimates in those words: "about 2 min 5 s to 4 min 10 s", "under 1 s". */
void nprb_format_duration_range(double low_s, double high_s, char *buf, size_t len);

#endif
