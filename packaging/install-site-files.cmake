# SPDX-License-Identifier: BSD-3-Clause
# Run by `cmake --install` (cmake/NprbInstall.cmake sets the NPRB_* variables before it), at
# install time because only then is the prefix known (`cmake --install --prefix` overrides the
# configured one):
# - the nightly check's systemd service, with this installation's paths, beside the job script
#   in PREFIX/NPRB_DATADIR/jobs/nightly (its timer has no path and is installed as it is);
# - for a /usr installation (the .deb, the .rpm) the site's directory /etc/numaprobe, with its
#   README and nightly.env, as GNUInstallDirs puts a /usr prefix's configuration in /etc. Any
#   other prefix leaves /etc alone: that directory is the machine's, shared by its installations.
if(IS_ABSOLUTE "${NPRB_DATADIR}" OR IS_ABSOLUTE "${NPRB_BINDIR}")
  set(_datadir "${NPRB_DATADIR}")
  set(_bindir "${NPRB_BINDIR}")
else()
  set(_datadir "${CMAKE_INSTALL_PREFIX}/${NPRB_DATADIR}")
  set(_bindir "${CMAKE_INSTALL_PREFIX}/${NPRB_BINDIR}")
endif()
set(NPRB_NIGHTLY_DIR "${_datadir}/jobs/nightly")
set(NPRB_BINDIR_FULL "${_bindir}")
configure_file("${NPRB_NIGHTLY_TEMPLATE}" "${NPRB_SITE_STAGING}/numaprobe-nightly.service" @ONLY)
# file(INSTALL) adds DESTDIR, says "Installing:" and records the file in install_manifest.txt.
file(INSTALL DESTINATION "${NPRB_NIGHTLY_DIR}" TYPE FILE
     FILES "${NPRB_SITE_STAGING}/numaprobe-nightly.service")

if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  file(INSTALL DESTINATION "${NPRB_SITE_CONFDIR}" TYPE FILE FILES ${NPRB_SITE_FILES})
else()
  message(STATUS "Nothing in ${NPRB_SITE_CONFDIR}: the prefix is not /usr")
endif()
