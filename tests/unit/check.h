/* SPDX-License-Identifier: BSD-3-Clause */
/* A few assertion macros for the C unit tests. Each test program returns 0 (pass), 1 (fail) or
 * 77 (skipped: the machine lacks what the test needs), as CTest and automake expect. */
#ifndef NPRB_TEST_CHECK_H
#define NPRB_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
            check_failures++;                                                                      \
        }                                                                                          \
    } while (0)

#define CHECK_STR_CONTAINS(haystack, needle)                                                       \
    do {                                                                                           \
        if (strstr((haystack), (needle)) == NULL) {                                                \
            fprintf(stderr, "%s:%d: '%s' does not contain '%s'\n", __FILE__, __LINE__, (haystack), \
                    (needle));                                                                     \
            check_failures++;                                                                      \
        }                                                                                          \
    } while (0)

#define CHECK_DONE() (check_failures == 0 ? 0 : 1)

#define SKIP_TEST 77

#endif
