# SPDX-License-Identifier: BSD-3-Clause
# Binary packages with CPack: a .deb, and an .rpm where rpmbuild is installed. Their run-time
# dependencies come from packaging/dependencies.txt (the one table of dependencies); on Debian
# dpkg-shlibdeps adds the library packages the executable really links (the rows marked shlibs).
#   cpack -G DEB --config build/dev/CPackConfig.cmake     (packaging.deb builds, installs, runs
#                                                          and removes it)
file(STRINGS "${PROJECT_SOURCE_DIR}/packaging/dependencies.txt" _rows REGEX "^[a-z]")
# An edited table reconfigures the build, so the next cpack lists what it says.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             "${PROJECT_SOURCE_DIR}/packaging/dependencies.txt")
set(_deb)
set(_rpm)
set(_deb_recommends)
set(_rpm_recommends)
foreach(_row IN LISTS _rows)
  string(REPLACE "|" ";" _cols "${_row}")
  list(TRANSFORM _cols STRIP)
  # A row of the analysis (Spack's "when=+analysis") is no dependency of a build without it.
  list(GET _cols 4 _spack)
  if(NOT NPRB_ANALYSIS AND _spack MATCHES "when=\\+analysis")
    continue()
  endif()
  list(GET _cols 2 _debian)
  list(GET _cols 3 _redhat)
  string(REPLACE "," ";" _debian "${_debian}")
  list(REMOVE_ITEM _debian "-" "shlibs")
  # PACKAGE:recommends: one feature needs it (numaprobe-report's YAML references), the rest not.
  foreach(_pkg IN LISTS _debian)
    if(_pkg MATCHES "^(.*):recommends$")
      list(APPEND _deb_recommends ${CMAKE_MATCH_1})
    else()
      list(APPEND _deb ${_pkg})
    endif()
  endforeach()
  if(_redhat MATCHES "^(.*):recommends$")
    list(APPEND _rpm_recommends ${CMAKE_MATCH_1})
  elseif(NOT _redhat STREQUAL "-")
    list(APPEND _rpm ${_redhat})
  endif()
endforeach()
list(JOIN _deb ", " _deb)
list(JOIN _rpm ", " _rpm)
list(JOIN _deb_recommends ", " _deb_recommends)
list(JOIN _rpm_recommends ", " _rpm_recommends)

set(CPACK_PACKAGE_NAME numaprobe)
set(CPACK_PACKAGE_VENDOR "the numaprobe authors")
set(CPACK_PACKAGE_CONTACT "${NPRB_PACKAGE_MAINTAINER}") # cmake/NprbInstall.cmake
# Debian policy: a synopsis under 80 characters, description lines under 80.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "fleet-wide NUMA memory benchmark: latency and bandwidth of every node")
set(CPACK_PACKAGE_DESCRIPTION
    "numaprobe measures how memory behaves on every host of a cluster in one MPI\n\
job (NUMA latency and bandwidth matrices, cache curves, thread scaling, page\n\
placement verified) and writes all results to one HDF5 file; numaprobe-report\n\
reads them and points out the hosts that fall out of line.")
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_FILE_NAME_DEFAULT ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# A Debian revision makes the package non-native, as its changelog.Debian.gz says it is
# (packaging/changelog.in writes the same version).
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${_deb}")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "${_deb_recommends}")
# What the package puts in /etc/numaprobe (cmake/NprbInstall.cmake) is a conffile: dpkg keeps a
# site's edits on upgrade and asks before replacing them, and removes them only on purge.
list(TRANSFORM NPRB_SITE_FILES REPLACE "^.*/" "${NPRB_SITE_CONFDIR}/" OUTPUT_VARIABLE _conffiles)
list(JOIN _conffiles "\n" _lines)
file(WRITE "${PROJECT_BINARY_DIR}/installed/deb/conffiles" "${_lines}\n")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA "${PROJECT_BINARY_DIR}/installed/deb/conffiles")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# The package's architecture is the one its binary runs on, as dpkg names it (amd64, arm64): the
# build machine's for a native build, the target triplet's for a cross build, which dpkg-architecture
# translates. Left to itself CPack would name the build machine's architecture in both cases.
find_program(NPRB_DPKG dpkg)
find_program(NPRB_DPKG_ARCHITECTURE dpkg-architecture)
if(CMAKE_CROSSCOMPILING AND NPRB_DPKG_ARCHITECTURE AND CMAKE_C_LIBRARY_ARCHITECTURE)
  execute_process(COMMAND ${NPRB_DPKG_ARCHITECTURE} -qDEB_HOST_ARCH -t ${CMAKE_C_LIBRARY_ARCHITECTURE}
                  OUTPUT_VARIABLE CPACK_DEBIAN_PACKAGE_ARCHITECTURE OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET)
elseif(NOT CMAKE_CROSSCOMPILING AND NPRB_DPKG)
  execute_process(COMMAND ${NPRB_DPKG} --print-architecture
                  OUTPUT_VARIABLE CPACK_DEBIAN_PACKAGE_ARCHITECTURE OUTPUT_STRIP_TRAILING_WHITESPACE)
endif()
find_program(NPRB_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(CMAKE_CROSSCOMPILING)
  # dpkg-shlibdeps looks the libraries up among the build machine's installed packages, which
  # hold none of the target's.
  message(STATUS "cross build: the .deb names its library dependencies from the table only")
elseif(NPRB_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  message(STATUS "dpkg-shlibdeps not found (Debian: dpkg-dev): the .deb would lack its library "
                 "dependencies")
endif()

set(CPACK_RPM_FILE_NAME RPM-DEFAULT)
set(CPACK_RPM_PACKAGE_LICENSE BSD-3-Clause)
set(CPACK_RPM_PACKAGE_GROUP "Applications/System")
set(CPACK_RPM_PACKAGE_REQUIRES "${_rpm}")
set(CPACK_RPM_PACKAGE_SUGGESTS "${_rpm_recommends}")
# RHEL's Open MPI lives under /usr/lib64/openmpi, outside the loader's path: automatic library
# requirements would name files no package provides by that path. The table names the packages.
set(CPACK_RPM_PACKAGE_AUTOREQ OFF)
# The same files as the .deb's conffiles, kept on upgrade (never built here: no rpmbuild).
list(TRANSFORM _conffiles PREPEND "%config(noreplace) " OUTPUT_VARIABLE _rpm_config)
set(CPACK_RPM_USER_FILELIST ${_rpm_config})

set(CPACK_GENERATOR DEB)
find_program(NPRB_RPMBUILD rpmbuild)
if(NPRB_RPMBUILD)
  list(APPEND CPACK_GENERATOR RPM)
endif()
set(CPACK_SOURCE_GENERATOR TGZ)
set(CPACK_SOURCE_IGNORE_FILES "/build[^/]*/" "/\\\\.git/" "__pycache__")
include(CPack)
