# SPDX-License-Identifier: BSD-3-Clause
# Run by `cmake --install` (cmake/NprbInstall.cmake sets the NPRB_* variables before it): writes
# the modulefiles of this installation, Lua for Lmod and Tcl for Environment Modules, into
# PREFIX/NPRB_MODULEDIR/numaprobe/. It runs at install time because only then is the prefix
# known (`cmake --install --prefix` overrides the configured one); the modulefiles compute their
# prefix from their own place when loaded, and keep the installed one for a copy found elsewhere.
# A /usr installation (the .deb, the .rpm) gets none: its commands are on PATH already, and a
# module that put /usr/bin first would reorder every user's PATH.
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  message(STATUS "No modulefiles for a /usr installation")
  return()
endif()
foreach(_dir IN ITEMS NPRB_BINDIR NPRB_MANDIR NPRB_DATAROOT NPRB_MODULEDIR)
  if(IS_ABSOLUTE "${${_dir}}")
    message(STATUS "No modulefiles: ${${_dir}} is outside the prefix")
    return()
  endif()
endforeach()

set(NPRB_MODULE_PREFIX "${CMAKE_INSTALL_PREFIX}")
set(_out "${NPRB_MODULE_STAGING}/modulefiles/numaprobe")
file(REMOVE_RECURSE "${_out}")
set(NPRB_MODULEFILE "${NPRB_MODULEDIR}/numaprobe/${NPRB_VERSION}.lua")
configure_file("${NPRB_MODULE_TEMPLATES}/numaprobe.lua.in" "${_out}/${NPRB_VERSION}.lua" @ONLY)
set(NPRB_MODULEFILE "${NPRB_MODULEDIR}/numaprobe/${NPRB_VERSION}")
configure_file("${NPRB_MODULE_TEMPLATES}/numaprobe.tcl.in" "${_out}/${NPRB_VERSION}" @ONLY)
# file(INSTALL) adds DESTDIR, says "Installing:" and records both in install_manifest.txt.
file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/${NPRB_MODULEDIR}/numaprobe" TYPE FILE
     FILES "${_out}/${NPRB_VERSION}.lua" "${_out}/${NPRB_VERSION}")
