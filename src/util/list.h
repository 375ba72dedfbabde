/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file list.h
 * The one reader of comma-separated lists (config values such as `sizes: 4KiB, 1MiB`,
 * NUMAPROBE_FAULT, perf event terms): items are read in place, with the spaces around them
 * left out, and no list is copied or cut up to read it.
 */
#ifndef NPRB_LIST_H
#define NPRB_LIST_H

#include <stdbool.h>
#include <stddef.h>

/**
 * The next item of the list at *@p cursor (start with the list itself): its first character in
 * *@p item and its length in *@p len, spaces around it left out, and *@p cursor moved past it
 * and its comma. An empty item (",," or a comma at the end) comes back with length 0, for the
 * caller to refuse or skip. @return false when the list is done; an empty list has one empty item.
 */
bool nprb_list_next(const char **cursor, const char **item, size_t *len);

/** Whether the list @p list has an item equal to @p name. */
bool nprb_list_has(const char *list, const char *name);

#endif
