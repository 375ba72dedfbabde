# SPDX-License-Identifier: BSD-3-Clause
# The install layout (GNUInstallDirs) and the build facts the program needs from it: where the
# installed executable finds the shipped configs, relative to itself so that an installation can
# be moved, and the versions and compiler that --version prints (src/build_facts.h.in).
include(GNUInstallDirs)

set(NPRB_DATADIR "${CMAKE_INSTALL_DATADIR}/numaprobe")
set(NPRB_DOCDIR "${CMAKE_INSTALL_DATADIR}/doc/numaprobe")
# The analysis package is private to numaprobe-report: a libexec directory, not site-packages,
# so it never meets another Python's packages and needs no PYTHONPATH.
set(NPRB_REPORT_PKGDIR "${CMAKE_INSTALL_LIBEXECDIR}/numaprobe")
set(NPRB_PYTHON /usr/bin/python3 CACHE FILEPATH
    "Python that runs numaprobe-report (with h5py, pandas, matplotlib)")

file(RELATIVE_PATH NPRB_CONFIGS_FROM_BINDIR "${CMAKE_INSTALL_FULL_BINDIR}"
     "${CMAKE_INSTALL_FULL_DATADIR}/numaprobe/configs")
file(RELATIVE_PATH NPRB_REPORT_PKG_FROM_BINDIR "${CMAKE_INSTALL_FULL_BINDIR}"
     "${CMAKE_INSTALL_PREFIX}/${NPRB_REPORT_PKGDIR}")
file(REAL_PATH "${PROJECT_BINARY_DIR}" NPRB_BUILD_TREE)
set(NPRB_SOURCE_CONFIGS "${PROJECT_SOURCE_DIR}/configs")
set(NPRB_SOURCE_REPORT "${PROJECT_SOURCE_DIR}/analysis/numaprobe-report")
configure_file("${PROJECT_SOURCE_DIR}/src/build_facts.h.in"
               "${PROJECT_BINARY_DIR}/generated/build_facts.h" @ONLY)
