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
 * Parses a duration: a number (fraction allowed) with suffix ns, us, ms, s, min.
 * A bare number means seconds. @return 0 and sets *seconds; -1 with errno = EINVAL or ERANGE.
 */
int nprb_parse_duration(const char *text, double *seconds);

/** Writes the shortest exact form of a size ("1GiB", "1536KiB", "100B") into buf. */
void nprb_format_size(uint64_t bytes, char *buf, size_t len);

#endif
