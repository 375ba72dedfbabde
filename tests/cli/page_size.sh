#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# page_size.sh NUMAPROBE TINY OUTDIR
# The page_size experiment (src/experiments/page_size.c, its keys and report in that file): its
# keys load from YAML and --set like any other, the plan holds its chase and read for each of the
# three page sizes, and a run writes a file `numaprobe check` accepts, whose /latency and
# /bandwidth rows of experiment page_size come in the order 4 KiB, THP, hugetlb: the first two
# on 4 KiB base pages, the third on 2 MiB hugetlbfs pages, or, when the pool cannot serve, a row
# that names the pool (never a fallback to other pages).
set -euo pipefail
exe=$1 tiny=$2 outdir=$3
mkdir -p "$outdir"
out="$outdir/page_size.h5"
rm -f "$out"

plan=$("$exe" -c "$tiny" --only page_size --set page_size.size=6MiB --dry-run)
grep -Eq '^  page_size +6  size 6MiB' <<<"$plan" || { echo "FAIL: plan: $plan"; exit 1; }
grep -q '^page_size:$' <<<"$plan" && grep -q '^  size: 6MiB$' <<<"$plan" ||
    { echo "FAIL: the echo lacks page_size.size"; exit 1; }
if "$exe" -c "$tiny" --set page_size.size=lots --dry-run 2>"$outdir/page_size.err"; then
    echo "FAIL: page_size.size=lots accepted"; exit 1
fi
grep -q "set page_size.size: expected a size like 512MiB or 2G, got 'lots'" "$outdir/page_size.err" ||
    { echo "FAIL: error: $(cat "$outdir/page_size.err")"; exit 1; }

report=$("$exe" -c "$tiny" --only page_size -o "$out" --quiet)
for label in '4 KiB (THP off)' 'THP (madvise)' 'hugetlb 2 MiB'; do
    grep -qF "$label" <<<"$report" || { echo "FAIL: no '$label' line in: $report"; exit 1; }
done
"$exe" check "$out"
/usr/bin/python3 - "$out" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    for table in ("latency", "bandwidth"):
        rows = [r for r in f[table][()] if r["experiment"] == b"page_size"]
        assert len(rows) == 3, (table, len(rows))
        for r in rows[:2]:  # 4 KiB pages, then THP: both on 4 KiB base pages
            assert r["status"] == b"ok", (table, r["status"], r["note"])
            assert int(r["page_bytes"]) == 4096, (table, r["page_bytes"])
        hugetlb = rows[2]
        if hugetlb["status"] == b"ok":
            assert int(hugetlb["page_bytes"]) == 2097152, (table, hugetlb["page_bytes"])
        else:
            assert hugetlb["status"] in (b"not_applicable", b"failed"), hugetlb["status"]
            assert b"hugetlbfs" in hugetlb["note"], hugetlb["note"]
        print(table, [(r["status"].decode(), int(r["page_bytes"])) for r in rows])
PY
echo "page_size: plan, keys, rows and report ok"
