"""The move policy's view of a move from the search's side (model in mpcmc_engine.eval.policy): its tactical class,
which needs the static exchange evaluation and check detection of the search, and the logits of a list of moves."""

from mpcmc_engine.bitboard.attacks import attackers_of_colour
from mpcmc_engine.bitboard.constants import BB_ALL, ST_SIDE
from mpcmc_engine.bitboard.moves import move_from
from mpcmc_engine.eval.policy_eval import move_indices, move_logit
from mpcmc_engine.jit import jit
from mpcmc_engine.search.predicates import gives_check
from mpcmc_engine.search.see import see_ge

CLASS_LOSES_MATERIAL = 1   # the exchange the move starts loses material (SEE < 0)
CLASS_CHECKS = 2           # the move checks the opponent's king
CLASS_ESCAPES = 4          # the moving piece stands attacked


@jit("int64(uint64[::1], uint64[::1], int64[::1], int64)")
def move_class(tab, bb, st, move):
    """The tactical class of `move` (0 .. MOVE_CLASSES - 1): CLASS_* bits."""
    us = st[ST_SIDE]
    kind = 0
    if not see_ge(tab, bb, st, move, 0):
        kind |= CLASS_LOSES_MATERIAL
    if gives_check(tab, bb, st, move):
        kind |= CLASS_CHECKS
    if attackers_of_colour(tab, bb, move_from(move), bb[BB_ALL], 1 - us):
        kind |= CLASS_ESCAPES
    return kind


@jit("int64(uint64[::1], uint64[::1], int64[::1], int64)")
def policy_move(tab, bb, st, move):
    """The packed weight indices of `move` for the side to move, its tactical class included."""
    return move_indices(bb, st, st[ST_SIDE], move, move_class(tab, bb, st, move))


@jit("void(uint64[::1], uint64[::1], int64[::1], float32[::1], float32[::1], int64[::1], int64, int64, float32[::1])")
def policy_logits(tab, bb, st, policy, h, moves, start, count, logits):
    """logits[:count] = the policy's logits of moves[start:start + count] (the side to move's legal moves) given the
    position's hidden vector h."""
    for i in range(count):
        logits[i] = move_logit(policy, h, policy_move(tab, bb, st, moves[start + i]))
