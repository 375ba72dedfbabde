/* SPDX-License-Identifier: BSD-3-Clause */
/* The build facts of --version (build_info.h). Where a library can say which version is loaded,
 * that is what is printed, beside the one built against: a module system or an upgrade can
 * change the first without the second. */
#include "build_info.h"

#include "build_facts.h"
#include "kernels/stream.h"
#include "results.h"
#include "version.h"

#include <hdf5.h>
#include <hwloc.h>
#include <mpi.h>
#include <string.h>
#include <yaml.h>

/* Open MPI's library version runs to several lines (package, ident, repo rev, date): the first
 * phrase up to a comma or newline names it. */
static void print_mpi(FILE *out)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0, major = 0, minor = 0;
    MPI_Get_library_version(lib, &len);
    MPI_Get_version(&major, &minor);
    lib[strcspn(lib, ",\n")] = '\0';
    fprintf(out, "MPI:      %s (MPI %d.%d)\n", lib, major, minor);
}

static void print_hdf5(FILE *out)
{
    unsigned major = 0, minor = 0, release = 0;
    H5get_libversion(&major, &minor, &release);
#ifdef H5_HAVE_PARALLEL
    const char *flavour = "parallel";
#else
    const char *flavour = "serial";
#endif
    fprintf(out, "HDF5:     %u.%u.%u (%s; built with %d.%d.%d)\n", major, minor, release, flavour,
            H5_VERS_MAJOR, H5_VERS_MINOR, H5_VERS_RELEASE);
}

static void print_hwloc(FILE *out)
{
    unsigned api = hwloc_get_api_version();
    fprintf(out, "hwloc:    %s (API %u.%u at run time)\n", NPRB_BUILD_HWLOC, api >> 16,
            (api >> 8) & 0xffu);
}

void nprb_build_info_print(FILE *out)
{
    fprintf(out, "numaprobe %s (%s), results schema %s\n", NPRB_VERSION, NPRB_GIT_REVISION,
            NPRB_SCHEMA_VERSION);
    print_mpi(out);
    print_hdf5(out);
    print_hwloc(out);
    fprintf(out, "libnuma:  %s\n", NPRB_BUILD_NUMA);
    fprintf(out, "libyaml:  %s (built with %s)\n", yaml_get_version_string(), NPRB_BUILD_YAML);
    fprintf(out, "compiler: %s (%s)\n", NPRB_BUILD_COMPILER, NPRB_BUILD_TYPE);
    fprintf(out, "SIMD:     %s compiled in; this CPU runs %s\n", NPRB_SIMD_PATHS, nprb_simd_path());
}
