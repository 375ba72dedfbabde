# SPDX-License-Identifier: BSD-3-Clause
# numaprobe check and numaprobe merge, on files the binary wrote (run.singleton, run.mpi4).
# Each case of tests/tools/tools_test.py makes its inputs in its own directory: corrupted copies
# for check, per-rank checkpoints split from mpi4.h5 for merge (the layout the job writes).
set(NPRB_TOOLS_TEST ${NPRB_TEST_PYTHON} "${CMAKE_CURRENT_SOURCE_DIR}/tools/tools_test.py")

# nprb_tools_test(CASE SOURCE_FILE_STEM [NAME test-name])
function(nprb_tools_test case stem)
  cmake_parse_arguments(T "" "NAME" "" ${ARGN})
  if(NOT T_NAME)
    set(T_NAME ${case})
  endif()
  nprb_add_script_test(tools.${T_NAME} LABELS tools TIMEOUT 300 FIXTURE_REQUIRED run_${stem}
    COMMAND ${NPRB_TOOLS_TEST} ${case} --exe ${NPRB_EXE} --src ${NPRB_OUT}/${stem}.h5
            --work ${NPRB_OUT}/tools/${T_NAME})
  # check and merge never start MPI, so under the sanitizers leaks are checked too.
  set_tests_properties(tools.${T_NAME} PROPERTIES
    ENVIRONMENT "${NPRB_MPI_TEST_ENV};${NPRB_SANITIZER_UNIT_ENV}")
endfunction()

nprb_tools_test(check_valid singleton NAME check_valid_singleton)
nprb_tools_test(check_valid mpi4 NAME check_valid_mpi4)
foreach(case
        check_truncated check_not_hdf5 check_usage check_flipped_bytes check_hdf5_crashes
        check_hdf5_loops check_rank_not_in_hosts check_missing_column check_wrong_type
        check_major_version check_minor_version check_missing_table check_missing_attribute
        check_nan_in_ok_row check_fraction_range check_unknown_status check_placement_missing
        check_hosts_row_missing check_host_counts check_orphan_and_duplicate_rows
        check_hung_rank check_checkpoint check_several_files check_not_regular
        check_older_minor check_minor_6 check_counter_rows check_unusual_files config_not_regular
        merge_full merge_rank_missing merge_many_missing merge_rank_unfinished
        merge_unreadable_checkpoint merge_checkpoint_crashes_hdf5 merge_checkpoint_hangs_hdf5
        merge_nothing_readable merge_mixed_jobs merge_output_checked_first merge_usage
        merge_output_inside_dir merge_not_regular merge_older_minor)
  nprb_tools_test(${case} mpi4)
endforeach()

# The config case runs numaprobe itself, which starts MPI: Open MPI's own leaks are not checked.
set_tests_properties(tools.config_not_regular PROPERTIES
  ENVIRONMENT "${NPRB_MPI_TEST_ENV};${NPRB_SANITIZER_ENV}")

# Except for damaged files: HDF5 1.10's own error paths leak what they allocated (in libhdf5,
# not in numaprobe), and some damage crashes HDF5 itself (a wild memcpy in H5HG_read), which
# check reports from its child process. There the sanitizer must end the child by a signal
# (abort_on_error, handle_segv=0) as the crash would, rather than exit 1 after its report.
# The byte-flip sweep still fails on any sanitizer report that points into numaprobe's code (one
# whose first frame is in libhdf5, e.g. H5VM_memcpyvv overrunning on a damaged chunk, is HDF5's).
set(NPRB_DAMAGED_FILE_ENV
    "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:handle_segv=0:handle_abort=0"
    "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
foreach(t check_flipped_bytes check_hdf5_crashes check_hdf5_loops merge_checkpoint_crashes_hdf5
          merge_checkpoint_hangs_hdf5)
  set_tests_properties(tools.${t} PROPERTIES
    ENVIRONMENT "${NPRB_MPI_TEST_ENV};${NPRB_DAMAGED_FILE_ENV}")
endforeach()


nprb_cli_test(help_subcommands 0 "numaprobe merge DIR -o FILE" -- ${NPRB_EXE} --help)
set_tests_properties(cli.help_subcommands PROPERTIES LABELS "cli;tools")
