/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file hash.h
 * The one hash of numaprobe: 64-bit FNV-1a, for marks that must stay the same across hosts,
 * compilers and releases (hardware and config fingerprints, run ids, cut file names). Not for
 * anything an attacker chooses.
 */
#ifndef NPRB_HASH_H
#define NPRB_HASH_H

#include <stddef.h>
#include <stdint.h>

/** FNV-1a's 64-bit offset basis: the hash of no bytes, where a new hash starts. */
#define NPRB_FNV1A_BASIS UINT64_C(0xcbf29ce484222325)

/** The hash @p h continued over @p len bytes of @p data (start from NPRB_FNV1A_BASIS). */
uint64_t nprb_fnv1a(uint64_t h, const void *data, size_t len);

/** FNV-1a of the string @p text, from the offset basis. */
uint64_t nprb_fnv1a_text(const char *text);

#endif
