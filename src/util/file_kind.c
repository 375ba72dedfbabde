/* SPDX-License-Identifier: BSD-3-Clause */
/* Names the kind of a file that is not a regular one, for the messages that refuse it. */
#include "util/file_kind.h"

#include <stddef.h>
#include <sys/stat.h>

const char *nprb_file_kind(mode_t mode)
{
    if (S_ISREG(mode))
        return NULL;
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISLNK(mode))
        return "a symbolic link";
    return "not a regular file";
}
