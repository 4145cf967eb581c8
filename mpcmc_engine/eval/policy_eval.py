"""The move policy in numba (model and file in mpcmc_engine.eval.policy): the hidden-layer vector it reads, a move's
weight indices and its logit.

`move_indices` packs a move's three weight indices into one integer (to | from << 9 | capture << 18), so that the
trainer can store them once per move and the search computes them the same way.
"""

import numpy as np

from mpcmc_engine.bitboard.constants import (
    KIND_CASTLE, KIND_EN_PASSANT, KIND_PROMOTION, KING, PAWN, ST_BOARD, ST_SIDE,
)
from mpcmc_engine.bitboard.makemove import castling_destinations
from mpcmc_engine.bitboard.moves import move_from, move_kind, move_promotion, move_to
from mpcmc_engine.eval.network import HIDDEN, QA
from mpcmc_engine.eval.network_eval import ensure_view, refresh_view, sums_at
from mpcmc_engine.eval.network_features import bucket_flip
from mpcmc_engine.eval.policy import CAPTURE_B, CAPTURED_KINDS, FEATURES, FROM_B, FROM_W, MOVE_CLASSES, TO_B, TO_W
from mpcmc_engine.jit import jit
from mpcmc_engine.jit.intrinsics import lsb

INDEX_BITS = 9
INDEX_MASK = (1 << INDEX_BITS) - 1


@jit("void(int16[::1], int64, int64, float32[::1])")
def hidden_vector(sums, at, side, h):
    """h = the clipped sums of `side`'s view, then the other view's, / QA (white view at int16 index `at`, black
    view after it)."""
    own = at + side * HIDDEN
    other = at + (1 - side) * HIDDEN
    for j in range(HIDDEN):
        h[j] = min(max(sums[own + j], 0), QA) / QA
        h[HIDDEN + j] = min(max(sums[other + j], 0), QA) / QA


@jit("int64(uint64[::1], int64[::1], int64, int64, int64)", inline="always")
def move_indices(bb, st, side, move, move_class):
    """The packed weight indices (to | from << 9 | capture << 18) of `move`, of tactical class `move_class` (0 ..
    MOVE_CLASSES - 1, found by the search: mpcmc_engine.search.policy_moves), for `side` to move, squares oriented as
    `side`'s view (its king's bucket_flip)."""
    flip = bucket_flip(side, lsb(bb[side * 8 + KING]))
    origin, target, kind = move_from(move), move_to(move), move_kind(move)
    mover = (st[ST_BOARD + origin] & 7) - PAWN
    placed = mover
    landing = target
    captured = 0
    if kind == KIND_CASTLE:
        landing = castling_destinations(side, target > origin)[0]
    elif kind == KIND_EN_PASSANT:
        captured = 1
    else:
        if kind == KIND_PROMOTION:
            placed = move_promotion(move) - PAWN
        victim = st[ST_BOARD + target]
        if victim != 0:
            captured = (victim & 7) - PAWN + 1
    to_index = placed * 64 + (landing ^ flip)
    from_index = mover * 64 + (origin ^ flip)
    capture = (mover * CAPTURED_KINDS + captured) * MOVE_CLASSES + move_class
    return to_index | (from_index << INDEX_BITS) | (capture << (2 * INDEX_BITS))


@jit("float64(float32[::1], float32[::1], int64)", inline="always")
def move_logit(policy, h, packed):
    """The logit of the move whose packed indices are `packed`, given the hidden vector h."""
    to_index = packed & INDEX_MASK
    from_index = (packed >> INDEX_BITS) & INDEX_MASK
    capture = packed >> (2 * INDEX_BITS)
    to_row = policy[TO_W + to_index * FEATURES:TO_W + (to_index + 1) * FEATURES]
    from_row = policy[FROM_W + from_index * FEATURES:FROM_W + (from_index + 1) * FEATURES]
    total = np.float32(0.0)
    for j in range(FEATURES):
        total += (to_row[j] + from_row[j]) * h[j]
    return total + policy[TO_B + to_index] + policy[FROM_B + from_index] + policy[CAPTURE_B + capture]


@jit("void(uint64[::1], int64[::1], int64[::1], int64[::1], int64, int64, float32[::1])")
def hidden_at(bb, st, params, work, base, ply, h):
    """h of the current position, reached at `ply` with every move recorded in the accumulator array `work` (the
    network's sums are computed on the way, as network_score computes them)."""
    sums = work.view(np.int16)
    net = params.view(np.int16)
    ensure_view(bb, st, net, work, sums, base, ply, 0)
    ensure_view(bb, st, net, work, sums, base, ply, 1)
    hidden_vector(sums, sums_at(base, ply, 0), st[ST_SIDE], h)


@jit("void(uint64[::1], int64[::1], int64[::1], float32[::1])", allocates=True)
def hidden_from_scratch(bb, st, params, h):
    """h of the position, its sums computed from scratch (the trainer's, outside a search)."""
    sums = np.zeros(2 * HIDDEN, dtype=np.int16)
    net = params.view(np.int16)
    refresh_view(bb, st, net, sums, 0, 0)
    refresh_view(bb, st, net, sums, HIDDEN, 1)
    hidden_vector(sums, 0, st[ST_SIDE], h)
