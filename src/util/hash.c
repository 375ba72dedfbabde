/* SPDX-License-Identifier: BSD-3-Clause */
/* The one hash (hash.h). */
#include "util/hash.h"

#include <string.h>

/* FNV's 64-bit prime. */
#define FNV1A_PRIME UINT64_C(0x100000001b3)

uint64_t nprb_fnv1a(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * FNV1A_PRIME;
    return h;
}

uint64_t nprb_fnv1a_text(const char *text)
{
    return nprb_fnv1a(NPRB_FNV1A_BASIS, text, strlen(text));
}
