# SPDX-License-Identifier: BSD-3-Clause
"""The names a results file writes in the text columns the analysis decides on, each spelled in
this one module (docs/SCHEMA.md says what each means).

A member is its name's text: it compares, hashes and prints as that text, so a column of a
million rows is compared with `frame.status == Status.OK` as it is read, never converted row by
row; a single value is parsed with `Status.parse(text)`."""

from enum import Enum


class Name(str, Enum):
    """A name of a text column. Python 3.11's StrEnum behaves so; the analysis runs on 3.9."""

    __hash__ = str.__hash__
    __str__ = str.__str__
    __format__ = str.__format__

    @classmethod
    def parse(cls, text):
        """The member named @p text (surrounding blanks ignored), or None where the text is
        empty or names none (a name a newer binary added)."""
        try:
            return cls(str(text).strip())
        except ValueError:
            return None


class Status(Name):
    """A row's `status` (/latency, /bandwidth and the other measurement tables, /counters) and a
    rank's (/hosts, which also writes hung, running and incomplete: none of them ok)."""
    OK = "ok"
    INVALID = "invalid"
    FAILED = "failed"
    NOT_APPLICABLE = "not_applicable"


class MemPolicy(Name):
    """/latency and /bandwidth `mem_policy`: where a measurement's pages were asked to be."""
    BIND = "bind"
    INTERLEAVE = "interleave"
    PREFERRED = "preferred"
    FIRST_TOUCH = "first_touch"


class PairClass(Name):
    """/latency and /bandwidth `pair_class`: how the CPU node reaches the memory node (`-` for
    interleave; a max_bandwidth whole-run row's `mixed` where its pairs differ)."""
    LOCAL = "local"
    SAME_PACKAGE = "same_package"
    CROSS_PACKAGE = "cross_package"
    MEMORY_ONLY = "memory_only"


class CorePairClass(Name):
    """/c2c_latency `pair_class`: what two CPUs share, nearest first."""
    SMT = "smt"
    SAME_L2 = "same_l2"
    SAME_L3 = "same_l3"
    SAME_NODE = "same_node"
    SAME_PACKAGE = "same_package"
    CROSS_PACKAGE = "cross_package"


class RestoreOutcome(Name):
    """/hosts `restore_outcome` (schema 0.18.0): what a rank's start found of a setting a killed
    run left changed (src/host/balancing.h, enum nprb_recovery). Empty for a rank given up as
    hung and in older files: parse() gives None, not known."""
    NONE = "none"          # nothing left changed
    RESTORED = "restored"  # put back
    CLEARED = "cleared"    # already back; the record removed
    HELD = "held"          # a live run holds the change and puts it back itself
    FAILED = "failed"      # not put back, or not known to be back
