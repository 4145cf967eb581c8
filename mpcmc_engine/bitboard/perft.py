"""Perft: the number of leaf nodes of the legal move tree, with bulk counting at the last ply."""

from mpcmc_engine.jit import jit
from mpcmc_engine.bitboard.makemove import make_move, unmake_move
from mpcmc_engine.bitboard.movegen import generate_moves


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


@jit("void(uint64[::1], uint64[::1], int64[::1], int64[::1], int64, int64[::1])")
def divide(tab, bb, st, moves, depth, counts):
    """Write the legal root moves into moves[0:k] and each one's perft(depth - 1) into counts[0:k]; k = counts[-1]."""
    end = generate_moves(tab, bb, st, moves, 0, False)
    for i in range(end):
        if depth <= 1:
            counts[i] = 1
        else:
            make_move(tab, bb, st, moves[i])
            counts[i] = perft(tab, bb, st, moves, end, depth - 1)
            unmake_move(bb, st)
    counts[counts.shape[0] - 1] = end
