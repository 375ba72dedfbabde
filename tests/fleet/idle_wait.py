#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""idle_wait.py MPIRUN NUMAPROBE OUTDIR [MPIRUN_FLAGS...]

Two ranks on this host take turns: while rank 0 measures, rank 1 waits for its turn. The wait
must be idle (a busy-polling MPI_Wait would spin a core beside the rank measuring): rank 1's own
CPU time (utime + stime from /proc/PID/stat) over a window inside rank 0's turn must stay under
5% of the window. Only the waiter's CPU time is asserted, never a timing of the benchmark.

The window is checked to lie inside rank 0's turn from the ranks' own debug lines (--verbose):
it opens after rank 0 starts its first measurement and must close before rank 1 starts its
first one, so the test cannot pass on a wait that never happened."""

import os
import subprocess
import sys
import threading
import time

WINDOW_S = 2.0
LIMIT = 0.05
# One experiment whose measurements last seconds by design (samples x sample time), the same on
# any machine: 3 items of 20 x 50 ms, about 3 s of rank 0's turn. It runs alone (--only).
EXPERIMENT = "latency_matrix"
CONFIG = """huge_pages: off
latency_matrix:
  size: 1MiB
  samples: 20
  sample_time: 50ms
  policies: [preferred, first_touch]
"""


def descendants(pid):
    """Every process below @pid (the launcher's children, and theirs)."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/task/{p}/children") as f:
                kids = [int(k) for k in f.read().split()]
        except OSError:
            continue
        found += kids
        todo += kids
    return found


def world_rank(pid):
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            env = dict(e.split(b"=", 1) for e in f.read().split(b"\0") if b"=" in e)
    except OSError:
        return None
    rank = env.get(b"OMPI_COMM_WORLD_RANK") or env.get(b"PMI_RANK")
    return int(rank) if rank is not None else None


def cpu_s(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    mpirun, exe, outdir = sys.argv[1], sys.argv[2], sys.argv[3]
    flags = sys.argv[4:]
    os.makedirs(outdir, exist_ok=True)
    config = os.path.join(outdir, "idle-wait.yaml")
    with open(config, "w") as f:
        f.write(CONFIG)
    cmd = [mpirun, "-np", "2", *flags, exe, "-c", config, "--only", EXPERIMENT, "-o",
           os.path.join(outdir, "idle-wait.h5"), "--verbose"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    started = {}  # world rank -> when its first measurement started
    log = []

    def read():
        for line in proc.stderr:
            log.append(line)
            for rank in (0, 1):
                if line.startswith(f"numaprobe[{rank}] debug:") and " item 0:" in line:
                    started.setdefault(rank, time.monotonic())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = time.monotonic() + 120
    while 0 not in started and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    if 0 not in started:
        proc.kill()
        proc.wait()
        print("FAIL: rank 0 never started measuring\n" + "".join(log))
        return 1
    waiter = [p for p in descendants(proc.pid) if world_rank(p) == 1]
    if len(waiter) != 1:
        proc.kill()
        proc.wait()
        print(f"FAIL: cannot find rank 1's process (found {waiter})")
        return 1
    time.sleep(0.3)  # rank 1 reaches its wait: the turn barrier
    t0, c0 = time.monotonic(), cpu_s(waiter[0])
    time.sleep(WINDOW_S)
    t1, c1 = time.monotonic(), cpu_s(waiter[0])
    rc = proc.wait(timeout=300)
    reader.join(timeout=10)
    if rc != 0:
        print(f"FAIL: numaprobe exited with {rc}\n" + "".join(log))
        return 1
    if started.get(1, 0) < t1:
        print("FAIL: the window was not inside rank 0's turn (rank 1 started measuring at "
              f"{started.get(1, 0) - t0:+.2f} s, the window closed at {t1 - t0:+.2f} s); "
              "make rank 0's turn longer")
        return 1
    share = (c1 - c0) / (t1 - t0)
    print(f"rank 1 used {c1 - c0:.3f} s of CPU in {t1 - t0:.2f} s waiting for its turn "
          f"({100 * share:.1f}% of a core; limit {100 * LIMIT:.0f}%)")
    if share >= LIMIT:
        print("FAIL: the waiting rank is not idle")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
