# SPDX-License-Identifier: BSD-3-Clause
"""What a whole run must show in its results file: the ranks and hosts it was started with,
every host ok, every measurement made with its pages where they were asked for, and counters
consistent with the samples they counted. After every whole run (singleton, mpirun, fake hosts,
Slurm, the job scripts):

    /usr/bin/python3 -m pytest -q -p no:cacheprovider tests/test_run_results.py \\
        --exe NUMAPROBE --results FILE --ranks R [--hosts H] [--host-ranks HOST=N ...] \\
        [--numa-nodes N] [--identical-hardware]

Whether the file keeps the schema (docs/SCHEMA.md: root attributes and their types, tables,
columns and types, statuses, figures present and in order, the joins between tables, topology
rows per host) is for `numaprobe check` to say: test_numaprobe_check runs it, and the other
tests ask only what a check of the file alone cannot know. Each experiment's own checks are
run_checks/'s modules, collected here (run_checks/__init__.py)."""

import inspect
import math
import xml.etree.ElementTree as ET
from collections import Counter

import h5py
import pytest
import yaml

from run_checks import CHECKS
from run_checks.common import PLACED, assert_none, cpulist, node_cpus, text

pytestmark = pytest.mark.needs_options("exe", "results", "ranks")

SOFTWARE = ("task_clock", "page_faults", "cpu_migrations", "context_switches")
CORE = ("cycles", "instructions", "llc_loads", "llc_load_misses", "dtlb_load_misses")
MEASUREMENTS = ["latency", "bandwidth"]
VALUES = {"latency": ["latency_ns_min", "latency_ns_median", "latency_ns_p99", "latency_ns_max"],
          "bandwidth": ["gbs_worst", "gbs_median", "gbs_best"]}
# The least CPU time the kept samples' work can take on any core, whatever else the host runs:
# no core retires more than three loads a cycle at 6 GHz (0.055 ns an access), nor moves 2 TB/s.
ACCESS_S_FLOOR = 0.02e-9
BYTES_PER_S_CEILING = 2e12


# The root attributes and tables come from the binary's contract (`numaprobe --schema`): a name
# these tests read that the contract lacks is a KeyError, not a test passing on nothing.
@pytest.fixture(scope="module")
def attrs(results, contract):
    """The root attributes the contract says every final file has (None where this one lacks
    one)."""
    names = [a["name"] for a in contract["root_attributes"]
             if a["in"] in ("every", "final") and a["required"]]
    with h5py.File(results, "r") as f:
        return {name: f.attrs.get(name) for name in names}


@pytest.fixture(scope="module")
def tables(results, contract):
    """The rows of every table of the contract the file has."""
    with h5py.File(results, "r") as f:
        return {t["name"]: f[t["name"]][()] for t in contract["tables"] if t["name"] in f}


@pytest.fixture(scope="module")
def config(results):
    """The effective configuration the file records (its `config` root attribute)."""
    with h5py.File(results, "r") as f:
        return yaml.safe_load(text(f.attrs["config"]))


@pytest.fixture(scope="module")
def hosts(tables):
    return tables["hosts"]


@pytest.fixture(scope="module")
def names(hosts):
    """How many /hosts rows name each hostname."""
    return Counter(text(h) for h in hosts["hostname"])


def given(request, name):
    """An option a test checks only when it is given: skipped, saying so, without it."""
    value = request.config.getoption(name)
    if value in (None, False, []):
        pytest.skip(f"--{name.replace('_', '-')} not given")
    return value


# ---- the file -----------------------------------------------------------------------------------

def test_numaprobe_check(numaprobe, results):
    numaprobe.run(["check", results], 0, ["valid (schema"], forbid=["INVALID"])


def test_complete(attrs):
    assert attrs["complete"] is not None and int(attrs["complete"]) == 1, \
        f"complete is {attrs['complete']}"


def test_world_size_is_ranks(attrs, pytestconfig):
    ranks = pytestconfig.getoption("ranks")
    assert attrs["world_size"] is not None and int(attrs["world_size"]) == ranks, \
        f"world_size {attrs['world_size']} != {ranks}"


def test_run_id_is_a_uuid(attrs):
    """RFC 9562: version 8 (its custom layout) in the version nibble, variant 10 in the next
    field's top bits; Python's uuid module reads both."""
    import uuid
    text = attrs["run_id"]
    text = text.decode() if isinstance(text, bytes) else str(text)
    u = uuid.UUID(text)
    assert str(u) == text and u.version == 8 and u.variant == uuid.RFC_4122, \
        f"run_id {text}: version {u.version}, variant {u.variant}"


def test_host_count(attrs, request):
    want = given(request, "hosts")
    assert attrs["host_count"] is not None and int(attrs["host_count"]) == want, \
        f"host_count {attrs['host_count']} != {want}"


# ---- /hosts -------------------------------------------------------------------------------------

def test_hosts_ok(hosts):
    assert_none([f"rank {h['rank']} status {text(h['status'])}: {text(h['error'])}"
                 for h in hosts if text(h["status"]) != "ok"])


def test_fingerprints(hosts):
    assert_none([f"rank {h['rank']} has no fingerprint ({text(h['fingerprint'])!r})"
                 for h in hosts if len(text(h["fingerprint"])) != 16])


def test_hostnames(names, request):
    want = given(request, "hosts")
    assert len(names) == want, f"{len(names)} distinct hostnames {sorted(names)}, want {want}"


def test_ranks_on_host_by_name(hosts, names):
    """ranks_on_host counts the rows that name the same host (check counts by host_index)."""
    assert_none([f"rank {h['rank']}: ranks_on_host {h['ranks_on_host']} but "
                 f"{names[text(h['hostname'])]} rows name host {text(h['hostname'])}"
                 for h in hosts if int(h["ranks_on_host"]) != names[text(h["hostname"])]])


def test_host_ranks(names, request):
    wrong = []
    for spec in given(request, "host_ranks"):
        name, count = spec.split("=")
        if names.get(name) != int(count):
            wrong.append(f"host {name} has {names.get(name)} ranks, want {count}")
    assert_none(wrong)


def test_numa_nodes(hosts, request):
    want = given(request, "numa_nodes")
    assert_none([f"rank {h['rank']} sees {h['numa_nodes']} NUMA nodes, want {want}"
                 for h in hosts if int(h["numa_nodes"]) != want])


def test_identical_hardware(hosts, request):
    """Fake hosts are one machine under many names: one node type, one fingerprint."""
    given(request, "identical_hardware")
    prints = {text(h) for h in hosts["fingerprint"]}
    labels = {text(h) for h in hosts["node_type"]}
    assert len(prints) == 1 and len(labels) == 1, \
        f"identical hosts got fingerprints {prints} and labels {labels}"


def test_topology_xml(tables):
    """Each host's first rank stored its hwloc XML, whole: it parses and names NUMA nodes."""
    leaders = {}
    for h in tables["hosts"]:
        leaders.setdefault(int(h["host_index"]), int(h["rank"]))
    parts = {}
    for r in tables["topology_xml"]:
        parts.setdefault(int(r["rank"]), []).append((int(r["part"]), r["text"]))
    assert sorted(parts) == sorted(leaders.values()), \
        f"topology XML from ranks {sorted(parts)}, want the hosts' first ranks " \
        f"{sorted(leaders.values())}"
    wrong = []
    for rank, pieces in parts.items():
        try:
            root = ET.fromstring(b"".join(t for _, t in sorted(pieces)))
        except ET.ParseError as e:
            wrong.append(f"rank {rank}: topology XML does not parse: {e}")
            continue
        if not any(o.get("type") == "NUMANode" for o in root.iter("object")):
            wrong.append(f"rank {rank}: topology XML has no NUMANode")
    assert_none(wrong)


# ---- the measurements ---------------------------------------------------------------------------

@pytest.mark.parametrize("table", MEASUREMENTS)
def test_every_rank_measured(tables, table):
    by_rank = Counter(int(r) for r in tables[table]["rank"])
    assert set(by_rank) == {int(r) for r in tables["hosts"]["rank"]}, \
        f"/{table}: not every rank has rows ({dict(by_rank)})"


@pytest.mark.parametrize("table", MEASUREMENTS)
def test_rows_ok_or_not_applicable(tables, table):
    """Nothing failed, and what did not apply says why (check only warns of a missing note)."""
    wrong = []
    for row in tables[table]:
        where = f"/{table} rank {row['rank']} measurement {row['measurement']}"
        status = text(row["status"])
        if status not in ("ok", "not_applicable"):
            wrong.append(f"{where}: status {status}: {text(row['note'])}")
        elif status != "ok" and not text(row["note"]):
            wrong.append(f"{where}: {status} without a reason")
    assert_none(wrong)


@pytest.mark.parametrize("table", MEASUREMENTS)
def test_measured_rows(tables, table):
    """Each measurement: positive figures, its pages on the node asked for, a size and threads,
    the pages' nodes known, and each thread on a CPU of its own on the row's CPU node."""
    cpus_of = node_cpus(tables)
    wrong, measured = [], 0
    for row in tables[table]:
        if text(row["status"]) != "ok":
            continue
        measured += 1
        where = f"/{table} rank {row['rank']} measurement {row['measurement']}"
        values = [float(row[col]) for col in VALUES[table]]
        if not all(v > 0 for v in values):
            wrong.append(f"{where}: {VALUES[table]} not all positive: {values}")
        if float(row["pages_on_target_frac"]) < PLACED:
            wrong.append(f"{where}: only {row['pages_on_target_frac']:.3f} of pages on node "
                         f"{row['mem_node']}")
        if not (int(row["size_bytes"]) > 0 and int(row["threads"]) >= 1):
            wrong.append(f"{where}: size {row['size_bytes']}, threads {row['threads']}")
        if int(row["pages_unreported"]) >= int(row["size_bytes"]) // 4096:
            wrong.append(f"{where}: no page reported its node")
        seen = cpulist(text(row["cpus"]))
        if len(seen) != int(row["threads"]):
            wrong.append(f"{where}: {row['threads']} thread(s) found on CPUs "
                         f"'{text(row['cpus'])}'")
        on_node = cpus_of.get((int(row["rank"]), int(row["cpu_node"])))
        if on_node is not None and not seen <= on_node:
            wrong.append(f"{where}: CPUs '{text(row['cpus'])}' outside the CPU node")
    assert measured > 0, f"/{table}: nothing measured"
    assert_none(wrong)


def test_placement_covers_buffers(tables):
    """/placement accounts for every page of each measured buffer (check asks only that a
    measurement has placement rows)."""
    pages = Counter()
    for row in tables["placement"]:
        pages[(int(row["rank"]), int(row["measurement"]))] += int(row["pages"])
    wrong = []
    for table in MEASUREMENTS:
        for row in tables[table]:
            key = (int(row["rank"]), int(row["measurement"]))
            if text(row["status"]) == "ok" and pages[key] * 4096 < int(row["size_bytes"]):
                wrong.append(f"/placement for {table} {key}: {pages[key]} pages cover less than "
                             f"{row['size_bytes']} bytes")
    assert_none(wrong)


# ---- each experiment's rows (run_checks/) -------------------------------------------------------

def _collect(checks):
    """The functions each module of @p checks defines, tests and fixtures, made this module's:
    pytest collects them here (test_run_results.py::test_NAME) with this module's fixtures."""
    for module in checks:
        own = {name: obj for name, obj in vars(module).items()
               if inspect.isfunction(obj) and obj.__module__ == module.__name__
               and not name.startswith("_")}
        assert any(name.startswith("test_") for name in own), f"{module.__name__}: no test"
        for name, obj in own.items():
            assert name not in globals(), f"{module.__name__}.{name} is defined twice"
            globals()[name] = obj


_collect(CHECKS)


# ---- /counters ----------------------------------------------------------------------------------

def kept_sample_bounds(table, row):
    """Bounds on one measurement's CPU time from its kept samples' work: the least any core
    needs for it, and the slowest sample's seconds times the samples (the most one thread's
    counters can have been enabled)."""
    if table == "bandwidth":
        passes = int(row["passes_per_sample"]) * int(row["repetitions"])
        bytes_moved = passes * int(row["program_bytes"])
        return bytes_moved / BYTES_PER_S_CEILING, bytes_moved / 1e9 / float(row["gbs_worst"])
    accesses = int(row["accesses_per_sample"]) * int(row["samples"])
    return accesses * ACCESS_S_FLOOR, accesses * 1e-9 * float(row["latency_ns_max"])


@pytest.fixture(scope="module")
def unavailable(tables):
    """Per rank, the events it cannot count: its rows of measurement -1."""
    events = {}
    for row in tables["counters"]:
        if int(row["measurement"]) == -1:
            events.setdefault(int(row["rank"]), set()).add(text(row["event"]))
    return events


@pytest.fixture(scope="module")
def counted(tables):
    """The counter rows of measurements, by (rank, measurement, event)."""
    return {(int(r["rank"]), int(r["measurement"]), text(r["event"])): r
            for r in tables["counters"] if int(r["measurement"]) != -1}


def test_uncountable_events_say_why(tables):
    """A rank's row (measurement -1, not_applicable: check holds it to that) gives the reason."""
    assert_none([f"/counters rank {r['rank']} {text(r['event'])}: not countable, no reason given"
                 for r in tables["counters"]
                 if int(r["measurement"]) == -1 and not text(r["note"])])


def test_counted_rows_ok(tables, unavailable):
    wrong = []
    for row in tables["counters"]:
        rank, event = int(row["rank"]), text(row["event"])
        if int(row["measurement"]) == -1:
            continue
        where = f"/counters rank {rank} measurement {row['measurement']} {event}"
        # A counter the kernel never enabled, or enabled for a part of the samples (virtual
        # machines' perf, now and then), is failed and unknown, never an ok zero or a part read
        # as the whole.
        never = text(row["note"]).startswith("not counted:")
        if never and (text(row["status"]) != "failed" or not math.isnan(row["value_scaled"])):
            wrong.append(f"{where}: not counted, yet {text(row['status'])} "
                         f"{row['value_scaled']}")
        elif text(row["status"]) != "ok" and not never:
            wrong.append(f"{where}: status {text(row['status'])}: {text(row['note'])}")
        if event in unavailable.get(rank, ()):
            wrong.append(f"{where}: counted, yet not_applicable")
    assert_none(wrong)


def test_software_events_countable(tables, unavailable):
    """The software events need no privilege: only perf_event_paranoid may refuse them."""
    refused = {int(r["rank"]) for r in tables["counters"] if int(r["measurement"]) == -1
               and "perf_event_paranoid" in text(r["note"])}
    assert_none([f"rank {rank}: software events {sorted(set(SOFTWARE) & unavailable[rank])} not "
                 "countable, and not for want of privilege"
                 for rank in {int(r) for r in tables["hosts"]["rank"]} - refused
                 if set(SOFTWARE) & unavailable.get(rank, set())])


@pytest.mark.parametrize("table", MEASUREMENTS)
def test_every_event_counted(tables, table, unavailable, counted):
    """Every measured row has a row for each event its rank can count."""
    wrong = []
    for row in tables[table]:
        if text(row["status"]) != "ok":
            continue
        rank, m = int(row["rank"]), int(row["measurement"])
        wrong += [f"/{table} rank {rank} measurement {m}: no {event} row"
                  for event in SOFTWARE + CORE
                  if event not in unavailable.get(rank, ()) and (rank, m, event) not in counted]
    assert_none(wrong)


@pytest.mark.parametrize("table", MEASUREMENTS)
def test_task_clock_bounds(tables, table, counted, whole_run_of):
    """The counters were enabled no longer than the kept samples took (give or take a thread's
    wait at the barrier before the first), and task_clock is that CPU time, no less than the
    samples' work needs."""
    wrong, checked = [], 0
    for row in tables[table]:
        if text(row["status"]) != "ok":
            continue
        rank, m = int(row["rank"]), int(row["measurement"])
        task = counted.get((rank, m, "task_clock"))
        if task is None or text(task["status"]) != "ok":
            continue  # not countable here, or never enabled: test_counted_rows_ok judges it
        checked += 1
        where = f"/{table} rank {rank} measurement {m}"
        threads = int(task["threads"])
        if threads != (int(row["threads"]) if table == "bandwidth" else 1):
            wrong.append(f"{where}: task_clock of {threads} thread(s)")
        # A per-task counter is enabled only while its thread runs, so task_clock equals the
        # enabled time, and both are CPU time: no more than the samples' wall time, and no less
        # than their work takes on the fastest core. The bounds hold however loaded the host is
        # (eight fake hosts on two CPUs under ASan); a bound from the samples' wall time alone
        # would not. The slack is a few scheduler ticks of spinning at the barrier before the
        # first sample, which eight ranks on two CPUs stretch past one.
        enabled = float(task["time_enabled_s"])
        cpu = float(task["value_scaled"]) * 1e-9
        floor, slowest = kept_sample_bounds(table, row)
        if (rank, m) in whole_run_of:
            slowest = kept_sample_bounds(table, whole_run_of[(rank, m)])[1]
        if enabled / threads > 1.25 * slowest + 0.05:
            wrong.append(f"{where}: counters enabled {enabled / threads:.6f} s a thread, the "
                         f"samples took at most {slowest:.6f} s")
        if not 0.98 * enabled - 5e-5 <= cpu <= 1.02 * enabled + 5e-5:
            wrong.append(f"{where}: task_clock {cpu:.6f} s, enabled {enabled:.6f} s")
        if cpu < floor:
            wrong.append(f"{where}: task_clock {cpu:.6f} s for {threads} thread(s), less than "
                         f"the samples' work takes on any core ({floor:.6f} s)")
    if checked == 0:
        pytest.skip(f"no /{table} measurement has a task_clock row (not countable on this host)")
    assert_none(wrong)
