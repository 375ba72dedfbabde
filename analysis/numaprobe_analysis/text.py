# SPDX-License-Identifier: BSD-3-Clause
"""The one decoding of a results file's text (host names, paths, errors, notes): UTF-8, with each
byte that is not part of a well-formed UTF-8 sequence written as the four characters \\xNN, as
numaprobe's --summary-json writes it (src/util/utf8.h). "replace" would make every such byte
U+FFFD, so two hosts named apart only by such bytes would become one host, and one of them
would be dropped as the other's earlier run."""

TEXT_ERRORS = "backslashreplace"


def decode_text(value):
    """@p value (bytes from the file) as str by the rule above; anything else unchanged."""
    return value.decode("utf-8", TEXT_ERRORS) if isinstance(value, bytes) else value
