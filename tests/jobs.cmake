# SPDX-License-Identifier: BSD-3-Clause
# Job scripts, shipped configs, the config error table and the fuzz corpora.
# Included by tests/CMakeLists.txt: NPRB_EXE, NPRB_OUT, NPRB_TINY, EXPECT and the helpers of
# cmake/NprbTesting.cmake are defined there.
set(JOBS_TESTS "${CMAKE_CURRENT_SOURCE_DIR}/jobs")

# ---- config error table (tests/config_errors/cases.txt): exit 2, message, nothing written -----
set(CONFIG_ERRORS "${CMAKE_CURRENT_SOURCE_DIR}/config_errors")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${CONFIG_ERRORS}/cases.txt")
file(STRINGS "${CONFIG_ERRORS}/cases.txt" _cases REGEX "^[a-z]")
foreach(_case IN LISTS _cases)
  if(NOT _case MATCHES "^([a-z0-9_]+) *\\| *([^|]*[^| ]) *\\| *(.*)$")
    message(FATAL_ERROR "tests/config_errors/cases.txt: malformed line: ${_case}")
  endif()
  set(_name "${CMAKE_MATCH_1}")
  set(_fragment "${CMAKE_MATCH_2}")
  set(_args "${CMAKE_MATCH_3}")
  string(REPLACE "@DIR@" "${CONFIG_ERRORS}" _fragment "${_fragment}")
  string(REPLACE "@DIR@" "${CONFIG_ERRORS}" _args "${_args}")
  # The fragment is literal text: escape what extended regular expressions would read.
  string(REGEX REPLACE "([][.*+?^$(){}|\\\\])" "\\\\\\1" _pattern "${_fragment}")
  separate_arguments(_args UNIX_COMMAND "${_args}")
  nprb_add_script_test(config_errors.${_name} LABELS "cli;config_errors" TIMEOUT 60
    COMMAND ${EXPECT} 2 "${_pattern}" --forbid "config and plan ok|CPUs of node"
            --absent ${NPRB_OUT}/config-error-never.h5
            -- ${NPRB_EXE} --dry-run -o ${NPRB_OUT}/config-error-never.h5 ${_args})
endforeach()
list(LENGTH _cases _n)
if(_n LESS 30)
  message(FATAL_ERROR "tests/config_errors/cases.txt: ${_n} cases, the table promises at least 30")
endif()

# ---- hostile cases (tests/hostile/cases.txt): the documented exit code and the one error line --
set(HOSTILE "${CMAKE_CURRENT_SOURCE_DIR}/hostile")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${HOSTILE}/cases.txt")
file(STRINGS "${HOSTILE}/cases.txt" _cases REGEX "^[a-z]")
foreach(_case IN LISTS _cases)
  if(NOT _case MATCHES "^([a-z0-9_]+) *\\| *([0-9]+) *\\| *([^|]*[^| ]) *\\| *(.*)$")
    message(FATAL_ERROR "tests/hostile/cases.txt: malformed line: ${_case}")
  endif()
  set(_name "${CMAKE_MATCH_1}")
  set(_rc "${CMAKE_MATCH_2}")
  set(_fragment "${CMAKE_MATCH_3}")
  set(_command "${CMAKE_MATCH_4}")
  set(_fixtures outputs)
  if(_command MATCHES "@RESULTS@")
    list(APPEND _fixtures run_mpi4)
  endif()
  # The fragment is literal text: escape what extended regular expressions would read.
  string(REGEX REPLACE "([][.*+?^$(){}|\\\\])" "\\\\\\1" _fragment "${_fragment}")
  string(REPLACE "@NUMAPROBE@" "${NPRB_EXE}" _command "${_command}")
  string(REPLACE "@TINY@" "${NPRB_TINY}" _command "${_command}")
  string(REPLACE "@RESULTS@" "${NPRB_OUT}/mpi4.h5" _command "${_command}")
  string(REPLACE "@RECORD@" "${HOSTILE}/record-ns.sh" _command "${_command}")
  string(REPLACE "@EPILOG@" "${PROJECT_SOURCE_DIR}/jobs/epilog/numaprobe-restore" _command "${_command}")
  string(REPLACE "@REPORT@" "env NUMAPROBE_BIN=${NPRB_EXE} ${NPRB_TEST_PYTHON} ${PROJECT_SOURCE_DIR}/analysis/numaprobe-report" _command "${_command}")
  separate_arguments(_command UNIX_COMMAND "${_command}")
  nprb_add_script_test(hostile.${_name} LABELS "cli;hostile" TIMEOUT 120
    FIXTURE_REQUIRED ${_fixtures}
    COMMAND ${HOSTILE}/run-case.sh ${NPRB_OUT}/hostile/${_name} ${_rc} "${_fragment}" -- ${_command})
endforeach()
list(LENGTH _cases _n)
if(_n LESS 20)
  message(FATAL_ERROR "tests/hostile/cases.txt: ${_n} cases, the table promises at least 20")
endif()

# ---- shipped configs, the generated docs (CONFIG.md, EXPERIMENTS.md, SCHEMA.md), shellcheck --
nprb_add_script_test(jobs.shipped_configs LABELS "jobs;cli" TIMEOUT 120
  COMMAND ${JOBS_TESTS}/shipped-configs.sh ${NPRB_EXE} ${PROJECT_SOURCE_DIR})
nprb_add_script_test(jobs.config_doc LABELS "jobs;cli" TIMEOUT 60
  COMMAND ${JOBS_TESTS}/config-doc.sh ${NPRB_EXE} ${PROJECT_SOURCE_DIR}/docs/CONFIG.md)
# The experiments' table in docs/EXPERIMENTS.md is what --experiments prints, the same way.
nprb_add_script_test(docs.experiments LABELS "docs;cli" TIMEOUT 60
  COMMAND ${JOBS_TESTS}/config-doc.sh ${NPRB_EXE} ${PROJECT_SOURCE_DIR}/docs/EXPERIMENTS.md)
# The title, root attributes and column tables of docs/SCHEMA.md are made from --schema.
nprb_add_script_test(jobs.schema_doc LABELS "jobs;cli" TIMEOUT 60
  COMMAND ${NPRB_TEST_PYTHON} ${JOBS_TESTS}/schema-doc.py ${NPRB_EXE}
          ${PROJECT_SOURCE_DIR}/docs/SCHEMA.md)
# The shipped Prometheus alert rules: promtool check and test rules, and changed rules fail them.
nprb_add_script_test(jobs.prometheus_rules LABELS jobs TIMEOUT 120
  COMMAND ${JOBS_TESTS}/prometheus-rules.sh ${PROJECT_SOURCE_DIR})
nprb_add_script_test(jobs.shellcheck LABELS jobs TIMEOUT 120
  COMMAND ${JOBS_TESTS}/lint-scripts.sh ${PROJECT_SOURCE_DIR})
# Every source file names its license (BSD-3-Clause, LICENSE) in an SPDX line near its top.
nprb_add_script_test(jobs.license_lines LABELS jobs TIMEOUT 60
  COMMAND ${JOBS_TESTS}/license-lines.sh ${PROJECT_SOURCE_DIR})

# ---- job scripts under their schedulers (stand-ins) ------------------------------------------
# job_test(NAME SCHEDULER LABELS [job-test.sh options...])
function(nprb_job_test name scheduler labels)
  nprb_add_script_test(jobs.${name} LABELS "jobs;${labels}" TIMEOUT 330
    COMMAND ${JOBS_TESTS}/job-test.sh ${scheduler} --exe ${NPRB_EXE} --config ${NPRB_TINY}
            --outdir ${NPRB_OUT} ${ARGN})
  set_tests_properties(jobs.${name} PROPERTIES FIXTURES_REQUIRED outputs)
endfunction()
nprb_job_test(local local "")
nprb_job_test(lsf_3hosts lsf "lsf;fakehosts" --hosts 3)
nprb_job_test(pbs_3hosts pbs "pbs;fakehosts" --hosts 3)
# Negative control: the same LSF job checked for two ranks per host must fail.
nprb_job_test(lsf_wrong_layout_fails lsf "lsf;fakehosts" --hosts 2 --ranks-per-host 2)
set_tests_properties(jobs.lsf_wrong_layout_fails PROPERTIES WILL_FAIL TRUE)
nprb_add_script_test(fakehosts.pbs_stub_selftest LABELS "fakehosts;pbs" TIMEOUT 120
                     COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/harness/pbs/selftest.sh)
# One rank per NUMA domain (numaprobe-numa.sbatch) on the local Slurm cluster: srun binds
# --ntasks-per-node=2 ranks to locality domains; mpirun maps one rank per NUMA node (1 here).
nprb_job_test(slurm_numa_srun_2nodes slurm slurm --hosts 2 --launcher srun --ranks-per-host 2
              --script ${PROJECT_SOURCE_DIR}/jobs/slurm/numaprobe-numa.sbatch)
nprb_job_test(slurm_numa_mpirun_2nodes slurm slurm --hosts 2 --launcher mpirun
              --script ${PROJECT_SOURCE_DIR}/jobs/slurm/numaprobe-numa.sbatch)
set_tests_properties(jobs.slurm_numa_srun_2nodes jobs.slurm_numa_mpirun_2nodes PROPERTIES
                     RESOURCE_LOCK slurm)

# ---- jobs/nightly: night after night, then history, openmetrics and compare -------
# The script's logic with a stand-in sbatch (synthetic fleets; the fourth night drifts, exit 1),
# then for real on the local Slurm cluster: three nights of the tiny config on 2 nodes.
nprb_add_script_test(jobs.nightly_fake_sbatch LABELS "jobs;analysis" TIMEOUT 600
  COMMAND ${JOBS_TESTS}/nightly-test.sh --fake --exe ${NPRB_EXE} --outdir ${NPRB_OUT})
# It writes under ${NPRB_OUT}: after outputs.clean, never while it removes the directory.
# Both nightly tests take minutes: started right after the guests (COST), not last.
set_tests_properties(jobs.nightly_fake_sbatch PROPERTIES FIXTURES_REQUIRED outputs COST 500)
nprb_add_script_test(slurm.nightly_3nights LABELS "jobs;slurm;analysis" TIMEOUT 700
  COMMAND ${JOBS_TESTS}/nightly-test.sh --slurm --exe ${NPRB_EXE} --config ${NPRB_TINY}
          --outdir ${NPRB_OUT} --nights 3)
set_tests_properties(slurm.nightly_3nights PROPERTIES RESOURCE_LOCK slurm FIXTURES_REQUIRED outputs
                     COST 500)

# ---- numaprobe health: the verdicts here, NHC's check, and a drain in a real Slurm -----------
# References of this host's type from a planted fleet; 0, 1 (60% bandwidth, wrong data) and 2
# (noisy, unknown type, no references) from real checks, and NHC's die and log.
nprb_add_script_test(jobs.health_check LABELS "jobs;cli;analysis" TIMEOUT 300
  FIXTURE_REQUIRED outputs
  COMMAND ${JOBS_TESTS}/health-check.sh ${NPRB_EXE} ${NPRB_OUT}/health-check)
# jobs/slurm/numaprobe-healthcheck as the epilog of three nodes: one drained, two idle.
nprb_add_script_test(slurm.health_drain LABELS "jobs;slurm;analysis" TIMEOUT 460
  FIXTURE_REQUIRED outputs
  COMMAND ${JOBS_TESTS}/health-slurm.sh ${NPRB_EXE} ${NPRB_OUT}/health-slurm)
# Both measure and judge what they measured: alone on the machine, so that a test beside them
# does not make every figure too noisy to judge.
set_tests_properties(jobs.health_check slurm.health_drain PROPERTIES RUN_SERIAL TRUE)
set_tests_properties(slurm.health_drain PROPERTIES RESOURCE_LOCK slurm)

# ---- fuzz targets: the seed corpora replayed in every build (dev and ASan+UBSan) --------------
# fuzz/run does the timed libFuzzer search (scripts/test); here each target runs as a plain
# program over its seeds, so a seed that once crashed stays fixed.
foreach(target fuzz_config fuzz_size)
  add_executable(${target}_replay ${PROJECT_SOURCE_DIR}/fuzz/${target}.c
                 ${PROJECT_SOURCE_DIR}/fuzz/replay.c)
  target_link_libraries(${target}_replay PRIVATE numaprobe_core)
  nprb_target_warnings(${target}_replay)
  nprb_target_sanitize(${target}_replay)
endforeach()
nprb_add_script_test(fuzz.replay_config LABELS "fuzz;unit" TIMEOUT 120
  COMMAND fuzz_config_replay ${PROJECT_SOURCE_DIR}/fuzz/corpus/config ${PROJECT_SOURCE_DIR}/configs
          ${CMAKE_CURRENT_SOURCE_DIR}/configs ${CONFIG_ERRORS})
nprb_add_script_test(fuzz.replay_size LABELS "fuzz;unit" TIMEOUT 60
  COMMAND fuzz_size_replay ${PROJECT_SOURCE_DIR}/fuzz/corpus/size)

# ---- textbook capabilities: remote latency curves, one read_strided curve per stride ---------
# (unit.test_plan_sweeps, registered with the other unit tests)
# The CI fuzz step (fuzz/run in scripts/test) must fail on a finding: a planted crash proves it.
nprb_add_script_test(fuzz.run_fails_on_crash LABELS fuzz TIMEOUT 120
  COMMAND ${PROJECT_SOURCE_DIR}/fuzz/run --selftest)
