# SPDX-License-Identifier: BSD-3-Clause
# Cross build for Arm64 (aarch64) Linux with Debian's gcc-aarch64-linux-gnu:
#   cmake -B build/arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake \
#         -DNPRB_ARM64_ROOT=/path/to/arm64-root
# NPRB_ARM64_ROOT is a tree holding the target's libraries as a Debian arm64 system lays them out
# (tests/harness/arm64/make-root.sh makes one). When the build machine can run Arm64 code through
# QEMU's user emulation, the tests run there too. A native Arm64 build needs none of this.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)

set(NPRB_ARM64_ROOT "$ENV{NPRB_ARM64_ROOT}" CACHE PATH "Debian arm64 tree holding the target's libraries")
if(NOT NPRB_ARM64_ROOT OR NOT EXISTS "${NPRB_ARM64_ROOT}/usr/lib/aarch64-linux-gnu")
  message(FATAL_ERROR "NPRB_ARM64_ROOT='${NPRB_ARM64_ROOT}' is not a Debian arm64 tree: make one "
                      "with tests/harness/arm64/make-root.sh and pass -DNPRB_ARM64_ROOT=<its path>")
endif()
# try_compile projects read the toolchain file afresh: hand them the root.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES NPRB_ARM64_ROOT)

set(CMAKE_SYSROOT "${NPRB_ARM64_ROOT}")
set(CMAKE_FIND_ROOT_PATH "${NPRB_ARM64_ROOT}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${NPRB_ARM64_ROOT}")
set(ENV{PKG_CONFIG_LIBDIR}
    "${NPRB_ARM64_ROOT}/usr/lib/aarch64-linux-gnu/pkgconfig:${NPRB_ARM64_ROOT}/usr/share/pkgconfig")

# The tree's libraries find theirs at link time through these (their own run paths are for the
# target, not the build machine).
set(_nprb_libdirs "${NPRB_ARM64_ROOT}/usr/lib/aarch64-linux-gnu"
    "${NPRB_ARM64_ROOT}/lib/aarch64-linux-gnu")
foreach(_dir IN LISTS _nprb_libdirs)
  string(APPEND CMAKE_EXE_LINKER_FLAGS_INIT " -Wl,-rpath-link,${_dir}")
endforeach()

# Open MPI's compiler wrapper is a program of the target: FindMPI is told where its header and
# library are instead. HDF5 likewise: Debian keeps the parallel one under hdf5/openmpi.
set(_nprb_ompi "${NPRB_ARM64_ROOT}/usr/lib/aarch64-linux-gnu/openmpi")
set(MPI_C_COMPILER "" CACHE FILEPATH "")
set(MPI_C_HEADER_DIR "${_nprb_ompi}/include" CACHE PATH "")
set(MPI_C_LIB_NAMES mpi CACHE STRING "")
set(MPI_mpi_LIBRARY "${_nprb_ompi}/lib/libmpi.so" CACHE FILEPATH "")
set(MPI_C_ADDITIONAL_INCLUDE_DIRS "" CACHE STRING "")
set(MPIEXEC_EXECUTABLE "${NPRB_ARM64_ROOT}/usr/bin/orterun" CACHE FILEPATH "")
set(HDF5_C_COMPILER_EXECUTABLE "" CACHE FILEPATH "")
set(HDF5_ROOT "/usr/lib/aarch64-linux-gnu/hdf5/openmpi")
set(HDF5_INCLUDE_DIRS "${NPRB_ARM64_ROOT}/usr/include/hdf5/openmpi")

# Tests built here run under QEMU with the tree as its library prefix.
find_program(NPRB_QEMU_AARCH64 qemu-aarch64-static)
if(NPRB_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${NPRB_QEMU_AARCH64};-L;${NPRB_ARM64_ROOT}")
endif()
