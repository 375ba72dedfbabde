# SPDX-License-Identifier: BSD-3-Clause
# Included by tests/CMakeLists.txt: the environment a job inherits, made hostile. HWLOC_* that point hwloc at another machine, OMP_* that
# bind or cap OpenMP's threads before main() runs, NUMAPROBE_FAULT misspelt.
set(NPRB_TOPOLOGIES "${CMAKE_CURRENT_SOURCE_DIR}/topologies")

# Item 9: another machine's topology plans fine (--dry-run) but is never measured on (exit 2).
nprb_cli_test(env_hwloc_xmlfile_refused 2
              "topology of .*: hwloc's topology is not this machine's \\(HWLOC_XMLFILE=.*epyc-8n.xml\\)"
              --absent ${NPRB_OUT}/never.h5
              -- env HWLOC_XMLFILE=${NPRB_TOPOLOGIES}/epyc-8n.xml ${NPRB_EXE} -c ${NPRB_TINY}
                 -o ${NPRB_OUT}/never.h5)
nprb_cli_test(env_hwloc_xmlfile_dry_run 0
              "bandwidth_matrix .*CPU nodes 0,1,2,3,4,5,6,7"
              -- env HWLOC_XMLFILE=${NPRB_TOPOLOGIES}/epyc-8n.xml ${NPRB_EXE} --dry-run
                 -o ${NPRB_OUT}/never.h5)
# HWLOC_THISSYSTEM=1 makes hwloc vouch for the foreign file: numaprobe asks the kernel instead.
nprb_cli_test(env_hwloc_thissystem_foreign 2
              "hwloc's topology is not this machine's: .*HWLOC_THISSYSTEM=1"
              --absent ${NPRB_OUT}/never.h5
              -- env HWLOC_XMLFILE=${NPRB_TOPOLOGIES}/epyc-8n.xml HWLOC_THISSYSTEM=1 ${NPRB_EXE}
                 -c ${NPRB_TINY} -o ${NPRB_OUT}/never.h5)
# Without its Linux backend hwloc sees a machine with no cores and no memory.
nprb_cli_test(env_hwloc_components_bare 2
              "hwloc's topology is not this machine's: it has no (cores|memory) \\(HWLOC_COMPONENTS="
              --absent ${NPRB_OUT}/never.h5
              -- env HWLOC_COMPONENTS=-linux,-x86 ${NPRB_EXE} -c ${NPRB_TINY}
                 -o ${NPRB_OUT}/never.h5)
set_tests_properties(cli.env_hwloc_xmlfile_refused cli.env_hwloc_thissystem_foreign
                     cli.env_hwloc_components_bare cli.env_hwloc_xmlfile_dry_run
                     PROPERTIES FIXTURES_REQUIRED outputs)

# Item 10: OMP_* never changes how many threads measure or where (tests/cli/omp-env.sh).
foreach(omp_case thread_limit proc_bind places place_one levels)
  nprb_add_script_test(cli.env_omp_${omp_case} LABELS cli TIMEOUT 120
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/omp-env.sh ${NPRB_EXE} ${NPRB_TINY} ${NPRB_OUT}
            ${omp_case})
  set_tests_properties(cli.env_omp_${omp_case} PROPERTIES FIXTURES_REQUIRED outputs)
endforeach()

# A missing or garbage HWLOC_XMLFILE: hwloc falls back to this machine, which is fine to measure,
# but a --dry-run meant for another machine's plan must not pass for one silently.
nprb_cli_test(env_hwloc_xmlfile_missing 0
              "warning: HWLOC_XMLFILE=/nonexistent/topology.xml: hwloc did not load it"
              -- env HWLOC_XMLFILE=/nonexistent/topology.xml ${NPRB_EXE} --dry-run
                 -o ${NPRB_OUT}/never.h5)
nprb_cli_test(env_hwloc_xmlfile_garbage 0
              "warning: HWLOC_XMLFILE=.*cases.txt: hwloc did not load it"
              -- env HWLOC_XMLFILE=${CMAKE_CURRENT_SOURCE_DIR}/config_errors/cases.txt ${NPRB_EXE}
                 --dry-run -o ${NPRB_OUT}/never.h5)
# A misspelt NUMAPROBE_FAULT would inject nothing and let a fault test pass for the wrong reason.
nprb_cli_test(env_fault_unknown 2
              "NUMAPROBE_FAULT: unknown fault 'corupt_chain' \\(known: corrupt_bandwidth"
              --absent ${NPRB_OUT}/never.h5
              -- env NUMAPROBE_FAULT=corupt_chain ${NPRB_EXE} -c ${NPRB_TINY} -o ${NPRB_OUT}/never.h5)
set_tests_properties(cli.env_hwloc_xmlfile_missing cli.env_hwloc_xmlfile_garbage
                     cli.env_fault_unknown PROPERTIES FIXTURES_REQUIRED outputs)
