# SPDX-License-Identifier: BSD-3-Clause
# What `cmake --install` ships (GNUInstallDirs layout, cmake/NprbLayout.cmake):
#   bin/numaprobe, bin/numaprobe-report      the program and the analysis command
#   libexec/numaprobe/numaprobe_analysis/    the analysis package, private to numaprobe-report
#   share/numaprobe/configs/, jobs/          shipped configs (-c NAME) and job scripts, with the
#                                            nightly check's systemd service and timer
#   /etc/numaprobe/README, nightly.env       a /usr installation only (the .deb): the site's
#                                            directory, searched by name before the shipped configs
#   share/doc/numaprobe/                     README.md, LICENSE, docs/*.md and *.json, PACKAGING.md
#                                            (packaging/README.md), their links made for this
#                                            place, and Debian's copyright and changelog.Debian.gz
#   share/man/man1/numaprobe.1.gz, numaprobe-report.1.gz   from --help, by help2man at build
#                                            time, gzipped as Debian policy wants (man reads both)
#   share/bash-completion/completions/       completion for both commands
#   share/modulefiles/numaprobe/VERSION.lua, VERSION   the module of this prefix, for Lmod (Lua)
#                                            and Environment Modules (Tcl); none under /usr
install(TARGETS numaprobe RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")

# The analysis (numaprobe-report, its package, page and completion) needs a Python with h5py,
# pandas, matplotlib, numpy and scipy. An MPI-only installation (Spack's ~analysis) leaves it out
# and needs no Python at all.
option(NPRB_ANALYSIS "Install numaprobe-report, the analysis (needs Python and its packages)" ON)

# numaprobe-report as installed: the source tree's launcher finds the package beside itself, this
# one in NPRB_REPORT_PKGDIR, relative to bin/ so that the installation can be moved.
if(NPRB_ANALYSIS)
  configure_file("${PROJECT_SOURCE_DIR}/packaging/numaprobe-report.in"
                 "${PROJECT_BINARY_DIR}/installed/numaprobe-report" @ONLY)
  install(PROGRAMS "${PROJECT_BINARY_DIR}/installed/numaprobe-report"
          DESTINATION "${CMAKE_INSTALL_BINDIR}")
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/analysis/numaprobe_analysis"
          DESTINATION "${NPRB_REPORT_PKGDIR}" FILES_MATCHING PATTERN "*.py"
          PATTERN "__pycache__" EXCLUDE)
  install(FILES packaging/completions/numaprobe-report
          DESTINATION "${CMAKE_INSTALL_DATADIR}/bash-completion/completions")
else()
  message(STATUS "NPRB_ANALYSIS is OFF: no numaprobe-report")
endif()

install(DIRECTORY "${PROJECT_SOURCE_DIR}/configs/" DESTINATION "${NPRB_DATADIR}/configs"
        FILES_MATCHING PATTERN "*.yaml")
# The nightly service's template is written out with the prefix's paths below.
install(DIRECTORY "${PROJECT_SOURCE_DIR}/jobs/" DESTINATION "${NPRB_DATADIR}/jobs"
        USE_SOURCE_PERMISSIONS PATTERN "*.in" EXCLUDE)
# The docs lie flat in the doc directory: README.md, every docs/*.md, and packaging/README.md as
# PACKAGING.md. Their relative links are made for that place at build time
# (packaging/doc-links.cmake): one to an installed file points to it, one to a job script's
# README to share/numaprobe/jobs, and one to a file not installed (a test harness's README)
# becomes text naming the source path, so the installed docs have no dead link (docs.readme).
file(GLOB _docs RELATIVE "${PROJECT_SOURCE_DIR}" CONFIGURE_DEPENDS
     "${PROJECT_SOURCE_DIR}/docs/*.md" "${PROJECT_SOURCE_DIR}/docs/*.json")
list(PREPEND _docs README.md LICENSE packaging/README.md)
set(_names)
set(_installed_as)
foreach(_doc IN LISTS _docs)
  get_filename_component(_name "${_doc}" NAME)
  if(_doc STREQUAL "packaging/README.md")
    set(_name PACKAGING.md)
  endif()
  list(APPEND _names "${_name}")
  list(APPEND _installed_as "${_doc}=${_name}")
endforeach()
list(JOIN _installed_as "|" _installed_as)
file(RELATIVE_PATH _jobs_from_docdir "${CMAKE_INSTALL_PREFIX}/${NPRB_DOCDIR}"
     "${CMAKE_INSTALL_PREFIX}/${NPRB_DATADIR}/jobs")
set(_doc_out)
foreach(_doc _name IN ZIP_LISTS _docs _names)
  if(NOT _doc MATCHES "\\.md$")
    install(FILES "${_doc}" DESTINATION "${NPRB_DOCDIR}")
    continue()
  endif()
  add_custom_command(OUTPUT "${PROJECT_BINARY_DIR}/installed/doc/${_name}"
    COMMAND ${CMAKE_COMMAND} "-DSRC=${PROJECT_SOURCE_DIR}" "-DDOC=${_doc}"
            "-DOUT=${PROJECT_BINARY_DIR}/installed/doc/${_name}" "-DINSTALLED=${_installed_as}"
            "-DJOBS=${_jobs_from_docdir}" -P "${PROJECT_SOURCE_DIR}/packaging/doc-links.cmake"
    DEPENDS "${PROJECT_SOURCE_DIR}/${_doc}" "${PROJECT_SOURCE_DIR}/packaging/doc-links.cmake"
    VERBATIM)
  list(APPEND _doc_out "${PROJECT_BINARY_DIR}/installed/doc/${_name}")
endforeach()
add_custom_target(installed_docs ALL DEPENDS ${_doc_out})
install(FILES ${_doc_out} DESTINATION "${NPRB_DOCDIR}")

# Debian policy: a machine-readable copyright beside the docs, and a changelog, gzipped without
# a name or time stamp so that two builds of one tree give the same bytes. The maintainer goes
# into it and into the package: a site building its own .deb names itself.
set(NPRB_PACKAGE_MAINTAINER "numaprobe maintainers <numaprobe@users.noreply.github.com>"
    CACHE STRING "Maintainer of the .deb and .rpm (Name <address>)")
string(TIMESTAMP NPRB_CHANGELOG_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
configure_file("${PROJECT_SOURCE_DIR}/packaging/changelog.in"
               "${PROJECT_BINARY_DIR}/installed/changelog.Debian" @ONLY)
find_program(NPRB_GZIP gzip REQUIRED)
add_custom_command(OUTPUT "${PROJECT_BINARY_DIR}/installed/changelog.Debian.gz"
  COMMAND "${NPRB_GZIP}" -9nkf "${PROJECT_BINARY_DIR}/installed/changelog.Debian"
  DEPENDS "${PROJECT_BINARY_DIR}/installed/changelog.Debian" VERBATIM)
add_custom_target(debian_changelog ALL
                  DEPENDS "${PROJECT_BINARY_DIR}/installed/changelog.Debian.gz")
install(FILES packaging/copyright "${PROJECT_BINARY_DIR}/installed/changelog.Debian.gz"
        DESTINATION "${NPRB_DOCDIR}")

install(FILES packaging/completions/numaprobe
        DESTINATION "${CMAKE_INSTALL_DATADIR}/bash-completion/completions")

# The site's directory (/etc/numaprobe, where -c NAME and --references NAME look first) and what
# the .deb puts there, and the nightly systemd service: written at install time
# (packaging/install-site-files.cmake). The .deb marks the files in /etc as conffiles
# (cmake/NprbPackaging.cmake), so an upgrade keeps a site's edits.
set(NPRB_SITE_CONFDIR /etc/numaprobe) # NPRB_SITE_CONFDIR of src/config/config_find.h
set(NPRB_SITE_FILES "${PROJECT_SOURCE_DIR}/packaging/etc/README"
                    "${PROJECT_SOURCE_DIR}/jobs/nightly/nightly.env")
install(CODE "
  set(NPRB_DATADIR \"${NPRB_DATADIR}\")
  set(NPRB_BINDIR \"${CMAKE_INSTALL_BINDIR}\")
  set(NPRB_SITE_CONFDIR \"${NPRB_SITE_CONFDIR}\")
  set(NPRB_SITE_FILES \"${NPRB_SITE_FILES}\")
  set(NPRB_NIGHTLY_TEMPLATE \"${PROJECT_SOURCE_DIR}/jobs/nightly/numaprobe-nightly.service.in\")
  set(NPRB_SITE_STAGING \"${PROJECT_BINARY_DIR}/installed\")
  include(\"${PROJECT_SOURCE_DIR}/packaging/install-site-files.cmake\")")

# Modulefiles: written at install time, for the prefix installed into (packaging/modules/).
install(CODE "
  set(NPRB_VERSION \"${PROJECT_VERSION}\")
  set(NPRB_BINDIR \"${CMAKE_INSTALL_BINDIR}\")
  set(NPRB_MANDIR \"${CMAKE_INSTALL_MANDIR}\")
  set(NPRB_DATAROOT \"${CMAKE_INSTALL_DATADIR}\")
  set(NPRB_DATADIR \"${NPRB_DATADIR}\")
  set(NPRB_DOCDIR \"${NPRB_DOCDIR}\")
  set(NPRB_MODULEDIR \"${CMAKE_INSTALL_DATADIR}/modulefiles\")
  set(NPRB_MODULE_TEMPLATES \"${PROJECT_SOURCE_DIR}/packaging/modules\")
  set(NPRB_MODULE_STAGING \"${PROJECT_BINARY_DIR}/installed\")
  include(\"${PROJECT_SOURCE_DIR}/packaging/modules/install-modulefiles.cmake\")")

# Man pages: help2man runs each command's --help at build time, so the page is the help text of
# the program built (install.in_step checks it against --help). It reads that help through
# packaging/man/help2man-help, linked under the command's name (help2man names the page after
# the file it runs), which gives argparse's usage the form of a SYNOPSIS and turns docs/NAME into
# the installed doc (install.man_pages checks both). --version-string keeps the page free of
# this machine's build facts. Without help2man there are none, and the install tests say so.
find_program(NPRB_HELP2MAN help2man)
set(_man "${PROJECT_BINARY_DIR}/man")
set(_h2m "${PROJECT_SOURCE_DIR}/packaging/man")
set(_pages)
if(NPRB_HELP2MAN)
  add_custom_command(OUTPUT "${_man}/numaprobe.1"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${_man}/h2m"
    COMMAND ${CMAKE_COMMAND} -E create_symlink "${_h2m}/help2man-help" "${_man}/h2m/numaprobe"
    COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0
            NPRB_H2M_COMMAND=$<TARGET_FILE:numaprobe> NPRB_H2M_DOCDIR=${NPRB_DOCDIR}
            "${NPRB_HELP2MAN}" --no-info --no-discard-stderr --version-string=${PROJECT_VERSION}
            --name "fleet-wide NUMA memory benchmark" --include "${_h2m}/numaprobe.h2m"
            --output "${_man}/numaprobe.1" "${_man}/h2m/numaprobe"
    DEPENDS numaprobe "${_h2m}/numaprobe.h2m" "${_h2m}/help2man-help" VERBATIM)
  list(APPEND _pages "${_man}/numaprobe.1")
  # The report's help needs the Python it runs with, and its packages.
  set(_py_rc 1)
  if(NPRB_ANALYSIS)
    execute_process(COMMAND "${NPRB_PYTHON}" -c "import h5py, pandas, matplotlib"
                    RESULT_VARIABLE _py_rc OUTPUT_QUIET ERROR_QUIET)
    if(NOT _py_rc EQUAL 0)
      message(STATUS "${NPRB_PYTHON} lacks h5py, pandas or matplotlib: no numaprobe-report.1")
    endif()
  endif()
  if(_py_rc EQUAL 0)
    file(GLOB _report_sources CONFIGURE_DEPENDS
         "${PROJECT_SOURCE_DIR}/analysis/numaprobe_analysis/*.py")
    # Its subcommands' usages go into the SYNOPSIS too (install.man_pages: every subcommand
    # that --help names).
    add_custom_command(OUTPUT "${_man}/numaprobe-report.1"
      COMMAND ${CMAKE_COMMAND} -E make_directory "${_man}/h2m"
      COMMAND ${CMAKE_COMMAND} -E create_symlink "${_h2m}/help2man-help"
              "${_man}/h2m/numaprobe-report"
      COMMAND ${CMAKE_COMMAND} -E env PYTHONDONTWRITEBYTECODE=1
              "NPRB_H2M_COMMAND=${PROJECT_SOURCE_DIR}/analysis/numaprobe-report"
              NPRB_H2M_DOCDIR=${NPRB_DOCDIR} "NPRB_H2M_SUBCOMMANDS=compare history openmetrics references health"
              "${NPRB_HELP2MAN}" --no-info --version-string=${PROJECT_VERSION}
              --name "tables, outlier hosts and reports from numaprobe results files"
              --include "${_h2m}/numaprobe-report.h2m" --output "${_man}/numaprobe-report.1"
              "${_man}/h2m/numaprobe-report"
      DEPENDS ${_report_sources} "${_h2m}/numaprobe-report.h2m" "${_h2m}/help2man-help"
      VERBATIM)
    list(APPEND _pages "${_man}/numaprobe-report.1")
  endif()
  set(_gz)
  foreach(_page IN LISTS _pages)
    add_custom_command(OUTPUT "${_page}.gz" COMMAND "${NPRB_GZIP}" -9nkf "${_page}"
                       DEPENDS "${_page}" VERBATIM)
    list(APPEND _gz "${_page}.gz")
  endforeach()
  add_custom_target(manpages ALL DEPENDS ${_pages} ${_gz})
  install(FILES ${_gz} DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
else()
  message(STATUS "help2man not found: no man pages (Debian: apt-get install help2man)")
endif()
