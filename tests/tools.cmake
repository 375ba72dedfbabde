# SPDX-License-Identifier: BSD-3-Clause
# numaprobe check and numaprobe merge, on files the binary wrote (run.singleton, run.mpi4).
# Each pytest module tests/tools/test_MODULE.py is the test tools.MODULE; each of its tests makes
# its inputs in a directory of its own under ${NPRB_OUT}/tools/MODULE: corrupted copies for
# check, per-rank checkpoints split from mpi4.h5 for merge (the layout the job writes).
# Modules are grouped by the sanitizer environment their tests need (below), one per test.

# nprb_tools_test(MODULE ENV variable-name [TIMEOUT s] [FIXTURES fixture...])
function(nprb_tools_test module)
  cmake_parse_arguments(T "" "ENV;TIMEOUT" "FIXTURES" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  nprb_add_script_test(tools.${module} LABELS tools TIMEOUT ${T_TIMEOUT}
    FIXTURE_REQUIRED ${T_FIXTURES}
    COMMAND ${NPRB_TEST_PYTHON} -m pytest -q -rs -p no:cacheprovider
            ${CMAKE_CURRENT_SOURCE_DIR}/tools/test_${module}.py --exe ${NPRB_EXE}
            --results-dir ${NPRB_OUT} --work-dir ${NPRB_OUT}/tools/${module})
  set_tests_properties(tools.${module} PROPERTIES
    ENVIRONMENT "${NPRB_MPI_TEST_ENV};${${T_ENV}}")
endfunction()

# check and merge never start MPI, so under the sanitizers leaks are checked too.
nprb_tools_test(check_files ENV NPRB_SANITIZER_UNIT_ENV FIXTURES run_singleton run_mpi4)
foreach(module check_schema check_rows check_passes check_figures merge merge_paths)
  nprb_tools_test(${module} ENV NPRB_SANITIZER_UNIT_ENV FIXTURES run_mpi4)
endforeach()

# The config case runs numaprobe itself, which starts MPI: Open MPI's own leaks are not checked.
nprb_tools_test(config_not_regular ENV NPRB_SANITIZER_ENV FIXTURES outputs)
# PyTables opens every table of a job's file, a checkpoint and a merged file (a killed run of its
# own writes the checkpoint: MPI again).
nprb_tools_test(pytables ENV NPRB_SANITIZER_ENV FIXTURES run_singleton run_mpi4)

# Except for damaged files: HDF5 1.10's own error paths leak what they allocated (in libhdf5,
# not in numaprobe), and some damage crashes HDF5 itself (a wild memcpy in H5HG_read), which
# check reports from its child process. There the sanitizer must end the child by a signal
# (abort_on_error, handle_segv=0) as the crash would, rather than exit 1 after its report.
# The byte-flip sweep still fails on any sanitizer report that points into numaprobe's code (one
# whose first frame is in libhdf5, e.g. H5VM_memcpyvv overrunning on a damaged chunk, is HDF5's).
# check_damaged: test_check_flipped_bytes, test_check_hdf5_crashes, test_check_hdf5_loops;
# merge_damaged: test_merge_checkpoint_crashes_hdf5, test_merge_checkpoint_hangs_hdf5.
set(NPRB_DAMAGED_FILE_ENV
    "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:handle_segv=0:handle_abort=0"
    "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
# The byte-flip sweep runs check some 460 times: minutes under ASan.
nprb_tools_test(check_damaged ENV NPRB_DAMAGED_FILE_ENV TIMEOUT 600 FIXTURES run_mpi4)
set_tests_properties(tools.check_damaged PROPERTIES COST 500) # started early, not last
nprb_tools_test(merge_damaged ENV NPRB_DAMAGED_FILE_ENV FIXTURES run_mpi4)

nprb_cli_test(help_subcommands 0 "numaprobe merge DIR -o FILE" -- ${NPRB_EXE} --help)
set_tests_properties(cli.help_subcommands PROPERTIES LABELS "cli;tools")
