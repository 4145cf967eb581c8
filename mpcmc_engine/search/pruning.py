"""The pruning and reduction rules of the alpha-beta search that fit in a function: late move reductions, the
low-depth pruning of single moves (late-move, futility and SEE pruning), and the two facts node-level pruning
reads (is the position improving, how much non-pawn material is left). The node-level rules themselves (reverse
futility, null move, ProbCut, singular extension) are part of negamax in mpcmc_engine.search.core.
"""

import math

import numpy as np

from mpcmc_engine.bitboard.constants import KING, KNIGHT
from mpcmc_engine.jit import jit
from mpcmc_engine.jit.intrinsics import popcount
from mpcmc_engine.search.constants import EVAL_NONE, ORDER_KILLER, W_EVAL
from mpcmc_engine.search.predicates import gives_check
from mpcmc_engine.search.see import SEE_VALUE, see_ge
from mpcmc_engine.search.tunables import (
    FUTILITY_MAX_DEPTH, LMP_MAX_DEPTH, LMR_BASE, LMR_DIVISOR, LMR_HISTORY_DIVISOR, SEE_CAPTURE_MARGIN,
    SEE_CAPTURE_MAX_DEPTH, SEE_QUIET_MARGIN, SEE_QUIET_MAX_DEPTH,
)

# Late move reductions by [depth][move number], both capped at 63.
LMR_REDUCTION = np.array([[0 if d == 0 or m == 0 else int(LMR_BASE + math.log(d) * math.log(m) / LMR_DIVISOR)
                           for m in range(64)] for d in range(64)], dtype=np.int64).ravel()


@jit("int64(int64, int64, boolean, int64, boolean, boolean, boolean)", inline="always")
def late_move_reduction(depth, searched, quiet, order, pv_node, improving, check):
    """Plies by which the `searched`-th move (ordering score `order`) of a node of `depth` is reduced, from 0 to
    depth - 2: the LMR table, one less at PV nodes and for killers and the counter move, one more when the position
    is not improving, less or more by the quiet move's ordering score (history and threat terms, order_moves); half
    the table for captures losing material; one less, after the bounds, for a move that gives `check`."""
    reduction = LMR_REDUCTION[min(depth, 63) * 64 + min(searched, 63)]
    if quiet:
        if order >= ORDER_KILLER - 2:
            reduction -= 1
        else:
            reduction -= order // LMR_HISTORY_DIVISOR if order >= 0 else -(-order // LMR_HISTORY_DIVISOR)
        reduction += 0 if improving else 1
    else:
        reduction //= 2
    if pv_node:
        reduction -= 1
    reduction = min(max(reduction, 0), depth - 2)
    return reduction - 1 if check and reduction > 0 else reduction


@jit("boolean(uint64[::1], uint64[::1], int64[::1], int64, boolean, int64, boolean, boolean)", inline="always")
def prune_move(tab, bb, st, move, quiet, depth, late, futile):
    """Low-depth pruning of one move of a node not in check that already has a score: quiet moves that come late
    (late-move pruning, checks included), or give no check and cannot lift a futile evaluation to alpha (futility
    pruning) or lose material (SEE below a margin growing with depth); captures that lose too much material (SEE)."""
    if quiet:
        if late and depth <= LMP_MAX_DEPTH:
            return True
        prunable = (futile and depth <= FUTILITY_MAX_DEPTH) or (
            depth <= SEE_QUIET_MAX_DEPTH and not see_ge(tab, bb, st, move, -SEE_QUIET_MARGIN * depth))
        return prunable and not gives_check(tab, bb, st, move)
    return depth <= SEE_CAPTURE_MAX_DEPTH and not see_ge(tab, bb, st, move, -SEE_CAPTURE_MARGIN * depth * depth)


@jit("boolean(int64[::1], int64, int64)", inline="always")
def is_improving(ws, ply, static_eval):
    """True when the side to move's static evaluation is better than two plies earlier (four when it was in check
    then; True when both were in check or lie before the root)."""
    for back in (2, 4):
        if ply < back:
            return True
        earlier = ws[W_EVAL + ply - back]
        if earlier != EVAL_NONE:
            return static_eval > earlier
    return True


@jit("int64(uint64[::1], int64)", inline="always")
def non_pawn_material(bb, colour):
    """Value (SEE_VALUE) of `colour`'s knights, bishops, rooks and queens."""
    total = 0
    for piece_type in range(KNIGHT, KING):
        total += SEE_VALUE[piece_type] * popcount(bb[colour * 8 + piece_type])
    return total
