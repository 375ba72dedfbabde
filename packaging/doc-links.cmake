# SPDX-License-Identifier: BSD-3-Clause
# cmake -DSRC=DIR -DDOC=PATH -DOUT=FILE -DINSTALLED="PATH=NAME|..." -DJOBS=REL -P doc-links.cmake
#
# Writes the Markdown document DOC (a path in the source tree SRC) to OUT with its relative links
# made for the installation, where the docs lie flat in one directory (share/doc/numaprobe) and
# the job scripts elsewhere (share/numaprobe/jobs):
#   - a link to a file installed in the doc directory (INSTALLED maps its source path to its
#     name there: docs/CONFIG.md=CONFIG.md) points to that name;
#   - a link into jobs/ points there through JOBS, the job scripts' directory relative to the
#     doc directory (../../numaprobe/jobs);
#   - a link to anything else (a test harness's README, a source file) is not installed: it
#     becomes its text, followed by the path in the source tree, so no installed link is dead.
# Anchors (#section) and links to web addresses are kept as they are. The README test
# (tests/docs/readme.py) checks the result in an installation.
cmake_minimum_required(VERSION 3.20)
file(READ "${SRC}/${DOC}" text)
get_filename_component(doc_dir "${DOC}" DIRECTORY)

# Every distinct link target, from "](target)". The "](" goes before the string becomes a list:
# CMake does not split a list at a ';' after an unmatched ']'.
string(REGEX MATCHALL "\\]\\([^) ]+\\)" links "${text}")
string(REGEX REPLACE "\\]\\(([^) ]+)\\)" "\\1" targets "${links}")
list(REMOVE_DUPLICATES targets)
foreach(target IN LISTS targets)
  if(target MATCHES "^[a-z]+:" OR target MATCHES "^#" OR IS_ABSOLUTE "${target}")
    continue()
  endif()
  string(REGEX MATCH "#.*$" anchor "${target}")
  string(REGEX REPLACE "#.*$" "" path "${target}")
  # The target as a path in the source tree (relative to the linking document).
  if(doc_dir)
    set(path "${doc_dir}/${path}")
  endif()
  cmake_path(NORMAL_PATH path)
  set(new "")
  string(REPLACE "|" ";" installed "${INSTALLED}")
  foreach(pair IN LISTS installed)
    string(REPLACE "=" ";" pair "${pair}")
    list(GET pair 0 from)
    list(GET pair 1 to)
    if(path STREQUAL from)
      set(new "${to}${anchor}")
    endif()
  endforeach()
  if(new STREQUAL "" AND path MATCHES "^jobs/(.*)$")
    set(new "${JOBS}/${CMAKE_MATCH_1}${anchor}")
  endif()
  if(NOT new STREQUAL "")
    string(REPLACE "](${target})" "](${new})" text "${text}")
    continue()
  endif()
  # Not installed: [text](target) becomes "text (source tree: path)". The target is a literal in
  # a regular expression, so its special characters are escaped first.
  string(REGEX REPLACE "([][.*+?^$()|\\\\])" "\\\\\\1" quoted "${target}")
  string(REGEX REPLACE "\\[([^]]*)\\]\\(${quoted}\\)" "\\1 (source tree: `${path}`)" text
         "${text}")
endforeach()
file(WRITE "${OUT}" "${text}")
