/* SPDX-License-Identifier: BSD-3-Clause */
/* The build facts of --version (build_info.h). Where a library can say which version is loaded,
 * that is what is printed, beside the one built against: a module system or an upgrade can
 * change the first without the second. */
#include "job/build_info.h"

#include "build_facts.h"
#include "config/config.h"
#include "fleet/fleet.h"
#include "host/topo.h"
#include "kernels/stream.h"
#include "results/h5out.h"
#include "results/results.h"
#include "report/summary.h"
#include "version.h"

#include <string.h>

void nprb_build_info_print(FILE *out)
{
    fprintf(out, "numaprobe %s (%s), results schema %s\n", NPRB_VERSION, NPRB_GIT_REVISION,
            NPRB_SCHEMA_VERSION);
    nprb_fleet_print_version(out);
    nprb_h5_print_version(out);
    nprb_topo_print_version(out);
    fprintf(out, "libnuma:  %s\n", NPRB_BUILD_NUMA);
    nprb_config_print_version(out);
    nprb_summary_print_version(out);
    fprintf(out, "compiler: %s (%s)\n", NPRB_BUILD_COMPILER, NPRB_BUILD_TYPE);
    fprintf(out, "SIMD:     %s compiled in; this CPU runs %s\n", NPRB_SIMD_PATHS, nprb_simd_path());
}
