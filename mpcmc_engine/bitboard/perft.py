"""Perft: the number of leaf nodes of the legal move tree, with bulk counting at the last ply."""

from mpcmc_engine.bitboard.makemove import make_move, unmake_move
from mpcmc_engine.bitboard.movegen import generate_moves
from mpcmc_engine.jit import jit
from mpcmc_engine.jit.intrinsics import load_relaxed

STOP_CHECK_DEPTH = 4  # subtrees below are counted without looking at the stop flag (well under a millisecond each)


@jit("int64(uint64[::1], uint64[::1], int64[::1], int64[::1], int64, int64)")
def perft(tab, bb, st, moves, start, depth):
    """Leaf count of the tree of `depth` (>= 1) plies below the position; moves[start:] is scratch space."""
    end = generate_moves(tab, bb, st, moves, start, False)
    if depth == 1:
        return end - start
    total = 0
    for i in range(start, end):
        make_move(tab, bb, st, moves[i])
        total += perft(tab, bb, st, moves, end, depth - 1)
        unmake_move(bb, st)
    return total


@jit("int64(uint64[::1], uint64[::1], int64[::1], int64[::1], int64, int64, int64[::1])")
def stoppable_perft(tab, bb, st, moves, start, depth, stop):
    """perft, returning early with a partial count once stop[0] is non-zero (another thread may set it): the flag is
    read at the nodes STOP_CHECK_DEPTH or more plies above the leaves, so the hot path below stays as in perft."""
    if depth < STOP_CHECK_DEPTH:
        return perft(tab, bb, st, moves, start, depth)
    if load_relaxed(stop, 0):
        return 0
    end = generate_moves(tab, bb, st, moves, start, False)
    total = 0
    for i in range(start, end):
        make_move(tab, bb, st, moves[i])
        total += stoppable_perft(tab, bb, st, moves, end, depth - 1, stop)
        unmake_move(bb, st)
    return total
