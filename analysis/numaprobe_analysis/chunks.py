# SPDX-License-Identifier: BSD-3-Clause
"""A table read chunk by chunk as stored, inflated here rather than by HDF5's filter pipeline.

At fleet scale the report spends most of its reading inflating chunks, and HDF5 inflates with
zlib, which this data leaves at some 600 MB/s; libdeflate inflates the same chunks about four
times as fast, and HDF5 1.10 does not let another decoder stand in for its own (H5Zregister
refuses the predefined filters). So a table whose chunks are what numaprobe writes (deflate,
after a shuffle in files before 256 KiB chunks) and whose rows are the packed, little-endian
records numpy reads as they are, is read with H5Dread_chunk and inflated here: by libdeflate
where the system has it (Debian's libdeflate0), by Python's zlib otherwise. Any other table, or
chunk, is read by h5py as before. The rows are the same either way (analysis/tests/test_chunks.py)."""

import ctypes
import ctypes.util
import sys
import zlib

import h5py
import numpy as np

_SHUFFLE = h5py.h5z.FILTER_SHUFFLE
_DEFLATE = h5py.h5z.FILTER_DEFLATE


class _Libdeflate:
    """libdeflate's zlib-format decompressor, through ctypes; None where it is not installed."""

    SUCCESS = 0

    def __init__(self, lib):
        self.lib = lib
        lib.libdeflate_alloc_decompressor.restype = ctypes.c_void_p
        lib.libdeflate_zlib_decompress.restype = ctypes.c_int
        lib.libdeflate_zlib_decompress.argtypes = [
            ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t,
            ctypes.POINTER(ctypes.c_size_t)]
        self.decompressor = lib.libdeflate_alloc_decompressor()
        self.out = ctypes.c_size_t()

    def inflate(self, data, size):
        """@p data inflated into @p size bytes (a chunk's): a bytearray, or None where the
        data is not a zlib stream of that size."""
        buf = bytearray(size)
        ptr = (ctypes.c_char * size).from_buffer(buf)
        rc = self.lib.libdeflate_zlib_decompress(self.decompressor, data, len(data), ptr, size,
                                                 ctypes.byref(self.out))
        del ptr
        return buf if rc == self.SUCCESS and self.out.value == size else None


def _libdeflate():
    name = ctypes.util.find_library("deflate")
    if name is None:
        return None
    try:
        return _Libdeflate(ctypes.CDLL(name))
    except (OSError, AttributeError):
        return None


_LIBDEFLATE = _libdeflate()


def inflater():
    """The name of what inflates the chunks: 'libdeflate' or 'zlib'."""
    return "libdeflate" if _LIBDEFLATE is not None else "zlib"


def _inflate(data, size):
    if _LIBDEFLATE is not None:
        return _LIBDEFLATE.inflate(data, size)
    try:
        out = zlib.decompress(data)
    except zlib.error:
        return None
    return out if len(out) == size else None


def _pipeline(dataset):
    """(shuffled?) of a table this module reads: chunked in one dimension, deflate alone or after
    a shuffle, packed little-endian records without variable-length members; None otherwise."""
    if sys.byteorder != "little" or dataset.chunks is None or len(dataset.chunks) != 1:
        return None
    dtype = dataset.dtype
    if dtype.names is None or dtype.hasobject or dtype.itemsize != dataset.id.get_type().get_size():
        return None
    if any(not dtype[n].isnative and dtype[n].byteorder != "|" for n in dtype.names):
        return None
    plist = dataset.id.get_create_plist()
    filters = [plist.get_filter(i) for i in range(plist.get_nfilters())]
    codes = [f[0] for f in filters]
    if codes == [_DEFLATE]:
        return False
    # Shuffled by the record's size, as HDF5 applies it to numaprobe's tables (its one parameter).
    if codes == [_SHUFFLE, _DEFLATE] and tuple(filters[0][2]) == (dtype.itemsize,):
        return True
    return None


def _rows_of_chunk(dataset, first, chunk_rows, shuffled):
    """The stored chunk from row @p first as records of the table's dtype, or None where it
    is not read here (a filter skipped, a chunk not stored, data that does not inflate)."""
    try:
        mask, data = dataset.id.read_direct_chunk((first,))
    except (OSError, ValueError, RuntimeError):
        return None
    itemsize = dataset.dtype.itemsize
    raw = _inflate(data, chunk_rows * itemsize) if mask == 0 else None
    if raw is None:
        return None
    rows = np.frombuffer(raw, dtype=np.uint8)
    if shuffled:  # byte k of every record together, record after record
        rows = np.ascontiguousarray(rows.reshape(itemsize, chunk_rows).T)
    return rows.view(dataset.dtype).reshape(chunk_rows)


def blocks(dataset, fields, block_rows):
    """Blocks of @p fields of the table, as h5py's reading gives them; None where the table is
    not one this module reads (the caller reads it through h5py)."""
    shuffled = _pipeline(dataset)
    if shuffled is None:
        return None
    return Blocks(dataset, fields, block_rows, shuffled)


class Blocks:
    """Iterated: (first row, rows, last block?), @p block_rows rows a block but the last, at
    least one (empty) block; the rows are one buffer read into again. field_of() gives another
    field of rows of the block just given, from its chunks, still held."""

    def __init__(self, dataset, fields, block_rows, shuffled):
        self.dataset, self.fields, self.block_rows = dataset, fields, block_rows
        self.shuffled, self.chunk_rows = shuffled, dataset.chunks[0]
        self.held = {}  # the block's chunks by first row (None: read by h5py)

    def _chunk(self, start):
        if start not in self.held:
            self.held[start] = _rows_of_chunk(self.dataset, start, self.chunk_rows, self.shuffled)
        return self.held[start]

    def __iter__(self):
        dataset, fields, block_rows, chunk_rows = (self.dataset, self.fields, self.block_rows,
                                                   self.chunk_rows)
        rows = dataset.shape[0]
        out = np.empty(min(block_rows, max(rows, 1)),
                       dtype=np.dtype([(c, dataset.dtype[c]) for c in fields]))
        for first in range(0, max(rows, 1), block_rows):
            stop = min(rows, first + block_rows)
            # A chunk that straddles two blocks is inflated once.
            self.held = {s: c for s, c in self.held.items() if s + chunk_rows > first}
            at = first
            while at < stop:
                start = at - at % chunk_rows
                take = min(stop, start + chunk_rows) - at
                chunk, dest = self._chunk(start), slice(at - first, at - first + take)
                if chunk is None:
                    dataset.read_direct(out, np.s_[at:at + take], np.s_[dest])
                else:
                    for c in fields:
                        out[c][dest] = chunk[c][at - start:at - start + take]
                at += take
            yield first, out[:max(0, stop - first)], first + block_rows >= rows

    def field_of(self, field, rows):
        """@p field of table rows @p rows (sorted row numbers of the block just given), or None
        where a chunk of theirs was not read here."""
        starts = rows - rows % self.chunk_rows
        values = np.empty(len(rows), dtype=self.dataset.dtype[field])
        for start in np.unique(starts):
            chunk = self.held.get(int(start))
            if chunk is None:
                return None
            at = starts == start
            values[at] = chunk[field][rows[at] - start]
        return values
