# SPDX-License-Identifier: BSD-3-Clause
# Test registration helpers. Every test program returns 0 (pass), non-zero (fail) or 77 (skip).

# The launcher line for MPI tests comes from FindMPI (MPIEXEC_EXECUTABLE, MPIEXEC_NUMPROC_FLAG,
# MPIEXEC_PREFLAGS); we only add what tests on a small shared machine need: more ranks than cores,
# no launcher binding (numaprobe checks and reports binding itself; a test of that passes its own
# flags), and permission to run as root in containers and CI.
execute_process(COMMAND "${MPIEXEC_EXECUTABLE}" --version OUTPUT_VARIABLE _nprb_mpiexec_version
                ERROR_QUIET)
if(_nprb_mpiexec_version MATCHES "Open MPI|OpenRTE")
  set(NPRB_MPIEXEC_TEST_FLAGS --oversubscribe --bind-to none)
  set(NPRB_MPI_TEST_ENV OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
      OMPI_MCA_btl_vader_single_copy_mechanism=none)
endif()

set(NPRB_TEST_PYTHON /usr/bin/python3 CACHE FILEPATH
    "Python with h5py, pandas, pytest (Debian's python3-* packages)")

# Sanitizer runs: MPI and hwloc keep memory until exit on purpose, so leaks are checked only in
# the unit tests that do not start MPI.
if(NPRB_SANITIZE)
  set(NPRB_SANITIZER_ENV "ASAN_OPTIONS=detect_leaks=0:abort_on_error=0"
      "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
  set(NPRB_SANITIZER_UNIT_ENV "ASAN_OPTIONS=detect_leaks=1"
      "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
endif()

# nprb_add_unit_test(NAME SOURCES... [ARGS args...])
function(nprb_add_unit_test name)
  cmake_parse_arguments(T "" "" "SOURCES;ARGS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE numaprobe_core)
  nprb_target_warnings(${name})
  nprb_target_sanitize(${name})
  add_test(NAME unit.${name} COMMAND ${name} ${T_ARGS})
  set_tests_properties(unit.${name} PROPERTIES LABELS unit SKIP_RETURN_CODE 77
                       ENVIRONMENT "${NPRB_SANITIZER_UNIT_ENV}" TIMEOUT 120)
endfunction()

# nprb_add_mpi_test(NAME NPROCS n [THREADS t] [FIXTURE f] [LABELS l...] COMMAND exe args...)
# Registers `${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} n ${MPIEXEC_PREFLAGS} exe
# ${MPIEXEC_POSTFLAGS} args`. FIXTURE makes the run the setup of a fixture that check tests
# require.
function(nprb_add_mpi_test name)
  cmake_parse_arguments(T "" "NPROCS;THREADS;FIXTURE" "LABELS;COMMAND" ${ARGN})
  if(NOT T_THREADS)
    set(T_THREADS 1)
  endif()
  list(POP_FRONT T_COMMAND exe)
  add_test(NAME ${name}
           COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${T_NPROCS}
                   ${NPRB_MPIEXEC_TEST_FLAGS} ${MPIEXEC_PREFLAGS} ${exe} ${MPIEXEC_POSTFLAGS}
                   ${T_COMMAND})
  set_tests_properties(${name} PROPERTIES
    LABELS "mpi;${T_LABELS}" PROCESSORS ${T_NPROCS} TIMEOUT 300 SKIP_RETURN_CODE 77
    ENVIRONMENT "OMP_NUM_THREADS=${T_THREADS};${NPRB_MPI_TEST_ENV};${NPRB_SANITIZER_ENV}")
  if(T_FIXTURE)
    set_tests_properties(${name} PROPERTIES FIXTURES_SETUP ${T_FIXTURE})
  endif()
endfunction()

# nprb_add_script_test(NAME [FIXTURE_REQUIRED f] [FIXTURE_SETUP f] [LABELS l...] [TIMEOUT s]
#                      COMMAND cmd args...)
function(nprb_add_script_test name)
  cmake_parse_arguments(T "" "FIXTURE_SETUP;TIMEOUT" "FIXTURE_REQUIRED;LABELS;COMMAND" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  add_test(NAME ${name} COMMAND ${T_COMMAND})
  set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}" TIMEOUT ${T_TIMEOUT}
    SKIP_RETURN_CODE 77
    ENVIRONMENT "${NPRB_MPI_TEST_ENV};${NPRB_SANITIZER_ENV}")
  if(T_FIXTURE_REQUIRED)
    set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED "${T_FIXTURE_REQUIRED}")
  endif()
  if(T_FIXTURE_SETUP)
    set_tests_properties(${name} PROPERTIES FIXTURES_SETUP "${T_FIXTURE_SETUP}")
  endif()
endfunction()
