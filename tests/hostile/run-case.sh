#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# run-case.sh SCRATCH RC PATTERN -- COMMAND...: one case of cases.txt. Makes SCRATCH afresh with
# the files the cases aim at (a results file that exists, a directory, a symbolic link to
# nothing, reference files, a FIFO, a 2 MiB file, the lock of held.json naming a job on
# another host, the lock of junk.json naming nobody and the lock of stale.json naming a process
# of this host that has ended), and runs COMMAND there under
# tests/cli/expect.sh: it passes when COMMAND exits with RC and its output matches PATTERN.
set -u
scratch=$1 rc=$2 pattern=$3
shift 4
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$scratch"
mkdir -p "$scratch/adir" || exit 1
cd "$scratch" || exit 1
echo "not HDF5" >existing.h5
ln -s nowhere.h5 dangling.h5
cp "$here"/refs/* .
mkfifo fifo.json || exit 1        # a reader that opens it blocks until a writer comes
truncate -s 2M big.json || exit 1 # past any size a reference file has
echo "node-elsewhere.example 4242" >held.json.lock
echo "not a lock" >junk.json.lock
sleep 0 &
dead=$!
wait "$dead"
echo "$(hostname) $dead" >stale.json.lock # a job of this host that no longer runs
exec "$here/../cli/expect.sh" "$rc" "$pattern" -- "$@"
