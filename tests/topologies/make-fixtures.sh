#!/usr/bin/env bash
# Regenerates the hwloc XML topologies the unit tests read: shapes of real machines, so topology
# code is tested on hardware this machine does not have. Needs hwloc's command-line tools.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# synthetic NAME DESCRIPTION: writes NAME.xml from an hwloc synthetic description.
synthetic() {
    lstopo-no-graphics --if synthetic --input "$2" --of xml --force "$tmp/$1.xml"
}

# distances NAME N V00 V01 ...: adds a firmware-style NUMA latency matrix (SLIT) over N nodes.
distances() {
    local name=$1 n=$2
    shift 2
    {
        echo "name=NUMALatency"
        echo 5 # HWLOC_DISTANCES_KIND_FROM_OS | HWLOC_DISTANCES_KIND_MEANS_LATENCY
        echo "$n"
        for ((i = 0; i < n; i++)); do echo "NUMANode:$i"; done
        for v in "$@"; do echo "$v"; done
    } >"$tmp/$name.dist"
    hwloc-annotate "$tmp/$name.xml" "$name.xml" -- none -- distances "$tmp/$name.dist"
}

# slit N LOCAL SAME_GROUP OTHER GROUP_SIZE: a matrix where nodes i, j in the same group of
# GROUP_SIZE nodes are SAME_GROUP apart, else OTHER.
slit() {
    local n=$1 local_d=$2 near=$3 far=$4 group=$5
    for ((i = 0; i < n; i++)); do
        for ((j = 0; j < n; j++)); do
            if ((i == j)); then echo "$local_d"
            elif ((i / group == j / group)); then echo "$near"
            else echo "$far"; fi
        done
    done
}

# Two-socket Intel Xeon: one NUMA node per socket, 18 cores x 2 threads each.
synthetic intel-2s "pack:2 [numa(memory=103079215104)] l3:1(size=47185920) l2:18(size=1048576) l1d:1(size=32768) core:1 pu:2"
distances intel-2s 2 $(slit 2 10 10 21 1)

# AMD EPYC, NPS4: 2 sockets x 4 NUMA nodes, 8 cores per node, two L3 (CCX) per node.
synthetic epyc-8n "pack:2 group:4 [numa(memory=34359738368)] l3:2(size=33554432) l2:4(size=524288) l1d:1(size=32768) core:1 pu:2"
distances epyc-8n 8 $(slit 8 10 12 32 4)

# Two sockets plus a CXL memory expander: node 2 has memory and no CPUs.
synthetic cxl "[numa(memory=274877906944)] pack:2 [numa(memory=68719476736)] l3:1(size=33554432) l2:8(size=1048576) l1d:1(size=49152) core:1 pu:2"
distances cxl 3 10 21 24 21 10 24 24 24 10

# NVIDIA Grace Hopper: 72 Neoverse-V2 cores with their LPDDR5X on node 0, the GPU's HBM as node 1
# with memory and no CPUs. Arm64 Linux gives no model name, only the MIDR fields hwloc reads from
# cpuinfo, so the package carries those as on a real Grace. With one package both nodes span
# every CPU in the XML; hwloc 2.11 and later mark the GPU's node GPUMemory, with its GPU's bus.
synthetic grace-hopper "[numa(memory=103079215104)] pack:1 [numa(memory=515396075520)] l3:1(size=119537664) l2:72(size=1048576) l1d:1(size=65536) core:1 pu:1"
hwloc-annotate "$tmp/grace-hopper.xml" "$tmp/grace-hopper.xml" package:0 info CPUImplementer 0x41
hwloc-annotate "$tmp/grace-hopper.xml" "$tmp/grace-hopper.xml" package:0 info CPUPartNumber 0xd4f
hwloc-annotate "$tmp/grace-hopper.xml" "$tmp/grace-hopper.xml" numanode:1 subtype GPUMemory
hwloc-annotate "$tmp/grace-hopper.xml" "$tmp/grace-hopper.xml" numanode:1 info PCIBusID 0009:01:00.0
distances grace-hopper 2 10 80 80 10

# Sparse node ids (0 and 2), as left by offlined nodes or some firmware.
synthetic sparse "pack:2 [numa(memory=17179869184)] l3:1(size=16777216) l2:4(size=524288) l1d:1(size=32768) core:1 pu:1"
# Node 1 becomes node 2, in every nodeset too: hwloc reads the allowed nodeset from the XML.
sed -i -e 's/type="NUMANode" os_index="1"/type="NUMANode" os_index="2"/' \
    -e 's/nodeset="0x00000002"/nodeset="0x00000004"/g' \
    -e 's/nodeset="0x0000000[37]"/nodeset="0x00000005"/g' "$tmp/sparse.xml"
distances sparse 2 10 20 20 10

# A job confined by its cgroup to CPU 0 and the memory of nodes 0-2 of a 4-node host, as a
# hand-made cpuset or a site's scheduler may leave it: hwloc reads the allowed sets from the XML.
synthetic cgroup-4n "pack:4 [numa(memory=17179869184)] l3:1(size=16777216) l2:2(size=524288) l1d:1(size=32768) core:1 pu:1"
sed -i 's/allowed_cpuset="0x000000ff"/allowed_cpuset="0x00000001"/; s/allowed_nodeset="0x0000000f"/allowed_nodeset="0x00000007"/' "$tmp/cgroup-4n.xml"
distances cgroup-4n 4 $(slit 4 10 20 20 1)
