"""Pre-computed attack tables, magic bitboards and Zobrist keys, all in one uint64 array (`tab`).

`build_tables()` returns the array; offsets are the T_* constants. Magic numbers are found by a deterministic search
(a fixed-seed xorshift generator) the first time, and the finished array is stored beside the numba cache.
"""

import os

import chess.polyglot
import numpy as np

from mpcmc_engine.bitboard.constants import (
    ALL_BITS, BISHOP_ATTACK_ENTRIES, ROOK_ATTACK_ENTRIES, T_BETWEEN, T_BISHOP_MAGIC, T_BISHOP_MASK,
    T_BISHOP_OFFSET, T_BISHOP_SHIFT, T_KING, T_KNIGHT, T_LINE, T_PAWN_ATTACKS, T_ROOK_MAGIC, T_ROOK_MASK,
    T_ROOK_OFFSET, T_ROOK_SHIFT, T_SIZE, T_SLIDER_ATTACKS, T_ZOBRIST, U0, U1,
)
from mpcmc_engine.jit import cache_root, jit

ROOK_DIRECTIONS = np.array([[1, 0], [-1, 0], [0, 1], [0, -1]], dtype=np.int64)
BISHOP_DIRECTIONS = np.array([[1, 1], [1, -1], [-1, 1], [-1, -1]], dtype=np.int64)
ALL_DIRECTIONS = np.concatenate((ROOK_DIRECTIONS, BISHOP_DIRECTIONS))
KNIGHT_STEPS = np.array([[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]], dtype=np.int64)
RNG_SEED = np.uint64(0x9E3779B97F4A7C15)


@jit()
def _step_targets(square, offsets):
    """Bitboard of the squares one step (each row of `offsets`, as (file, rank) deltas) away from `square`."""
    targets = U0
    file, rank = square % 8, square // 8
    for i in range(offsets.shape[0]):
        f, r = file + offsets[i, 0], rank + offsets[i, 1]
        if 0 <= f < 8 and 0 <= r < 8:
            targets |= U1 << np.uint64(r * 8 + f)
    return targets


@jit()
def _ray_attacks(square, occupied, directions, relevant_only):
    """Slow slider attacks from `square` along `directions`, stopping at blockers; with `relevant_only` the mask of
    squares whose occupancy matters (each ray without its last square)."""
    attacks = U0
    for i in range(directions.shape[0]):
        df, dr = directions[i, 0], directions[i, 1]
        f, r = square % 8 + df, square // 8 + dr
        while 0 <= f < 8 and 0 <= r < 8:
            if relevant_only and not (0 <= f + df < 8 and 0 <= r + dr < 8):
                break
            bit = U1 << np.uint64(r * 8 + f)
            attacks |= bit
            if occupied & bit:
                break
            f += df
            r += dr
    return attacks


@jit("uint64(uint64[::1])")
def _next_random(state):
    """xorshift64* step over state[0]; returns the next pseudo-random uint64."""
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return x * np.uint64(2685821657736338717)


@jit(allocates=True)
def _fill_magics(tab, mask_at, magic_at, shift_at, offset_at, attacks_at, capacity, directions, rng):
    """Find a magic number for every square, fill its attack entries; return the number of entries used."""
    occupancies = np.zeros(4096, dtype=np.uint64)
    references = np.zeros(4096, dtype=np.uint64)
    used_epoch = np.zeros(4096, dtype=np.int64)
    offset = 0
    epoch = 0
    for square in range(64):
        mask = _ray_attacks(square, U0, directions, True)
        bits = 0
        m = mask
        while m:
            bits += 1
            m &= m - U1
        size = 1 << bits
        # enumerate all subsets of the mask (Carry-Rippler)
        subset = U0
        for i in range(size):
            occupancies[i] = subset
            references[i] = _ray_attacks(square, subset, directions, False)
            subset = (subset - mask) & mask
        shift = np.uint64(64 - bits)
        while True:
            magic = _next_random(rng) & _next_random(rng) & _next_random(rng)
            if ((mask * magic) >> np.uint64(56)) == U0 or bits == 0:
                continue
            epoch += 1
            ok = True
            for i in range(size):
                index = np.int64((occupancies[i] * magic) >> shift)
                slot = attacks_at + offset + index
                if used_epoch[index] != epoch:
                    used_epoch[index] = epoch
                    tab[slot] = references[i]
                elif tab[slot] != references[i]:
                    ok = False
                    break
            if ok:
                break
        tab[mask_at + square] = mask
        tab[magic_at + square] = magic
        tab[shift_at + square] = shift
        tab[offset_at + square] = np.uint64(attacks_at + offset)
        offset += size
    assert offset <= capacity
    return offset


@jit("void(uint64[::1])")
def _fill_lines(tab):
    """Fill the between and line tables for every pair of squares on a common rank, file or diagonal."""
    for a in range(64):
        for d in range(ALL_DIRECTIONS.shape[0]):
            df, dr = ALL_DIRECTIONS[d, 0], ALL_DIRECTIONS[d, 1]
            # the full line through a in this direction, both ways
            full = U1 << np.uint64(a)
            for sign in (1, -1):
                f, r = a % 8 + sign * df, a // 8 + sign * dr
                while 0 <= f < 8 and 0 <= r < 8:
                    full |= U1 << np.uint64(r * 8 + f)
                    f += sign * df
                    r += sign * dr
            between = U0
            f, r = a % 8 + df, a // 8 + dr
            while 0 <= f < 8 and 0 <= r < 8:
                b = r * 8 + f
                tab[T_BETWEEN + a * 64 + b] = between
                tab[T_LINE + a * 64 + b] = full
                between |= U1 << np.uint64(b)
                f += df
                r += dr


@jit("uint64[::1](uint64[::1])", allocates=True)
def _build(zobrist):
    """Return the complete table array, with Polyglot's Zobrist keys copied in."""
    tab = np.zeros(T_SIZE, dtype=np.uint64)
    for square in range(64):
        tab[T_KNIGHT + square] = _step_targets(square, KNIGHT_STEPS)
        tab[T_KING + square] = _step_targets(square, ALL_DIRECTIONS)
        bit = U1 << np.uint64(square)
        file = square % 8
        white = U0
        black = U0
        if file > 0:
            white |= bit << np.uint64(7)
            black |= bit >> np.uint64(9)
        if file < 7:
            white |= bit << np.uint64(9)
            black |= bit >> np.uint64(7)
        tab[T_PAWN_ATTACKS + square] = white & ALL_BITS
        tab[T_PAWN_ATTACKS + 64 + square] = black
    _fill_lines(tab)
    rng = np.array([RNG_SEED], dtype=np.uint64)
    _fill_magics(tab, T_ROOK_MASK, T_ROOK_MAGIC, T_ROOK_SHIFT, T_ROOK_OFFSET, T_SLIDER_ATTACKS,
                 ROOK_ATTACK_ENTRIES, ROOK_DIRECTIONS, rng)
    _fill_magics(tab, T_BISHOP_MASK, T_BISHOP_MAGIC, T_BISHOP_SHIFT, T_BISHOP_OFFSET,
                 T_SLIDER_ATTACKS + ROOK_ATTACK_ENTRIES, BISHOP_ATTACK_ENTRIES, BISHOP_DIRECTIONS, rng)
    for i in range(781):
        tab[T_ZOBRIST + i] = zobrist[i]
    return tab


def build_tables() -> np.ndarray:
    """Return the table array used by every numba function of the board.

    The array is deterministic; it is stored beside the numba cache (keyed by the same source digest) and read back
    on later starts, since finding the magic numbers takes a few hundred milliseconds.
    """
    stored = cache_root() / "tables.npy"
    try:
        tab = np.load(stored)
        if tab.shape == (T_SIZE,) and tab.dtype == np.uint64:
            return tab
    except (OSError, ValueError):
        pass
    tab = _build(np.array(chess.polyglot.POLYGLOT_RANDOM_ARRAY[:781], dtype=np.uint64))
    try:
        stored.parent.mkdir(parents=True, exist_ok=True)
        temporary = stored.with_suffix(f".{os.getpid()}.tmp")
        with open(temporary, "wb") as handle:
            np.save(handle, tab)
        os.replace(temporary, stored)
    except OSError:
        pass
    return tab
