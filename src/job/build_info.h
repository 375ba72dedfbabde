/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file build_info.h
 * `numaprobe --version`: the version, git revision and results schema on the first line, then
 * the facts a site needs to tell two builds apart: the MPI, HDF5, hwloc, libnuma and libyaml
 * libraries, the compiler, and the SIMD paths compiled in.
 */
#ifndef NPRB_BUILD_INFO_H
#define NPRB_BUILD_INFO_H

#include <stdio.h>

/**
 * Writes the version text to @p out. Safe before MPI_Init (MPI_Get_library_version and
 * MPI_Get_version may be called then) and starts nothing.
 */
void nprb_build_info_print(FILE *out);

#endif
