#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# memory-refused.sh NUMAPROBE CONFIG OUTDIR
# Asks for a latency buffer that fits node 0's memory but not what is free on it: numaprobe must
# refuse it with a message naming node, size and free memory, record a "failed" row, still write
# the file, and exit 1 (the only host failed). The first-touch row is refused too, against the
# free memory of every node together (on one node, the same figure): measuring it would fill the
# host.
set -euo pipefail
exe=$1 config=$2 outdir=$3
here=$(cd "$(dirname "$0")" && pwd)
meminfo=/sys/devices/system/node/node0/meminfo
[ -r "$meminfo" ] || { echo "skip: $meminfo unreadable"; exit 77; }
kib() { awk -v k="$1:" '$3 == k { print $4 }' "$meminfo"; }
avail=$(( $(kib MemFree) + $(kib 'Active(file)') + $(kib 'Inactive(file)') ))
size_mib=$(( avail * 95 / 100 / 1024 ))
out="$outdir/memory-refused.h5"
rm -f "$out"
"$here/expect.sh" 1 "cannot place ${size_mib} MiB on NUMA node 0: it has [0-9]+ MiB free" -- \
    "$exe" -c "$config" -o "$out" --set "latency_matrix.size=${size_mib}MiB" \
    --set latency_matrix.policies=interleave,first_touch --set bandwidth_matrix.enabled=false
/usr/bin/python3 - "$out" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    lat = f["latency"][()]
    host = f["hosts"][()][0]
    assert lat["status"][0] == b"failed", lat["status"]
    assert b"cannot place" in lat["note"][0]
    assert any(n.startswith(b"cannot place") and b"by first touch: the host has" in n
               for n in lat["note"]), lat["note"]
    assert host["status"] == b"failed" and b"cannot place" in host["error"]
    assert int(f.attrs["hosts_failed"]) == 1
print("failed row recorded, file written")
PY
