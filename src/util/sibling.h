/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file sibling.h
 * Names of the files numaprobe keeps beside an output (its temporary file, lock and checkpoint
 * directory) within NAME_MAX: below both the output path rules (output.c) and the writer
 * (h5out.c), which both need them.
 */
#ifndef NPRB_SIBLING_H
#define NPRB_SIBLING_H

#include <stddef.h>

/**
 * The name of a file beside @p path: @p path followed by @p suffix, or, when that file name
 * would pass NAME_MAX, the name cut short and marked with a hash of the whole name (two outputs
 * never share a sibling). @return 0, or -1 when @p len is too small.
 */
int nprb_output_sibling(const char *path, const char *suffix, char *buf, size_t len);

/**
 * The temporary name this process writes @p path under before renaming it into place: the
 * sibling "PATH.tmp-PID". @return 0, or -1 when @p len is too small.
 */
int nprb_output_temporary(const char *path, char *buf, size_t len);

#endif
