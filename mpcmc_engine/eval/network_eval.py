"""The network evaluation in numba: its parameter array, the accumulators and the output.

The evaluation array of a network (int64; see mpcmc_engine.eval.evaluate for its kind slot) holds the OUTPUT_BUCKETS
values of b2 from slot P_B2 on, the activation's number (ACTIVATION_CODES) in slot P_ACTIVATION, qb in P_QB and,
read as int16 from int16 index N_W1 on, the rows of w1 (input-major, HIDDEN values a row), then b1 and w2
(bucket-major; mpcmc_engine.eval.network): about 400 KB of weights, within the CPU's second-level cache.

An *accumulator array* (int64) holds PLY_SLOTS slots a ply from some offset `base`: a computed flag for each view, the
record of the change (pieces lifted and put down) made by the move that led to the ply, and the sums: HIDDEN int16
values of the white view, then HIDDEN of the black view, in the int64 slots from A_SUMS on read as int16 (a loaded
network's sums cannot leave int16: mpcmc_engine.eval.network.check_accumulator_reach; a sum computed on the way
through a change may wrap, its result cannot). The search records every move before it makes it (`record_move`)
and computes the sums lazily, when a position is evaluated (`network_score`): a view's sums follow from its nearest
computed ancestor's by the recorded changes (the plies between are computed on the way), or are computed from scratch
(`refresh_view`) when that view's king changed bucket. The output layer is that of the position's output bucket
(its number of pieces, network_features.output_bucket); each view's dot product with it is summed in int32, so that
it compiles to 16-bit multiply-adds (for squared clipped ReLU too: clip(v) * w fits int16 by the screlu bound on w2,
mpcmc_engine.eval.network.SCRELU_W2_LIMIT, and is multiplied by clip(v) again; the view's sum fits int32).
`evaluate_network` computes everything from scratch for callers outside the search and equals, by test, the
incremental result. The loops run over array slices so that they compile to SIMD code.
"""

import numpy as np

from mpcmc_engine.bitboard.constants import (
    BB_ALL, BLACK, KIND_CASTLE, KIND_EN_PASSANT, KIND_PROMOTION, KING, PAWN, ROOK, ST_BOARD, ST_SIDE, U1, WHITE,
)
from mpcmc_engine.bitboard.makemove import castling_destinations
from mpcmc_engine.bitboard.moves import move_from, move_kind, move_promotion, move_to
from mpcmc_engine.eval.network import (
    ACTIVATION_CODES, HIDDEN, INT16_LIMIT, OUTPUT_SCALE, QA, SCRELU, SCRELU_W2_LIMIT, Network,
)
from mpcmc_engine.eval.network_features import INPUTS, OUTPUT_BUCKETS, bucket_flip, input_index, output_bucket
from mpcmc_engine.jit import jit
from mpcmc_engine.jit.intrinsics import lsb, popcount

P_B2 = 1                           # int64 slots: 0 is the evaluation kind (mpcmc_engine.eval.evaluate), b2 from 1 on
P_ACTIVATION = P_B2 + OUTPUT_BUCKETS
P_QB = P_ACTIVATION + 1
N_W1 = 64                          # int16 indices (from int64 slot 16 on, 64-byte aligned)
assert 4 * (P_QB + 1) <= N_W1, "the int64 slots before the weights hold b2, the activation and qb"
N_B1 = N_W1 + INPUTS * HIDDEN
N_W2 = N_B1 + HIDDEN
NETWORK_ARRAY_SIZE = (N_W2 + OUTPUT_BUCKETS * 2 * HIDDEN + 3) // 4   # in int64 slots
assert HIDDEN * QA * INT16_LIMIT < 2 ** 31, "a view's dot product must fit int32 (_clipped_dot)"
assert HIDDEN * QA * QA * SCRELU_W2_LIMIT < 2 ** 31, "a screlu view's dot product must fit int32 (_squared_dot)"
assert QA * SCRELU_W2_LIMIT <= INT16_LIMIT, "clip(v) * w of a screlu network must fit int16 (_squared_dot)"
NONE = -1                          # no input (_apply_rows's optional rows)
A_COMPUTED = 0                     # a ply's int64 slots: computed flags of both views, the change record, the sums
A_CHANGE = 2
C_MOVER, C_FROM, C_PLACED, C_TO, C_LIFTED, C_LIFTED_AT, C_EXTRA, C_EXTRA_AT = range(8)  # pieces; 0: none
CHANGE_SLOTS = 8
A_SUMS = A_CHANGE + CHANGE_SLOTS
PLY_SLOTS = A_SUMS + HIDDEN // 2   # 2 * HIDDEN int16 sums in HIDDEN / 2 int64 slots


def network_array(network: Network, kind: int) -> np.ndarray:
    """The evaluation array of `network` with `kind` in slot 0."""
    array = np.zeros(NETWORK_ARRAY_SIZE, dtype=np.int64)
    array[0] = kind
    array[P_B2:P_B2 + OUTPUT_BUCKETS] = network.b2
    array[P_ACTIVATION] = ACTIVATION_CODES[network.activation]
    array[P_QB] = network.qb
    weights = array.view(np.int16)
    weights[N_W1:N_B1] = np.asarray(network.w1).reshape(-1)
    weights[N_B1:N_W2] = network.b1
    weights[N_W2:N_W2 + OUTPUT_BUCKETS * 2 * HIDDEN] = np.asarray(network.w2).reshape(-1)
    return array


@jit("int64(int64, int64, int64)", inline="always")
def sums_at(base, ply, view):
    """The int16 index of `view`'s sums of `ply` in an accumulator array whose plies start at int64 slot `base`."""
    return 4 * (base + ply * PLY_SLOTS + A_SUMS) + view * HIDDEN


@jit("void(uint64[::1], int64[::1], int16[::1], int16[::1], int64, int64)")
def refresh_view(bb, st, net, sums, at, view):
    """Compute `view`'s sums of the position from scratch into sums[at:at + HIDDEN] (net: the evaluation array read
    as int16)."""
    target = sums[at:at + HIDDEN]
    bias = net[N_B1:N_B1 + HIDDEN]
    for j in range(HIDDEN):
        target[j] = bias[j]
    flip = bucket_flip(view, lsb(bb[view * 8 + KING]))
    occupied = bb[BB_ALL]
    while occupied:
        square = lsb(occupied)
        start = N_W1 + input_index(view, flip, st[ST_BOARD + square], square) * HIDDEN
        row = net[start:start + HIDDEN]
        for j in range(HIDDEN):
            target[j] += row[j]
        occupied &= occupied - U1


@jit("void(int16[::1], int16[::1], int64, int64, int64, int64, int64, int64)")
def _apply_rows(net, sums, parent, child, removed, removed2, added, added2):
    """sums[child:][:HIDDEN] = sums[parent:][:HIDDEN] - rows removed, removed2 + rows added, added2 (NONE: absent;
    a move always lifts and puts down one piece, so removed and added are present)."""
    source = sums[parent:parent + HIDDEN]
    target = sums[child:child + HIDDEN]
    lifted = net[N_W1 + removed * HIDDEN:N_W1 + (removed + 1) * HIDDEN]
    put = net[N_W1 + added * HIDDEN:N_W1 + (added + 1) * HIDDEN]
    for j in range(HIDDEN):
        target[j] = source[j] - lifted[j] + put[j]
    if removed2 != NONE:
        row = net[N_W1 + removed2 * HIDDEN:N_W1 + (removed2 + 1) * HIDDEN]
        for j in range(HIDDEN):
            target[j] -= row[j]
    if added2 != NONE:
        row = net[N_W1 + added2 * HIDDEN:N_W1 + (added2 + 1) * HIDDEN]
        for j in range(HIDDEN):
            target[j] += row[j]


@jit("void(int64[::1], int64[::1], int64, int64, int64)")
def record_move(st, work, base, ply, move):
    """Before make_move(move) at `ply`: write the change it makes as ply + 1's record in the accumulator array `work`
    and mark ply + 1's sums as not computed. Move 0 records a null move (no change)."""
    slot = base + (ply + 1) * PLY_SLOTS
    work[slot + A_COMPUTED] = 0
    work[slot + A_COMPUTED + 1] = 0
    change = slot + A_CHANGE
    if move == 0:
        for i in range(CHANGE_SLOTS):
            work[change + i] = 0
        return
    us = st[ST_SIDE]
    origin, target, kind = move_from(move), move_to(move), move_kind(move)
    mover = st[ST_BOARD + origin]
    work[change + C_MOVER] = mover
    work[change + C_FROM] = origin
    work[change + C_EXTRA] = 0
    work[change + C_LIFTED] = 0
    if kind == KIND_CASTLE:  # encoded king takes rook
        king_to, rook_to = castling_destinations(us, target > origin)
        work[change + C_PLACED] = mover
        work[change + C_TO] = king_to
        work[change + C_LIFTED] = us * 8 + ROOK
        work[change + C_LIFTED_AT] = target
        work[change + C_EXTRA] = us * 8 + ROOK
        work[change + C_EXTRA_AT] = rook_to
        return
    work[change + C_PLACED] = us * 8 + move_promotion(move) if kind == KIND_PROMOTION else mover
    work[change + C_TO] = target
    if kind == KIND_EN_PASSANT:
        work[change + C_LIFTED] = (1 - us) * 8 + PAWN
        work[change + C_LIFTED_AT] = target - 8 if us == WHITE else target + 8
    elif st[ST_BOARD + target] != 0:
        work[change + C_LIFTED] = st[ST_BOARD + target]
        work[change + C_LIFTED_AT] = target


@jit("int64(int64, int64, int64, int64)", inline="always")
def _input_or_none(view, flip, piece, square):
    """input_index, or NONE for no piece (0)."""
    return input_index(view, flip, piece, square) if piece != 0 else NONE


@jit("void(uint64[::1], int64[::1], int16[::1], int64[::1], int16[::1], int64, int64, int64)")
def ensure_view(bb, st, net, work, sums, base, ply, view):
    """Make `view`'s sums of `ply` (the current position) computed: from the nearest computed ancestor by the
    recorded changes (the plies between computed on the way), or from scratch when `view`'s king changed bucket.
    `sums` is `work` read as int16."""
    if work[base + ply * PLY_SLOTS + A_COMPUTED + view]:
        return
    own_king = view * 8 + KING
    ancestor = ply
    crossed = False
    while not work[base + ancestor * PLY_SLOTS + A_COMPUTED + view]:
        change = base + ancestor * PLY_SLOTS + A_CHANGE
        if (work[change + C_MOVER] == own_king
                and bucket_flip(view, work[change + C_FROM]) != bucket_flip(view, work[change + C_TO])):
            crossed = True
        ancestor -= 1
    if crossed:
        refresh_view(bb, st, net, sums, sums_at(base, ply, view), view)
        work[base + ply * PLY_SLOTS + A_COMPUTED + view] = 1
        return
    flip = bucket_flip(view, lsb(bb[own_king]))
    for child in range(ancestor + 1, ply + 1):
        change = base + child * PLY_SLOTS + A_CHANGE
        if work[change + C_MOVER] == 0:  # a null move
            parent_at, child_at = sums_at(base, child - 1, view), sums_at(base, child, view)
            for j in range(HIDDEN):
                sums[child_at + j] = sums[parent_at + j]
        else:
            _apply_rows(net, sums, sums_at(base, child - 1, view), sums_at(base, child, view),
                        input_index(view, flip, work[change + C_MOVER], work[change + C_FROM]),
                        _input_or_none(view, flip, work[change + C_LIFTED], work[change + C_LIFTED_AT]),
                        input_index(view, flip, work[change + C_PLACED], work[change + C_TO]),
                        _input_or_none(view, flip, work[change + C_EXTRA], work[change + C_EXTRA_AT]))
        work[base + child * PLY_SLOTS + A_COMPUTED + view] = 1


@jit("void(uint64[::1], int64[::1], int64[::1], int64[::1], int64)")
def refresh_root(bb, st, params, work, base):
    """Compute ply 0's sums (the search's root, the current position) from scratch into the accumulator array
    `work`."""
    sums = work.view(np.int16)
    net = params.view(np.int16)
    refresh_view(bb, st, net, sums, sums_at(base, 0, WHITE), WHITE)
    refresh_view(bb, st, net, sums, sums_at(base, 0, BLACK), BLACK)
    work[base + A_COMPUTED] = 1
    work[base + A_COMPUTED + 1] = 1


@jit("int64(int16[::1], int16[::1])", inline="always")
def _clipped_dot(sums, weights):
    """The sum of clip(sums[j], 0, QA) * weights[j] over the HIDDEN units, accumulated in int32: at most
    HIDDEN * QA * INT16_LIMIT < 2 ** 31 in magnitude."""
    total = np.int32(0)
    for j in range(HIDDEN):
        value = sums[j]
        value = 0 if value < 0 else (QA if value > QA else value)
        total = np.int32(total + np.int32(value) * np.int32(weights[j]))
    return total


@jit("int64(int16[::1], int16[::1])", inline="always")
def _squared_dot(sums, weights):
    """The sum of clip(sums[j], 0, QA) ** 2 * weights[j] over the HIDDEN units, accumulated in int32: at most
    HIDDEN * QA ** 2 * SCRELU_W2_LIMIT < 2 ** 31 in magnitude (a screlu network's bound on w2)."""
    total = np.int32(0)
    for j in range(HIDDEN):
        value = sums[j]
        value = 0 if value < 0 else (QA if value > QA else value)
        weighted = np.int16(value * weights[j])          # QA * SCRELU_W2_LIMIT fits int16: 16-bit multiply-adds
        total = np.int32(total + np.int32(weighted) * np.int32(value))
    return total


@jit("int64(int64[::1], int16[::1], int16[::1], int64, int64, int64)")
def network_output(params, net, sums, at, side, pieces):
    """The network's score in centipawns for `side` (the side to move) from the computed sums of a ply (white view at
    int16 index `at`, black view after it) with `pieces` pieces on the board (they choose the output bucket)."""
    bucket = output_bucket(pieces)
    own = sums[at + side * HIDDEN:at + (side + 1) * HIDDEN]
    other = sums[at + (1 - side) * HIDDEN:at + (2 - side) * HIDDEN]
    weights = N_W2 + bucket * 2 * HIDDEN
    own_weights = net[weights:weights + HIDDEN]
    other_weights = net[weights + HIDDEN:weights + 2 * HIDDEN]
    if params[P_ACTIVATION] == SCRELU:   # in units of QA ** 2 * qb
        scaled = (params[P_B2 + bucket] * QA + _squared_dot(own, own_weights) + _squared_dot(other, other_weights)) \
            * OUTPUT_SCALE
        divisor = QA * QA * params[P_QB]
    else:                                # in units of QA * qb
        scaled = (params[P_B2 + bucket] + _clipped_dot(own, own_weights) + _clipped_dot(other, other_weights)) \
            * OUTPUT_SCALE
        divisor = QA * params[P_QB]
    if scaled >= 0:
        return scaled // divisor
    return -((-scaled) // divisor)


@jit("int64(uint64[::1], int64[::1], int64[::1], int64[::1], int64, int64)")
def network_score(bb, st, params, work, base, ply):
    """The network's score of the current position, reached at `ply` from ply 0 with every move recorded in the
    accumulator array `work`."""
    sums = work.view(np.int16)
    net = params.view(np.int16)
    ensure_view(bb, st, net, work, sums, base, ply, WHITE)
    ensure_view(bb, st, net, work, sums, base, ply, BLACK)
    return network_output(params, net, sums, sums_at(base, ply, WHITE), st[ST_SIDE], popcount(bb[BB_ALL]))


@jit("int64(uint64[::1], int64[::1], int64[::1])", allocates=True)
def evaluate_network(bb, st, params):
    """The network's score of the position for the side to move, computed from scratch."""
    work = np.zeros(PLY_SLOTS, dtype=np.int64)
    refresh_root(bb, st, params, work, 0)
    return network_output(params, params.view(np.int16), work.view(np.int16), sums_at(0, 0, WHITE), st[ST_SIDE],
                          popcount(bb[BB_ALL]))
