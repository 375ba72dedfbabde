"""Reads a numaprobe results file into pandas frames, refusing files it cannot interpret."""

from dataclasses import dataclass, field

import h5py
import pandas as pd

SCHEMA_NAME = "numaprobe"
SUPPORTED_MAJOR = 0
TABLES = ("hosts", "numa_nodes", "distances", "latency", "bandwidth", "placement")


class ResultsError(Exception):
    """A file that is not a numaprobe results file this version can read."""


@dataclass
class Results:
    path: str
    attrs: dict
    tables: dict = field(default_factory=dict)

    def __getitem__(self, name):
        return self.tables[name]


def _text(value):
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value


def _frame(dataset):
    frame = pd.DataFrame(dataset[()])
    for column in frame.columns:
        if frame[column].dtype == object:
            frame[column] = frame[column].map(_text)
    return frame


def check_schema(path, attrs):
    schema = _text(attrs.get("schema", ""))
    if schema != SCHEMA_NAME:
        raise ResultsError(f"{path}: not a numaprobe results file (schema attribute is "
                           f"{schema!r})")
    version = _text(attrs.get("schema_version", ""))
    try:
        major = int(version.split(".")[0])
    except ValueError:
        raise ResultsError(f"{path}: malformed schema_version {version!r}") from None
    if major != SUPPORTED_MAJOR:
        raise ResultsError(f"{path}: schema version {version} is not supported by this "
                           f"numaprobe-report (reads {SUPPORTED_MAJOR}.x); use a matching "
                           f"release of the analysis tools")


def load(path):
    """Returns the file's root attributes and one DataFrame per table (strings decoded)."""
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        raise ResultsError(f"{path}: cannot read as HDF5 ({e})") from None
    with f:
        attrs = {k: _text(v) for k, v in f.attrs.items()}
        check_schema(path, attrs)
        missing = [t for t in TABLES if t not in f]
        if missing:
            raise ResultsError(f"{path}: tables missing: {', '.join(missing)}")
        results = Results(path=path, attrs=attrs)
        for name in TABLES:
            results.tables[name] = _frame(f[name])
    return results
