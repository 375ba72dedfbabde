# SPDX-License-Identifier: BSD-3-Clause
# Installing like a site tool: configs by name, --version's build facts, a prefix
# installation used from anywhere (and by the Slurm job script), man pages and completion in step
# with --help, the modulefiles, the .deb, and the recipes against CMake's dependencies.
# Included by tests/CMakeLists.txt: NPRB_EXE, NPRB_OUT, NPRB_TINY, EXPECT and the helpers of
# cmake/NprbTesting.cmake are defined there.
set(INSTALL_TESTS "${CMAKE_CURRENT_SOURCE_DIR}/install")
set(NPRB_PREFIX "${NPRB_OUT}/install/prefix")
set(NPRB_REPORT_SRC "${PROJECT_SOURCE_DIR}/analysis/numaprobe-report")

# ---- configs by name, from the build tree -----------------------------------------------------
nprb_cli_test(config_by_name 0 "config and plan ok" -- ${NPRB_EXE} -c default --dry-run)
# (. for the ; that CMake would split the pattern at)
nprb_cli_test(config_name_unknown 2
  "cannot read config nosuch: No such file or directory. no shipped config of that name in .*configs \\(shipped: default, full, health, quick, textbook\\)"
  -- ${NPRB_EXE} -c nosuch --dry-run)
# A path stays a path, even when its file name is a shipped config's.
nprb_cli_test(config_path_stays_path 2 "cannot read config ./default: No such file or directory$"
              -- ${NPRB_EXE} -c ./default --dry-run)

# ---- --version: build facts; numaprobe-report's version is the project's ----------------------
nprb_add_script_test(cli.version_facts LABELS cli TIMEOUT 60
  COMMAND ${INSTALL_TESTS}/version.sh ${NPRB_EXE} ${NPRB_REPORT_SRC} ${PROJECT_VERSION})

# ---- man pages and completion in step with --help ---------------------------------------------
nprb_add_script_test(install.in_step LABELS "install;cli" TIMEOUT 60
  COMMAND ${INSTALL_TESTS}/in-step.sh ${NPRB_EXE} ${NPRB_REPORT_SRC} ${PROJECT_BINARY_DIR}/man
          ${PROJECT_SOURCE_DIR}/packaging/completions/numaprobe-report)

# ---- cmake --install into a prefix, then used from anywhere -----------------------------------
nprb_add_script_test(install.prefix LABELS "install;cli" TIMEOUT 120 FIXTURE_SETUP installed
  COMMAND ${INSTALL_TESTS}/install-prefix.sh ${PROJECT_BINARY_DIR} ${NPRB_PREFIX})
set_tests_properties(install.prefix PROPERTIES FIXTURES_REQUIRED outputs)
nprb_add_script_test(install.from_anywhere LABELS "install;cli" TIMEOUT 120
  FIXTURE_REQUIRED installed
  COMMAND ${INSTALL_TESTS}/from-anywhere.sh ${NPRB_PREFIX} ${PROJECT_VERSION})
# The installed man pages as man renders them: a SYNOPSIS, no usage line as an option term, the
# installed docs and no source path.
nprb_add_script_test(install.man_pages LABELS "install;cli" TIMEOUT 60 FIXTURE_REQUIRED installed
  COMMAND ${INSTALL_TESTS}/man-pages.sh ${NPRB_PREFIX})
# A site's configs and references in /etc/numaprobe, found by name before the shipped ones (in a
# private mount namespace: the machine's /etc is not written).
nprb_add_script_test(install.site_files LABELS "install;cli" TIMEOUT 60 FIXTURE_REQUIRED installed
  COMMAND ${INSTALL_TESTS}/site-files.sh ${NPRB_PREFIX})
# The nightly check's systemd service and timer as installed, under systemd-analyze verify.
nprb_add_script_test(install.systemd_units LABELS "install;jobs" TIMEOUT 60
  FIXTURE_REQUIRED installed COMMAND ${INSTALL_TESTS}/systemd-units.sh ${NPRB_PREFIX})
# The installed modulefiles, unedited, in a copy of the prefix moved elsewhere.
nprb_add_script_test(install.lmod_module LABELS install TIMEOUT 120 FIXTURE_REQUIRED installed
  COMMAND ${INSTALL_TESTS}/lmod-module.sh ${NPRB_PREFIX} ${NPRB_OUT}/install/modules)
# The installed Slurm script, submitted from an empty directory with only the prefix's bin/.
nprb_add_script_test(slurm.installed_from_anywhere LABELS "slurm;install" TIMEOUT 400
  FIXTURE_REQUIRED installed
  COMMAND ${INSTALL_TESTS}/slurm-installed.sh ${NPRB_PREFIX} 2)
set_tests_properties(slurm.installed_from_anywhere PROPERTIES RESOURCE_LOCK slurm)

# ---- the analysis as a Python package (analysis/pyproject.toml), installed by pip, offline -------
nprb_add_script_test(install.pip_package LABELS "install;analysis" TIMEOUT 180
  FIXTURE_REQUIRED run_singleton
  COMMAND ${INSTALL_TESTS}/pip-package.sh ${NPRB_TEST_PYTHON} ${PROJECT_SOURCE_DIR}
          ${NPRB_OUT}/install/pip ${PROJECT_VERSION} ${NPRB_OUT}/singleton.h5 ${NPRB_EXE})

# ---- the README and docs are true (tests/docs/check-docs.py) ---------------------------------
# Names, schema versions, package names and links in the checkout, and the blocks marked
# runnable, with the build's numaprobe and the checkout's numaprobe-report first on PATH.
nprb_add_script_test(docs.readme LABELS "docs;cli" TIMEOUT 300
  COMMAND ${NPRB_TEST_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/docs/check-docs.py ${PROJECT_SOURCE_DIR}
          --run-blocks --path $<TARGET_FILE_DIR:numaprobe> --path ${PROJECT_SOURCE_DIR}/analysis)
# The installed docs' links resolve in the installation (cmake --install into a prefix).
nprb_add_script_test(docs.readme_installed LABELS "docs;install" TIMEOUT 60
  FIXTURE_REQUIRED installed
  COMMAND ${NPRB_TEST_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/docs/check-docs.py ${PROJECT_SOURCE_DIR}
          --installed ${NPRB_PREFIX})
# The checker finds each kind of fault planted in docs of its own, and passes them without.
nprb_add_script_test(docs.readme_selftest LABELS docs TIMEOUT 60
  COMMAND ${NPRB_TEST_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/docs/check-docs.py --self-test)

# ---- packages ---------------------------------------------------------------------------------
nprb_add_script_test(packaging.recipes LABELS packaging TIMEOUT 60
  COMMAND ${NPRB_TEST_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/packaging/check_recipes.py
          ${PROJECT_SOURCE_DIR})
# -DNPRB_ANALYSIS=OFF (Spack's ~analysis): configured, not built; nothing of the analysis left.
nprb_add_script_test(packaging.analysis_off LABELS packaging TIMEOUT 120
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/packaging/analysis-off.sh ${CMAKE_COMMAND} ${PROJECT_SOURCE_DIR}
          ${PROJECT_BINARY_DIR} ${NPRB_OUT}/analysis-off)
set_tests_properties(packaging.analysis_off PROPERTIES FIXTURES_REQUIRED outputs)
# Installs system-wide (/usr) for a moment: alone, so that no other test meets /usr/bin/numaprobe.
nprb_add_script_test(packaging.deb LABELS packaging TIMEOUT 300
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/packaging/deb.sh ${CMAKE_CPACK_COMMAND} ${PROJECT_BINARY_DIR}
          ${NPRB_OUT}/deb ${NPRB_TINY})
set_tests_properties(packaging.deb PROPERTIES RUN_SERIAL TRUE FIXTURES_REQUIRED outputs)
