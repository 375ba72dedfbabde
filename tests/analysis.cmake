# SPDX-License-Identifier: BSD-3-Clause
# ---- the analysis (analysis/): numaprobe-report on synthetic fleets and on files the binary
# wrote; included by tests/CMakeLists.txt. Python: ${NPRB_TEST_PYTHON} (Debian's). One pytest tree,
# analysis/tests, run as three tests so that they run side by side: the per-file tables
# (test_report.py), the fleet and the browser rendering (test_render.py).
set(NPRB_PYTESTS "${PROJECT_SOURCE_DIR}/analysis/tests")
set(NPRB_ANALYSIS_OUT "${NPRB_OUT}/analysis")
set(NPRB_FLEET3 "${NPRB_ANALYSIS_OUT}/fakehosts-a_1_b_1_c_1.h5")

# A 3-host fake fleet (a, b, c) of its own, so the analysis tests do not race the fakehosts
# label's run for the same file. Skipped (77) where namespaces are not permitted; the tests that
# read it then skip and say why.
nprb_add_script_test(analysis.fleet3 LABELS "analysis;fakehosts" TIMEOUT 300
  FIXTURE_SETUP analysis_fleet3
  COMMAND ${FAKEHOSTS}/numaprobe-fakehosts-test.sh --exe ${NPRB_EXE} --config ${NPRB_TINY}
          --outdir ${NPRB_ANALYSIS_OUT} --hosts a:1,b:1,c:1)
set_tests_properties(analysis.fleet3 PROPERTIES FIXTURES_REQUIRED outputs)

# A real quick run of every experiment configs/default.yaml enables (quick leaves injection and
# max_bandwidth out): the report's --json and the run's --summary-json against their schemas,
# and the host the health tests plant a fleet of (test_real_json.py, test_health.py).
set(NPRB_QUICK_ALL "${NPRB_OUT}/quick-all.h5")
nprb_add_script_test(analysis.quick_run LABELS analysis TIMEOUT 300
  FIXTURE_SETUP analysis_quick
  COMMAND ${NPRB_EXE} -c quick --set injection.enabled=true --set max_bandwidth.enabled=true
          --quiet --force -o ${NPRB_QUICK_ALL} --summary-json ${NPRB_OUT}/quick-all.json)
set_tests_properties(analysis.quick_run PROPERTIES FIXTURES_REQUIRED outputs PROCESSORS 2)

set(NPRB_ANALYSIS_ENV
  "NUMAPROBE_RESULTS=${NPRB_OUT}/singleton.h5:${NPRB_OUT}/mpi4.h5"
  "NUMAPROBE_QUICK_ALL=${NPRB_QUICK_ALL}"
  "NUMAPROBE_FLEET3=${NPRB_FLEET3}"
  "NUMAPROBE_REPORT=${PROJECT_SOURCE_DIR}/analysis/numaprobe-report"
  "NUMAPROBE_ANALYSIS_OUT=${NPRB_ANALYSIS_OUT}"
  "NUMAPROBE_BIN=${NPRB_EXE}"  # the check the report runs before it reads a file
  "NUMAPROBE_BENCH_WRITE=$<TARGET_FILE:bench_write>")  # synthetic fleets for test_scale.py

# docs/ANALYSIS.md's table of headline metrics is the experiment modules' doc rows.
nprb_add_script_test(docs.analysis_metrics LABELS "docs;analysis" TIMEOUT 60
  COMMAND ${NPRB_TEST_PYTHON} ${PROJECT_SOURCE_DIR}/tests/docs/analysis-doc.py ${PROJECT_SOURCE_DIR})

# Per-file tables, refused schema versions and documented columns on the binary's files.
nprb_add_script_test(analysis.pytest LABELS analysis FIXTURE_REQUIRED "run_singleton;run_mpi4"
  COMMAND ${NPRB_TEST_PYTHON} -m pytest -q -p no:cacheprovider ${NPRB_PYTESTS}/test_report.py)
set_tests_properties(analysis.pytest PROPERTIES ENVIRONMENT "${NPRB_ANALYSIS_ENV}")

set(NPRB_NIGHTLY_PYTESTS ${NPRB_PYTESTS}/test_history.py ${NPRB_PYTESTS}/test_openmetrics.py
    ${NPRB_PYTESTS}/test_verdicts_json.py)

# Outliers on the synthetic fleet, compare, refused files, reports on the binary's files: every
# test file the tests above and below do not run, as two tests (files before test_n, and the
# rest), so that their minutes of pytest share the two cores with the other tests rather than
# end the run on one. The glob takes a new test file into one of them.
file(GLOB NPRB_FLEET_PYTESTS CONFIGURE_DEPENDS "${NPRB_PYTESTS}/test_*.py")
foreach(elsewhere report render scale gates node_types mixed_isa health real_json history
        openmetrics verdicts_json)
  list(REMOVE_ITEM NPRB_FLEET_PYTESTS "${NPRB_PYTESTS}/test_${elsewhere}.py")
endforeach()
set(NPRB_FLEET_PYTESTS_A "")
set(NPRB_FLEET_PYTESTS_N "")
foreach(file ${NPRB_FLEET_PYTESTS})
  get_filename_component(name "${file}" NAME)
  if(name STRLESS "test_n")
    list(APPEND NPRB_FLEET_PYTESTS_A "${file}")
  else()
    list(APPEND NPRB_FLEET_PYTESTS_N "${file}")
  endif()
endforeach()
foreach(part A N)
  if(part STREQUAL A)
    set(test analysis.fleet)
  else()
    set(test analysis.fleet_n)
  endif()
  nprb_add_script_test(${test} LABELS analysis TIMEOUT 600
    FIXTURE_REQUIRED "run_singleton;run_mpi4;analysis_fleet3"
    COMMAND ${NPRB_TEST_PYTHON} -m pytest -q -rs -p no:cacheprovider ${NPRB_FLEET_PYTESTS_${part}})
  # Minutes of pytest each: started early (COST), not last.
  set_tests_properties(${test} PROPERTIES ENVIRONMENT "${NPRB_ANALYSIS_ENV}" COST 500)
endforeach()

# Gates that fail safe (a reference that cannot be evaluated, PyYAML missing, a defect of the
# command: exit 2 in one line, never a pass or a traceback) and the report's closing verdict
# line and capped outlier sentences; node types a site can act on (degraded members, hosts
# judged node by node, the reference type, hosts the gate could not judge).
nprb_add_script_test(analysis.gates LABELS analysis TIMEOUT 600
  COMMAND ${NPRB_TEST_PYTHON} -m pytest -q -rs -p no:cacheprovider ${NPRB_PYTESTS}/test_gates.py
          ${NPRB_PYTESTS}/test_node_types.py)
set_tests_properties(analysis.gates PROPERTIES ENVIRONMENT "${NPRB_ANALYSIS_ENV}")

# The loop from a fleet to its nodes' health checks: references made from a fleet planted of a
# real host (tests/tools/plant-fleet.py; this machine's quick run, and tests/data's x86 host),
# read back by compare --references; health's exit status and lines for a healthy host, one
# node's bandwidth at 60%, a type not in the references, a noisy figure, a failure beside a noisy
# figure; a type too small left out; and the JSON of the real run against the schemas.
nprb_add_script_test(analysis.health LABELS analysis TIMEOUT 600
  FIXTURE_REQUIRED analysis_quick
  COMMAND ${NPRB_TEST_PYTHON} -m pytest -q -rs -p no:cacheprovider
          ${NPRB_PYTESTS}/test_health.py ${NPRB_PYTESTS}/test_real_json.py)
set_tests_properties(analysis.health PROPERTIES ENVIRONMENT "${NPRB_ANALYSIS_ENV}")

# A fleet over time: history and drift on synthetic histories, openmetrics checked by
# promtool (CI=true passes through: there a missing promtool fails), --json against
# docs/report.schema.json.
nprb_add_script_test(analysis.history LABELS analysis TIMEOUT 600
  COMMAND ${NPRB_TEST_PYTHON} -m pytest -q -rs -p no:cacheprovider ${NPRB_NIGHTLY_PYTESTS})
set_tests_properties(analysis.history PROPERTIES ENVIRONMENT "${NPRB_ANALYSIS_ENV}")

# The HTML report in headless Chromium (screenshots land in ${NPRB_ANALYSIS_OUT}).
nprb_add_script_test(analysis.render LABELS analysis TIMEOUT 600
  FIXTURE_REQUIRED analysis_fleet3
  COMMAND ${NPRB_TEST_PYTHON} -m pytest -q -rs -p no:cacheprovider
          ${NPRB_PYTESTS}/test_render.py)
set_tests_properties(analysis.render PROPERTIES ENVIRONMENT "${NPRB_ANALYSIS_ENV}"
  SKIP_REGULAR_EXPRESSION "SKIPPED .*chromium not installed")

# A fleet of an x86 host and an Arm64 host from real runs (tests/data; the Arm64 one may be a
# fresh run: NPRB_ARM64_RESULTS=FILE in the environment, as the Arm64 CI stage sets it): two node
# types side by side with their CPU model and SIMD path, each ISA's own kernel not applicable on
# the other, outliers judged within a type, and the comparison in headless Chromium.
nprb_add_script_test(analysis.mixed_isa LABELS analysis TIMEOUT 600
  COMMAND ${NPRB_TEST_PYTHON} -m pytest -q -rs -p no:cacheprovider
          ${NPRB_PYTESTS}/test_mixed_isa.py)
set_tests_properties(analysis.mixed_isa PROPERTIES ENVIRONMENT "${NPRB_ANALYSIS_ENV}"
  SKIP_REGULAR_EXPRESSION "SKIPPED .*chromium not installed")

# Fleet scale: bench_write's synthetic fleet of 200 hosts from the singleton's file is valid, and
# the report on it renders with its long tables capped (timings in ANALYSIS.md).
nprb_add_script_test(analysis.scale LABELS analysis TIMEOUT 600 FIXTURE_REQUIRED run_singleton
  COMMAND ${NPRB_TEST_PYTHON} -m pytest -q -rs -p no:cacheprovider ${NPRB_PYTESTS}/test_scale.py)
set_tests_properties(analysis.scale PROPERTIES ENVIRONMENT "${NPRB_ANALYSIS_ENV}")
