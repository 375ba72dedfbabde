# SPDX-License-Identifier: BSD-3-Clause
# ---- multi-NUMA guests (tests/harness/vm): real placement on 2, 3, 4 and 8 nodes; included by
# tests/CMakeLists.txt.
# Every guest test runs twice: vm.NAME.bal1 with kernel.numa_balancing=1 (the Linux default on
# NUMA servers, with the scanner made eager so that it reaches the test's short-lived buffers) and
# vm.NAME.bal0 with it off.
#
# Under software emulation a boot costs about what a small run does, so the runs made on one
# guest layout share one boot: vm.guest.LAYOUT.balB boots it and makes its runs one after the
# other (guest-batch.sh), and each vm.NAME.balB test then judges its own run's exit status and
# results file (numaprobe-in-vm.sh --phase check). A layout's boot that fails leaves its tests not
# run, which ctest counts as failed. The guests run tests/configs/guest.yaml: tiny.yaml on fewer
# pages and samples, as timings mean nothing there.
#
# Two guests run at once (ctest -j2): a lone guest keeps about 1.4 of the 2 cores busy, and two
# finish in 0.7 of the time they take one after the other. They start before the short tests
# (COST, the layouts with most runs first), so that the short ones fill the gaps at the end. A
# guest that locks up in its kernel is booted again (vm-run), which the TIMEOUT leaves room for.
set(VM "${CMAKE_CURRENT_SOURCE_DIR}/harness/vm")
set(NPRB_GUEST "${CMAKE_CURRENT_SOURCE_DIR}/configs/guest.yaml")
# Seconds a guest gives each of its runs (the MPI runs on 4 nodes take up to about 200 s on a
# loaded 2-core host).
set(NPRB_VM_SECONDS_EACH 240)

# nprb_vm_test(NAME LAYOUT [BALANCING 1|0] [numaprobe-in-vm.sh options...]): both settings unless
# BALANCING names one.
# LAYOUT names the guest the run is made on: runs of one LAYOUT must ask for the same guest.
function(nprb_vm_test name layout)
  cmake_parse_arguments(V "" "BALANCING" "" ${ARGN})
  if(NOT V_BALANCING)
    set(V_BALANCING 1 0)
  endif()
  foreach(balancing ${V_BALANCING})
    set(guest ${layout}.bal${balancing})
    set(run --exe ${NPRB_EXE} --config ${NPRB_GUEST} --outdir ${NPRB_OUT}/vm
            --balancing ${balancing} ${V_UNPARSED_ARGUMENTS})
    nprb_add_script_test(vm.${name}.bal${balancing} LABELS vm TIMEOUT 120
      FIXTURE_REQUIRED vm_guest_${guest}
      COMMAND ${VM}/numaprobe-in-vm.sh --phase check ${run})
    get_property(runs GLOBAL PROPERTY NPRB_VM_RUNS_${guest})
    if(runs)
      set_property(GLOBAL APPEND PROPERTY NPRB_VM_RUNS_${guest} --next)
    else()
      set_property(GLOBAL APPEND PROPERTY NPRB_VM_GUESTS ${guest})
    endif()
    set_property(GLOBAL APPEND PROPERTY NPRB_VM_RUNS_${guest} ${run})
    set_property(GLOBAL APPEND PROPERTY NPRB_VM_COUNT_${guest} ${name})
  endforeach()
endfunction()

# One vm.guest.LAYOUT.balB test for each guest the tests above asked for.
function(nprb_vm_guests)
  get_property(guests GLOBAL PROPERTY NPRB_VM_GUESTS)
  foreach(guest ${guests})
    get_property(runs GLOBAL PROPERTY NPRB_VM_RUNS_${guest})
    get_property(names GLOBAL PROPERTY NPRB_VM_COUNT_${guest})
    list(LENGTH names count)
    # Room for a boot that locks up and is booted again (vm-run) on top of the first.
    math(EXPR timeout "2 * (${NPRB_VM_SECONDS_EACH} * ${count} + 60) + 120")
    math(EXPR cost "1000 + 100 * ${count}")
    nprb_add_script_test(vm.guest.${guest} LABELS vm TIMEOUT ${timeout}
      FIXTURE_SETUP vm_guest_${guest}
      COMMAND ${VM}/guest-batch.sh --seconds-each ${NPRB_VM_SECONDS_EACH} -- ${runs})
    set_tests_properties(vm.guest.${guest} PROPERTIES COST ${cost} FIXTURES_REQUIRED outputs)
  endforeach()
endfunction()

# Two nodes of two vCPUs each.
# A 4 s balancing series: long enough for the eager scanner to move pages, so that the series is
# seen to rise without a page "returning" (a census that lost unmapped pages made it fall). At
# the default interval, 16 samples a series: enough to see that they keep to their schedule.
nprb_vm_test(nodes2 n2 --nodes 2 --cpus 4 --set numa_balancing.duration=4s
             --set numa_balancing.interval=250ms)
nprb_vm_test(mpi_bind_numa2 n2 --nodes 2 --ranks 2 --cpus 4)
# As an unprivileged user (nobody): page frames read as 0, so the census must place the pages
# the balancing scanner unmapped without them; no SMBIOS, and the balancing series cannot be made.
nprb_vm_test(nodes2_unprivileged n2 --nodes 2 --cpus 4 --unprivileged)
# Killed (SIGTERM, as at a time limit) while the balancing experiment has numa_balancing changed:
# the signal handler must put the guest's setting back.
nprb_vm_test(balancing_sigterm n2 --nodes 2 --cpus 4 --fault term_in_balancing --expect-rc 143)

# A run killed by SIGKILL (a time limit's KillWait, the OOM killer) while its balancing series has
# kernel.numa_balancing off, in a guest booted with it on (restore-scenario.sh says each step):
# the next start puts it back, says so and records it in /hosts; so does `numaprobe restore`
# (refused without root); a run beside a live one leaves that one's setting alone; and a job of
# jobs/slurm killed at its time limit under a local Slurm is repaired by jobs/epilog. A guest of
# its own, beside the other two-node one.
set(NPRB_GUEST_BALANCING "${CMAKE_CURRENT_SOURCE_DIR}/configs/guest-balancing.yaml")
foreach(scenario start restore concurrent slurm)
  nprb_vm_test(restore_${scenario} n2_restore BALANCING 1 --nodes 2 --cpus 4
               --config ${NPRB_GUEST_BALANCING} --scenario ${scenario})
endforeach()

# Four nodes of one vCPU each.
nprb_vm_test(nodes4 n4 --nodes 4 --cpus 4)
nprb_vm_test(mpi_bind_numa4 n4 --nodes 4 --ranks 4 --cpus 4)
# One rank per node (ppr) still makes first touch and balancing (the first rank widens its
# binding for them) and measures every cell once; a lone rank that --bind-to numa confined to one
# node widens to the cgroup's CPUs and measures every node.
nprb_vm_test(mpi_ppr_numa4 n4 --nodes 4 --ranks 4 --cpus 4
             --mpirun-args "--map-by ppr:1:numa --bind-to numa")
nprb_vm_test(mpi1_bind_numa4 n4 --nodes 4 --ranks 1 --cpus 4 --mpirun-args "--bind-to numa"
             --expect-binding "widened")

# Two CPU nodes and a memory-only one.
nprb_vm_test(nodes2_memonly1 n2m1 --nodes 2 --memonly 1 --cpus 4)
# Two ranks the launcher bound to the same node share it out, measuring its row once (the check
# asserts the two really share).
nprb_vm_test(mpi_shared_node n2m1 --nodes 2 --memonly 1 --ranks 3 --cpus 4
             --mpirun-args "--map-by core --bind-to numa" --shared-node)
# Pages faulted in by the stores themselves, as on kernels before 5.14 (no MADV_POPULATE_WRITE):
# every placement check must hold as with the call. Once, with balancing on: placement is the
# same question either way.
nprb_vm_test(no_populate n2m1 BALANCING 1 --nodes 2 --memonly 1 --cpus 4 --fault no_populate
             --expect-rc 0)
# A job confined by a cgroup v2 cpuset to node 1 (as Slurm confines a job): every node listed,
# the others as not allowed, every cell outside the cpuset present and saying why. Last on its
# guest: the cpuset stays.
nprb_vm_test(cpuset_node1 n2m1 --nodes 2 --memonly 1 --cpus 4 --cpuset-node 1)

# Firmware HMAT (latency and bandwidth per initiator) recorded beside the SLIT, on QEMU's
# "qemu64" CPU model, whose SSE2 alone the next test needs.
nprb_vm_test(hmat hmat_qemu64 --nodes 2 --memonly 1 --cpus 4 --hmat --cpu-model qemu64)
# An AMD EPYC in NPS4 mode, in small: 8 nodes of one vCPU and 320 MiB, 4 per package, SLIT 10
# local, 12 within a package, 32 across. numaprobe's topology block must equal numactl
# --hardware in the same guest, and its class table show the three classes with their SLIT.
# latency_sweep.from=every: a core of each of the 8 nodes sweeps, and the table says whose.
nprb_vm_test(epyc_nps4 epyc_nps4 --nodes 8 --cpus 8 --packages 2 --slit-package 12 --slit-cross 32
             --mem-per-node 320 --numactl --set latency_sweep.from=every)
# Run-time kernel dispatch: every bandwidth kernel validated on the code paths this host's CPU
# does not pick (it has AVX-512): AVX2 (QEMU's "max" model under software emulation, that of the
# guests above) and SSE2 ("qemu64": the HMAT test's run, judged for its code path).
nprb_vm_test(simd_avx2 n2 --nodes 2 --cpus 4 --simd avx2)
nprb_vm_test(simd_sse2 hmat_qemu64 --nodes 2 --memonly 1 --cpus 4 --hmat --cpu-model qemu64
             --simd sse2)

nprb_vm_guests()

nprb_add_script_test(vm.harness_selftest LABELS vm TIMEOUT 600 COMMAND ${VM}/selftest.sh)
set_tests_properties(vm.harness_selftest PROPERTIES COST 1000)
