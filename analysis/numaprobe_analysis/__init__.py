# SPDX-License-Identifier: BSD-3-Clause
"""Analysis of numaprobe results files: loading (load), tables (tables), command line (cli)."""
