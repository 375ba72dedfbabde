/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file sibling.h
 * Names of the files numaprobe keeps beside an output (its temporary file, lock and checkpoint
 * directory) within NAME_MAX: below both the output path rules (output.c) and the writer
 * (h5out.c), which both need them. And the one way a small output (the summary, a host's
 * OpenMetrics file) is written whole or not at all, under its temporary name first.
 */
#ifndef NPRB_SIBLING_H
#define NPRB_SIBLING_H

#include <stddef.h>
#include <stdio.h>

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

/**
 * Writes @p path whole or not at all: @p fill writes the content to the temporary name
 * (nprb_output_temporary()), which is flushed to the disk and renamed over @p path, so a reader
 * sees the old file or the new one, never a part. With @p mode not 0 the file gets exactly that
 * mode, whatever the umask (a reader of another user, node_exporter, must read it). On failure
 * the temporary is removed and @p path left as it was. @p fill returns 0, or -1 (with errno).
 * @return 0, or -1 with errno (EIO where the failure set none).
 */
int nprb_output_replace(const char *path, int (*fill)(FILE *out, void *arg), void *arg,
                        unsigned mode);

#endif
