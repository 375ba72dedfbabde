# SPDX-License-Identifier: BSD-3-Clause
"""What the checks of generated documents (analysis-doc.py, ../jobs/schema-doc.py) share: the
document is written anew with --write, or else compared with what its source makes, the first
difference shown beside the command that regenerates it."""

import sys


def settle(path, lines, made, write, regenerate, matches):
    """Writes @p made (a list of lines) over @p path when @p write; else 0 when @p lines already
    are @p made (printing @p matches), 1 with the first difference and @p regenerate if not."""
    if write:
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(made))
        return 0
    if made != lines:
        print(f"FAIL: {path} differs from what makes it; regenerate it with")
        print(f"  {sys.executable} {regenerate}")
        for old, new in zip(lines, made):
            if old != new:
                print(f"- {old[:150]}\n+ {new[:150]}")
                break
        return 1
    print(matches)
    return 0
