# SPDX-License-Identifier: BSD-3-Clause
"""The version of numaprobe-report and the results schemas it reads (numaprobe-report --version).

VERSION is the project's (CMakeLists.txt, project VERSION): install.report_version fails when
the two differ.
"""

from .load import SUPPORTED_MAJOR

VERSION = "0.2.0"


def version_text():
    return f"numaprobe-report {VERSION}, reads results schema {SUPPORTED_MAJOR}.x"
