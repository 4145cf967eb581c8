"""The principal variation an iteration reports: the search's own line, extended by the transposition table's moves,
compiled so that completing it costs the search next to nothing (it runs after every iteration)."""

import numpy as np

from mpcmc_engine.bitboard.constants import BB_KEYS, MAX_GAME_PLY, MAX_MOVES, ST_PLY
from mpcmc_engine.bitboard.makemove import make_move, unmake_move
from mpcmc_engine.bitboard.movegen import generate_moves
from mpcmc_engine.jit import jit
from mpcmc_engine.search.predicates import is_draw
from mpcmc_engine.search.tt import entry_move, tt_probe


@jit("boolean(uint64[::1], uint64[::1], int64[::1], int64[::1], int64)", inline="always")
def _is_legal(tab, bb, st, moves, move):
    """Whether `move` is one of the position's legal moves (`moves`: a MAX_MOVES buffer)."""
    count = generate_moves(tab, bb, st, moves, 0, False)
    for i in range(count):
        if moves[i] == move:
            return True
    return False


@jit("int64(uint64[::1], uint64[::1], int64[::1], uint64[::1], int64[::1], int64, int64[::1])", allocates=True)
def complete_pv(tab, bb, st, tt, pv, depth, line):
    """Write into `line` the moves of `pv` as long as each is legal, then the table's moves for the positions reached
    until the line is `depth` plies long, a table move is missing or illegal, or the line reaches a draw (is_draw,
    the position as the root); return the line's length. The position (tab, bb, st) is left as it was. `line` holds
    at least max(len(pv), depth) moves."""
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    root_ply = st[ST_PLY]
    length = 0
    for move in pv:
        if not _is_legal(tab, bb, st, moves, move):
            break
        line[length] = move
        length += 1
        make_move(tab, bb, st, move)
    while length < depth and st[ST_PLY] < MAX_GAME_PLY and not is_draw(bb, st, root_ply):
        move = entry_move(tt_probe(tt, bb[BB_KEYS + st[ST_PLY]]))
        if move == 0 or not _is_legal(tab, bb, st, moves, move):
            break
        line[length] = move
        length += 1
        make_move(tab, bb, st, move)
    for _ in range(length):
        unmake_move(bb, st)
    return length
