"""Arrays that start on a cache line, for the tables the search reads at random (the transposition table, whose
buckets are one cache line each, and the per-thread work arrays)."""

import numpy as np

CACHE_LINE_BYTES = 64


def aligned_zeros(length: int, dtype) -> np.ndarray:
    """A zeroed, C-contiguous 1-D array of `length` items of `dtype` whose first item starts on a cache line."""
    itemsize = np.dtype(dtype).itemsize
    raw = np.zeros(length + CACHE_LINE_BYTES // itemsize, dtype=dtype)
    skip = (-raw.ctypes.data % CACHE_LINE_BYTES) // itemsize
    return raw[skip:skip + length]
