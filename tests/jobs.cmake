# Job scripts, shipped configs, the config error table and the fuzz corpora (issue 7).
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
