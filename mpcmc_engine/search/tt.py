"""The transposition table: a uint64 array of buckets shared by all search threads without locks.

A bucket is BUCKET_ENTRIES entries of two words, [key ^ data, data] (Hyatt's lockless hashing): an entry torn by
a concurrent write fails the key check and is ignored. `data` packs the move, the score + SCORE_OFFSET,
the depth (0..255), the bound, the generation of the search that stored it and the position's static evaluation +
SCORE_OFFSET (EVAL_NONE when in check or not evaluated), which spares the search evaluating a position again when it
meets it again; the widths are below (*_BITS).
Replacement: the entry of the same key, else an empty one, else the one with the least depth - AGE_WEIGHT * age;
a result that is only a bound does not replace the same key's entry when that entry is KEEP_DEEPER_BY or more
plies deeper (a shallow or quiescence bound met through a transposition would erase a deep search's result).
Mate scores are stored relative to the node (MATE - plies to mate) and converted back with the probing ply.
"""

import numpy as np

from mpcmc_engine.jit import jit
from mpcmc_engine.jit.intrinsics import prefetch
from mpcmc_engine.search.constants import BOUND_EXACT, EVAL_NONE, MATE_BOUND

BUCKET_ENTRIES = 4
BUCKET_WORDS = 2 * BUCKET_ENTRIES
BUCKET_BYTES = 8 * BUCKET_WORDS
AGE_WEIGHT = 8
HASHFULL_SAMPLE = 1000
KEEP_DEEPER_BY = 4  # a bound is not stored over an entry of its key this many plies deeper (or more)

# The layout of `data`, low bits first: each field's width, and from the widths its first bit and mask, as int64
# for the entry readers (which read the data as int64) and as uint64 for packing the stored word (numba turns
# uint64 op int64 into int64, so the two never mix).
MOVE_BITS, SCORE_BITS, DEPTH_BITS, BOUND_BITS, GENERATION_BITS, EVAL_BITS = 16, 16, 8, 2, 6, 16
SCORE_SHIFT = MOVE_BITS
DEPTH_SHIFT = SCORE_SHIFT + SCORE_BITS
BOUND_SHIFT = DEPTH_SHIFT + DEPTH_BITS
GENERATION_SHIFT = BOUND_SHIFT + BOUND_BITS
EVAL_SHIFT = GENERATION_SHIFT + GENERATION_BITS   # the last field: its bits end at bit 63
MOVE_MASK = (1 << MOVE_BITS) - 1
SCORE_MASK = (1 << SCORE_BITS) - 1
DEPTH_MASK = (1 << DEPTH_BITS) - 1
BOUND_MASK = (1 << BOUND_BITS) - 1
EVAL_MASK = (1 << EVAL_BITS) - 1
GENERATIONS = 1 << GENERATION_BITS
GENERATION_MASK = GENERATIONS - 1
SCORE_OFFSET = 1 << (SCORE_BITS - 1)   # a score or evaluation is stored + SCORE_OFFSET, as an unsigned field
U32 = np.uint64(32)
SHIFT_SCORE = np.uint64(SCORE_SHIFT)
SHIFT_DEPTH = np.uint64(DEPTH_SHIFT)
SHIFT_BOUND = np.uint64(BOUND_SHIFT)
SHIFT_GENERATION = np.uint64(GENERATION_SHIFT)
SHIFT_EVAL = np.uint64(EVAL_SHIFT)


def table_size(hash_mb: int) -> int:
    """Length of the uint64 table array for `hash_mb` megabytes (at least one bucket, at most 2**32 buckets)."""
    buckets = max(1, min((int(hash_mb) << 20) // BUCKET_BYTES, 1 << 32))
    return buckets * BUCKET_WORDS


@jit("int64(uint64[::1], uint64)", inline="always")
def _bucket(tt, key):
    """Index of the first word of the bucket of `key` (multiply-shift of the key's high half)."""
    buckets = np.uint64(tt.shape[0] // BUCKET_WORDS)
    return np.int64(((key >> U32) * buckets) >> U32) * BUCKET_WORDS


@jit("int64(int64, int64)", inline="always")
def score_to_tt(score, ply):
    """A score as stored: mate scores counted from this node instead of the root."""
    if score >= MATE_BOUND:
        return score + ply
    if score <= -MATE_BOUND:
        return score - ply
    return score


@jit("int64(int64, int64)", inline="always")
def score_from_tt(score, ply):
    """A stored score as seen from the root at `ply`."""
    if score >= MATE_BOUND:
        return score - ply
    if score <= -MATE_BOUND:
        return score + ply
    return score


@jit("void(uint64[::1], uint64)", inline="always")
def tt_prefetch(tt, key):
    """Start loading `key`'s bucket into the CPU's caches, so that a probe or store of it soon after does not wait
    for memory (one cache line: the table starts on a line, and a bucket is one line long)."""
    prefetch(tt, _bucket(tt, key))


@jit("int64(uint64[::1], uint64)")
def tt_probe(tt, key):
    """The packed data of `key`'s entry, or 0 when absent (data is never 0 for a stored entry)."""
    base = _bucket(tt, key)
    for slot in range(base, base + BUCKET_WORDS, 2):
        data = tt[slot + 1]
        if tt[slot] ^ data == key and data != 0:
            return np.int64(data)
    return 0


@jit("int64(int64)", inline="always")
def entry_move(data):
    return data & MOVE_MASK


@jit("int64(int64, int64)", inline="always")
def entry_score(data, ply):
    return score_from_tt(((data >> SCORE_SHIFT) & SCORE_MASK) - SCORE_OFFSET, ply)


@jit("int64(int64)", inline="always")
def entry_depth(data):
    return (data >> DEPTH_SHIFT) & DEPTH_MASK


@jit("int64(int64)", inline="always")
def entry_bound(data):
    return (data >> BOUND_SHIFT) & BOUND_MASK


@jit("int64(int64)", inline="always")
def entry_eval(data):
    return ((data >> EVAL_SHIFT) & EVAL_MASK) - SCORE_OFFSET


@jit("int64(int64)", inline="always")
def entry_generation(data):
    return (data >> GENERATION_SHIFT) & GENERATION_MASK


@jit("void(uint64[::1], uint64, int64, int64, int64, int64, int64, int64, int64)")
def tt_store(tt, key, move, score, depth, bound, ply, generation, static_eval):
    """Store a search result of `depth` (0..255) for `key` with the position's `static_eval`; a null `move` keeps the
    move already stored for it, EVAL_NONE the evaluation. A bound (not exact) is dropped when the key's entry is
    KEEP_DEEPER_BY or more plies deeper."""
    base = _bucket(tt, key)
    victim = base
    victim_worth = 1 << 30
    for slot in range(base, base + BUCKET_WORDS, 2):
        data = tt[slot + 1]
        entry = np.int64(data)
        if data == 0 or tt[slot] ^ data == key:
            if data != 0:
                if bound != BOUND_EXACT and depth + KEEP_DEEPER_BY <= entry_depth(entry):
                    return
                if move == 0:
                    move = entry_move(entry)
                if static_eval == EVAL_NONE:
                    static_eval = entry_eval(entry)
            victim = slot
            break
        age = (generation - entry_generation(entry)) & GENERATION_MASK
        worth = entry_depth(entry) - AGE_WEIGHT * age
        if worth < victim_worth:
            victim = slot
            victim_worth = worth
    packed = np.uint64(move & MOVE_MASK) | (np.uint64(score_to_tt(score, ply) + SCORE_OFFSET) << SHIFT_SCORE) \
        | (np.uint64(depth) << SHIFT_DEPTH) | (np.uint64(bound) << SHIFT_BOUND) \
        | (np.uint64(generation) << SHIFT_GENERATION) | (np.uint64(static_eval + SCORE_OFFSET) << SHIFT_EVAL)
    tt[victim] = key ^ packed
    tt[victim + 1] = packed


@jit("int64(uint64[::1], int64)")
def tt_hashfull(tt, generation):
    """Permille of the first HASHFULL_SAMPLE entries holding a result of the current generation (as UCI hashfull)."""
    entries = min(HASHFULL_SAMPLE, tt.shape[0] // 2)
    used = 0
    for entry in range(entries):
        data = np.int64(tt[2 * entry + 1])
        if data != 0 and entry_generation(data) == generation:
            used += 1
    return used * 1000 // entries


