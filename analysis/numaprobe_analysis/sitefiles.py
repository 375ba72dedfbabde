# SPDX-License-Identifier: BSD-3-Clause
"""Files a site keeps in /etc/numaprobe, found by name as `numaprobe -c NAME` finds a config
(src/config/config_find.h): `compare --references NAME`, where NAME has no '/' and no .yaml,
.yml or .json suffix and names nothing in the working directory, reads SITE_DIR/NAME.yaml, .yml or
.json, the first that exists. numaprobe ships no references, so the site's directory is the only
place searched."""

import argparse
import os

SITE_DIR = "/etc/numaprobe"
SUFFIXES = (".yaml", ".yml", ".json")


def is_name(arg):
    return bool(arg) and "/" not in arg and not arg.lower().endswith(SUFFIXES)


def references(arg):
    """The references file @p arg names (an argparse type): a path, or a file in the working
    directory, as given; a name from SITE_DIR. A name found nowhere is a usage error (exit 2)
    that says where it was looked for."""
    # Anything of that name here (a directory, a FIFO, a dangling link too) is what the user
    # meant: the reader refuses it with its own reason rather than a search elsewhere.
    if not is_name(arg) or os.path.lexists(arg):
        return arg
    for suffix in SUFFIXES:
        path = os.path.join(SITE_DIR, arg + suffix)
        if os.path.isfile(path):
            return path
    raise argparse.ArgumentTypeError(
        f"references {arg!r}: no file of that name here, and no {arg}.yaml, {arg}.yml or "
        f"{arg}.json in the site's directory {SITE_DIR}")
