# SPDX-License-Identifier: BSD-3-Clause
"""Checked numeric options: every number numaprobe-report takes on its command line parses
through number() (or tolerance(), which uses it), as an argparse type=. NaN compares false with
every limit and infinity passes every lower bound, so either would silently judge nothing; they
and values outside the option's range are a usage error instead (exit 2, naming the option)."""

import argparse
import math


def number(kind, low, high=None, low_open=False):
    """An argparse type= function: the text as @p kind (int or float), finite, at least @p low
    (greater than it where @p low_open) and at most @p high (if given), else a usage error."""
    what = "a whole number" if kind is int else "a number"
    limits = [f"> {low:g}" if low_open else f">= {low:g}"]
    if high is not None:
        limits.append(f"<= {high:g}")
    expected = f"expected {what} {' and '.join(limits)}"

    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not math.isfinite(value) or value < low \
                or (low_open and value == low) or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{text!r}: {expected}")
        return value
    return parse


PERCENT = number(float, 0)  # a relative change that counts: 0 judges every change


def tolerance(plain):
    """An argparse type= function for --tolerance: METRIC=PCT (PCT alone too where @p plain)
    -> (metric or None, pct). Whether METRIC exists is known only once the files are read."""
    form = "PCT or METRIC=PCT" if plain else "METRIC=PCT"

    def parse(text):
        key, sep, pct = text.rpartition("=")
        if (not sep and not plain) or (sep and not key.strip()):
            raise argparse.ArgumentTypeError(f"{text!r}: expected {form}")
        return (key.strip() if sep else None), PERCENT(pct)
    return parse
