# SPDX-License-Identifier: BSD-3-Clause
# The distribution's hardening flags, as Debian's own packages are built: dpkg-buildflags'
# CPPFLAGS (fortify), CFLAGS (stack protector, format security) and LDFLAGS (relro, bindnow), with
# every hardening feature on. They apply to every target, so the .deb that CPack makes of this
# build passes lintian's hardening checks (packaging.deb). PIE is the compiler's default there.
#
# Left out: dpkg-buildflags' -g and -O (the build type chooses those) and its -ffile-prefix-map
# (it names the directory dpkg-buildflags ran in, not the source tree). Fortify needs an
# optimising build, so Debug builds and the sanitizer build (ASan intercepts the same functions)
# get none of it. Where dpkg-buildflags is missing (RHEL: rpm's own %cmake flags do this) or
# NPRB_HARDENING is OFF, nothing changes.
option(NPRB_HARDENING "Build with dpkg-buildflags' hardening flags where dpkg-buildflags exists"
       ON)
find_program(NPRB_DPKG_BUILDFLAGS dpkg-buildflags)
set(NPRB_HARDENING_FLAGS "")
if(NPRB_HARDENING AND NPRB_SANITIZE)
  message(STATUS "hardening: off in the sanitizer build (fortify and ASan wrap the same calls)")
elseif(NPRB_HARDENING AND NPRB_DPKG_BUILDFLAGS)
  set(_env DEB_BUILD_MAINT_OPTIONS=hardening=+all)
  # A cross build takes the target's flags (-fcf-protection is x86's, -mbranch-protection Arm's).
  find_program(NPRB_DPKG_ARCHITECTURE dpkg-architecture)
  if(CMAKE_CROSSCOMPILING AND NPRB_DPKG_ARCHITECTURE AND CMAKE_C_LIBRARY_ARCHITECTURE)
    execute_process(COMMAND ${NPRB_DPKG_ARCHITECTURE} -qDEB_HOST_ARCH -t ${CMAKE_C_LIBRARY_ARCHITECTURE}
                    OUTPUT_VARIABLE _arch OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(_arch)
      list(APPEND _env DEB_HOST_ARCH=${_arch})
    endif()
  endif()
  set(_compile)
  set(_link)
  foreach(_var CPPFLAGS CFLAGS LDFLAGS)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env ${_env} ${NPRB_DPKG_BUILDFLAGS} --get ${_var}
                    OUTPUT_VARIABLE _flags OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE _rc ERROR_VARIABLE _err)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "hardening: `dpkg-buildflags --get ${_var}` exited ${_rc}: ${_err} "
                          "(configure with -DNPRB_HARDENING=OFF to build without)")
    endif()
    separate_arguments(_flags UNIX_COMMAND "${_flags}")
    list(FILTER _flags EXCLUDE REGEX "^-(g.*|O.*|ffile-prefix-map=.*|fdebug-prefix-map=.*)$")
    if(_var STREQUAL "LDFLAGS")
      list(APPEND _link ${_flags})
    else()
      list(APPEND _compile ${_flags})
    endif()
  endforeach()
  set(NPRB_HARDENING_FLAGS ${_compile} ${_link})
  list(JOIN NPRB_HARDENING_FLAGS " " _shown)
  message(STATUS "hardening (dpkg-buildflags, not in Debug builds): ${_shown}")
  set(_optimised "$<NOT:$<CONFIG:Debug>>")
  foreach(_flag IN LISTS _compile)
    add_compile_options("$<${_optimised}:${_flag}>")
  endforeach()
  add_link_options(${_link})
elseif(NPRB_HARDENING)
  message(STATUS "hardening: dpkg-buildflags not found: the distribution's flags are not added")
endif()
