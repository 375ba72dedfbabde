#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# hugetlb.sh NUMAPROBE OUTDIR
# huge_pages: hugetlb takes 2 MiB pages from the hugetlbfs pool and never falls back silently:
# with an empty pool the measurement is a "failed" row naming the pool; with pages reserved
# (this script reserves 64 for the test and restores the setting) the rows record 2 MiB pages.
set -euo pipefail
exe=$1 outdir=$2
pool=/proc/sys/vm/nr_hugepages
if [ "$(id -u)" -ne 0 ] || [ ! -w "$pool" ]; then
    echo "skip: needs root to reserve hugetlbfs pages ($pool)"
    exit 77
fi
orig=$(cat "$pool")
trap 'echo "$orig" > "$pool"' EXIT
mkdir -p "$outdir"
args=(--only "latency_matrix,bandwidth_matrix" --set huge_pages=hugetlb
      --set latency_matrix.size=4MiB --set latency_matrix.samples=3
      --set bandwidth_matrix.size=8MiB --set bandwidth_matrix.repetitions=2)

check() { # check FILE STATUS PAGE_BYTES
    /usr/bin/python3 - "$@" <<'PY'
import sys, h5py
path, status, page = sys.argv[1], sys.argv[2].encode(), int(sys.argv[3])
with h5py.File(path, "r") as f:
    for table in ("latency", "bandwidth"):
        for r in f[table][()]:
            if r["experiment"] not in (b"latency_matrix", b"bandwidth_matrix") or r["mem_policy"] != b"bind":
                continue
            assert r["status"] == status, (table, r["status"], r["note"])
            if status == b"ok":
                assert int(r["page_bytes"]) == page, (table, r["page_bytes"])
            else:
                assert b"hugetlbfs" in r["note"], r["note"]
print(path, "rows are", sys.argv[2])
PY
}

if [ "$orig" -eq 0 ]; then
    set +e
    out=$("$exe" -q -o "$outdir/hugetlb-empty.h5" "${args[@]}" 2>&1)
    rc=$?
    set -e
    echo "$out" | tail -3
    [ "$rc" -eq 1 ] || { echo "FAIL: empty pool: exit $rc, expected 1"; exit 1; }
    echo "$out" | grep -q "hugetlbfs pages" || { echo "FAIL: no message naming the pool"; exit 1; }
    check "$outdir/hugetlb-empty.h5" failed 0
fi

echo $((orig + 64)) > "$pool"
if [ "$(cat "$pool")" -lt $((orig + 64)) ]; then
    echo "skip: the kernel could not reserve 64 huge pages (memory fragmented)"
    exit 77
fi
"$exe" -q -o "$outdir/hugetlb.h5" "${args[@]}" >/dev/null
check "$outdir/hugetlb.h5" ok 2097152
