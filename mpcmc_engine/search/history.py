"""The move-ordering histories of one search thread and their updates: killer moves, counter moves, the butterfly
history (side, from, to) and the continuation histories (after the moves of one and two plies before).

All live in the work array `ws` (slots W_KILLERS, W_COUNTER, W_HISTORY and W_CONTINUATION of
mpcmc_engine.search.constants); the two histories hold int16 scores within +-HISTORY_MAX, read through
ws.view(np.int16).
"""

import numpy as np

from mpcmc_engine.bitboard.constants import ST_BOARD, ST_SIDE
from mpcmc_engine.bitboard.moves import move_from, move_to
from mpcmc_engine.jit import jit
from mpcmc_engine.search.constants import (
    HISTORY_MAX, ORDER_PRUNED, W_CONTINUATION, W_COUNTER, W_HISTORY, W_KILLERS, W_MOVED, W_MOVES, W_ORDER,
)
from mpcmc_engine.search.predicates import is_tactical
from mpcmc_engine.search.tunables import HISTORY_BONUS_MAX, HISTORY_BONUS_SCALE


@jit("int64(int64[::1], int64)", inline="always")
def piece_target(st, move):
    """piece * 64 + target square of a move about to be made (the index of the continuation tables)."""
    return st[ST_BOARD + move_from(move)] * 64 + move_to(move)


@jit("int64(int64[::1], int64, int64)", inline="always")
def continuation_row(ws, ply, back):
    """First int16 index of the continuation history row of the move made `back` plies before ply `ply`, -1 when
    there is none (before the root, or a null move)."""
    if ply < back or ws[W_MOVED + ply - back] < 0:
        return -1
    return 4 * W_CONTINUATION + ws[W_MOVED + ply - back] * (16 * 64)


@jit("int64(int64[::1], int64)", inline="always")
def butterfly_slot(st, move):
    """int16 index of a quiet move's butterfly history (side to move, from, to)."""
    return 4 * W_HISTORY + st[ST_SIDE] * 4096 + (move & 4095)


@jit("int64(int64[::1], int64[::1], int64, int64)", inline="always")
def quiet_history(ws, st, move, ply):
    """Ordering score of a quiet move: its butterfly history plus its continuation histories after the moves of
    one and two plies before."""
    histories = ws.view(np.int16)
    score = np.int64(histories[butterfly_slot(st, move)])
    index = piece_target(st, move)
    for back in (1, 2):
        row = continuation_row(ws, ply, back)
        if row >= 0:
            score += np.int64(histories[row + index])
    return score


@jit("void(int16[::1], int64, int64)", inline="always")
def update_history(histories, slot, bonus):
    """Move the history score histories[slot] towards +-HISTORY_MAX by `bonus` (gravity: the closer it is to the
    bound, the less it moves), so that scores stay within [-HISTORY_MAX, HISTORY_MAX] and recent results weigh
    more."""
    score = np.int64(histories[slot])
    histories[slot] = score + bonus - score * abs(bonus) // HISTORY_MAX


@jit("void(int64[::1], int64[::1], int64, int64, int64)")
def update_quiet_histories(ws, st, move, ply, bonus):
    """Add `bonus` (gravity) to a quiet move's butterfly history and its continuation histories."""
    histories = ws.view(np.int16)
    update_history(histories, butterfly_slot(st, move), bonus)
    index = piece_target(st, move)
    for back in (1, 2):
        row = continuation_row(ws, ply, back)
        if row >= 0:
            update_history(histories, row + index, bonus)


@jit("void(int64[::1], int64[::1], int64, int64, int64, int64, int64)")
def reward_quiet(ws, st, move, ply, depth, first, last):
    """A quiet move caused a cutoff: make it the first killer of its ply and the counter move of the previous move,
    raise its histories and lower those of the quiet moves ws[first:last] searched before it without a cutoff
    (pruned ones, marked ORDER_PRUNED, keep theirs)."""
    if ws[W_KILLERS + 2 * ply] != move:
        ws[W_KILLERS + 2 * ply + 1] = ws[W_KILLERS + 2 * ply]
        ws[W_KILLERS + 2 * ply] = move
    if ply > 0 and ws[W_MOVED + ply - 1] >= 0:
        ws[W_COUNTER + ws[W_MOVED + ply - 1]] = move
    bonus = min(HISTORY_BONUS_SCALE * depth * depth, HISTORY_BONUS_MAX)
    update_quiet_histories(ws, st, move, ply, bonus)
    for i in range(first, last):
        if ws[i - W_MOVES + W_ORDER] != ORDER_PRUNED and not is_tactical(st, ws[i]):
            update_quiet_histories(ws, st, ws[i], ply, -bonus)
