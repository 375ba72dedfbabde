# SPDX-License-Identifier: BSD-3-Clause
# Finds every dependency through its standard CMake module or pkg-config and stops with the
# package to install when one is missing (scripts/setup-deps installs them on Debian/Ubuntu).

function(nprb_missing what debian rhel spack)
  message(FATAL_ERROR
    "numaprobe needs ${what}, which was not found.\n"
    "  Debian/Ubuntu: apt-get install ${debian}   (or run scripts/setup-deps)\n"
    "  RHEL/Rocky:    dnf install ${rhel}\n"
    "  Spack:         spack load ${spack}")
endfunction()

find_package(MPI COMPONENTS C QUIET)
if(NOT MPI_C_FOUND)
  nprb_missing("an MPI library (C bindings)" "libopenmpi-dev openmpi-bin" "openmpi-devel" "openmpi")
endif()

find_package(OpenMP COMPONENTS C QUIET)
if(NOT OpenMP_C_FOUND)
  nprb_missing("OpenMP support in the C compiler" "gcc (libgomp1)" "gcc libgomp" "gcc")
endif()

find_package(PkgConfig QUIET)
if(NOT PKG_CONFIG_FOUND)
  nprb_missing("pkg-config" "pkg-config" "pkgconf-pkg-config" "pkgconf")
endif()

pkg_check_modules(HWLOC QUIET IMPORTED_TARGET hwloc>=2.0)
if(NOT HWLOC_FOUND)
  nprb_missing("hwloc 2.x" "libhwloc-dev" "hwloc-devel" "hwloc")
endif()

pkg_check_modules(NUMA QUIET IMPORTED_TARGET numa)
if(NOT NUMA_FOUND)
  nprb_missing("libnuma" "libnuma-dev" "numactl-devel" "numactl")
endif()

pkg_check_modules(YAML QUIET IMPORTED_TARGET yaml-0.1)
if(NOT YAML_FOUND)
  nprb_missing("libyaml" "libyaml-dev" "libyaml-devel" "libyaml")
endif()

pkg_check_modules(JANSSON QUIET IMPORTED_TARGET jansson)
if(NOT JANSSON_FOUND)
  nprb_missing("jansson (the JSON summary)" "libjansson-dev" "jansson-devel" "jansson")
endif()

# Parallel HDF5 is preferred (the optional collective writer needs it); the default writer is
# serial calls from rank 0, which either flavour serves.
set(HDF5_PREFER_PARALLEL TRUE)
find_package(HDF5 COMPONENTS C QUIET)
if(NOT HDF5_FOUND)
  nprb_missing("HDF5 (C library)" "libhdf5-openmpi-dev" "hdf5-openmpi-devel" "hdf5+mpi")
endif()
if(NOT HDF5_IS_PARALLEL)
  message(STATUS "HDF5 found is serial: fine for the default rank-0 writer")
endif()
# The reader inflates the tables' chunks itself (src/results/h5chunks.c), faster than the zlib
# inside HDF5.
pkg_check_modules(LIBDEFLATE QUIET IMPORTED_TARGET libdeflate)
if(NOT LIBDEFLATE_FOUND)
  nprb_missing("libdeflate" "libdeflate-dev" "libdeflate-devel" "libdeflate")
endif()
if(NOT TARGET HDF5::HDF5)
  add_library(HDF5::HDF5 INTERFACE IMPORTED)
  target_include_directories(HDF5::HDF5 INTERFACE ${HDF5_C_INCLUDE_DIRS})
  target_link_libraries(HDF5::HDF5 INTERFACE ${HDF5_C_LIBRARIES})
  target_compile_definitions(HDF5::HDF5 INTERFACE ${HDF5_C_DEFINITIONS})
endif()
