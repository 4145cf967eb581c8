"""The network evaluation in numba: its parameter array, the accumulators and the output.

The evaluation array of a network (see mpcmc_engine.eval.evaluate for its kind slot) holds, from P_W1 on, the rows of
w1 (input-major, HIDDEN values a row), then b1, w2 and b2 (mpcmc_engine.eval.network). An accumulator pair is
2 * HIDDEN int64 slots of some array `acc` from offset `base`: the white view's HIDDEN sums, then the black view's.

The search keeps one pair a ply (in its work array) and updates it incrementally: after a move, the child's pair is
the parent's minus the rows of the inputs that disappeared plus those that appeared (`update_after_move`); a view
whose king crossed into the other king bucket is computed afresh (`refresh_view`); a null move copies the pair.
`evaluate_network` computes everything from scratch (for callers outside the search) and equals, by test, the
incremental result.
"""

import numpy as np

from mpcmc_engine.bitboard.constants import (
    BB_ALL, BLACK, KIND_CASTLE, KIND_EN_PASSANT, KIND_PROMOTION, KING, PAWN, ROOK, ST_BOARD, ST_PLY, ST_SIDE,
    ST_UNDO, U1, U_CAPTURED, U_MOVE, UNDO_SIZE, WHITE,
)
from mpcmc_engine.bitboard.makemove import castling_destinations
from mpcmc_engine.bitboard.moves import move_from, move_kind, move_to
from mpcmc_engine.eval.network import HIDDEN, OUTPUT_SCALE, QA, QB, Network
from mpcmc_engine.eval.network_features import INPUTS, bucket_flip, input_index
from mpcmc_engine.jit import jit
from mpcmc_engine.jit.intrinsics import lsb

P_W1 = 1                           # slot 0 is the evaluation kind (mpcmc_engine.eval.evaluate)
P_B1 = P_W1 + INPUTS * HIDDEN
P_W2 = P_B1 + HIDDEN
P_B2 = P_W2 + 2 * HIDDEN
NETWORK_ARRAY_SIZE = P_B2 + 1
ACC_PAIR = 2 * HIDDEN              # slots of one accumulator pair
NONE = -1                          # no input (update_after_move's optional rows)


def network_array(network: Network, kind: int) -> np.ndarray:
    """The evaluation array of `network` with `kind` in slot 0."""
    array = np.zeros(NETWORK_ARRAY_SIZE, dtype=np.int64)
    array[0] = kind
    array[P_W1:P_B1] = np.asarray(network.w1, dtype=np.int64).reshape(-1)
    array[P_B1:P_W2] = network.b1
    array[P_W2:P_B2] = network.w2
    array[P_B2] = network.b2
    return array


@jit("void(uint64[::1], int64[::1], int64[::1], int64[::1], int64, int64)")
def refresh_view(bb, st, params, acc, base, view):
    """Compute `view`'s accumulator of the position from scratch into acc[base + view * HIDDEN:][:HIDDEN]."""
    target = base + view * HIDDEN
    for j in range(HIDDEN):
        acc[target + j] = params[P_B1 + j]
    flip = bucket_flip(view, lsb(bb[view * 8 + KING]))
    occupied = bb[BB_ALL]
    while occupied:
        square = lsb(occupied)
        row = P_W1 + input_index(view, flip, st[ST_BOARD + square], square) * HIDDEN
        for j in range(HIDDEN):
            acc[target + j] += params[row + j]
        occupied &= occupied - U1


@jit("void(int64[::1], int64[::1], int64, int64, int64, int64, int64, int64)")
def _apply_rows(params, acc, parent, child, removed, removed2, added, added2):
    """acc[child:][:HIDDEN] = acc[parent:][:HIDDEN] - rows removed, removed2 + rows added, added2 (NONE: absent;
    `removed` and `added` are always present)."""
    first = P_W1 + removed * HIDDEN
    second = P_W1 + added * HIDDEN
    for j in range(HIDDEN):
        acc[child + j] = acc[parent + j] - params[first + j] + params[second + j]
    if removed2 != NONE:
        row = P_W1 + removed2 * HIDDEN
        for j in range(HIDDEN):
            acc[child + j] -= params[row + j]
    if added2 != NONE:
        row = P_W1 + added2 * HIDDEN
        for j in range(HIDDEN):
            acc[child + j] += params[row + j]


@jit("void(uint64[::1], int64[::1], int64[::1], int64[::1], int64, int64)")
def update_after_move(bb, st, params, acc, parent, child):
    """The pair at `child` for the position after the last move made (make_move), from the pair at `parent` of the
    position before it."""
    undo = ST_UNDO + (st[ST_PLY] - 1) * UNDO_SIZE
    move = st[undo + U_MOVE]
    captured = st[undo + U_CAPTURED]
    us = 1 - st[ST_SIDE]
    origin, target, kind = move_from(move), move_to(move), move_kind(move)
    if kind == KIND_CASTLE:
        mover = us * 8 + KING
        king_to, rook_to = castling_destinations(us, target > origin)
        extra_piece, extra_from, extra_to = us * 8 + ROOK, target, rook_to
        placed, destination = mover, king_to
        captured_square = -1
    else:
        placed = st[ST_BOARD + target]
        mover = us * 8 + PAWN if kind == KIND_PROMOTION else placed
        destination = target
        extra_piece, extra_from, extra_to = 0, 0, 0
        captured_square = -1
        if kind == KIND_EN_PASSANT:
            captured_square = target - 8 if us == WHITE else target + 8
        elif captured != 0:
            captured_square = target
    for view in range(WHITE, BLACK + 1):
        king_square = lsb(bb[view * 8 + KING])
        flip = bucket_flip(view, king_square)
        if mover == view * 8 + KING and flip != bucket_flip(view, origin):
            refresh_view(bb, st, params, acc, child, view)
            continue
        removed2 = added2 = NONE
        if extra_piece != 0:
            removed2 = input_index(view, flip, extra_piece, extra_from)
            added2 = input_index(view, flip, extra_piece, extra_to)
        elif captured_square >= 0:
            removed2 = input_index(view, flip, captured, captured_square)
        _apply_rows(params, acc, parent + view * HIDDEN, child + view * HIDDEN,
                    input_index(view, flip, mover, origin), removed2, input_index(view, flip, placed, destination),
                    added2)


@jit("void(int64[::1], int64, int64)")
def copy_pair(acc, parent, child):
    """The pair at `child` equal to the one at `parent` (after a null move: the same pieces)."""
    for j in range(ACC_PAIR):
        acc[child + j] = acc[parent + j]


@jit("int64(int64[::1], int64[::1], int64, int64)")
def network_output(params, acc, base, side):
    """The network's score in centipawns for `side` (the side to move) from the pair at `base`."""
    own = base + side * HIDDEN
    other = base + (1 - side) * HIDDEN
    out = params[P_B2]
    for j in range(HIDDEN):
        out += min(max(acc[own + j], 0), QA) * params[P_W2 + j]
    for j in range(HIDDEN):
        out += min(max(acc[other + j], 0), QA) * params[P_W2 + HIDDEN + j]
    scaled = out * OUTPUT_SCALE
    if scaled >= 0:
        return scaled // (QA * QB)
    return -((-scaled) // (QA * QB))


@jit("void(uint64[::1], int64[::1], int64[::1], int64[::1], int64)")
def refresh_pair(bb, st, params, acc, base):
    """Both views' accumulators of the position from scratch into the pair at `base`."""
    refresh_view(bb, st, params, acc, base, WHITE)
    refresh_view(bb, st, params, acc, base, BLACK)


@jit("int64(uint64[::1], int64[::1], int64[::1])")
def evaluate_network(bb, st, params):
    """The network's score of the position for the side to move, computed from scratch."""
    acc = np.empty(ACC_PAIR, dtype=np.int64)
    refresh_pair(bb, st, params, acc, 0)
    return network_output(params, acc, 0, st[ST_SIDE])
