"""The root of one alpha-beta search: the root moves in order with PVS, the best moved to the front. The drivers
(iterative deepening, aspiration windows, MTD(bi), MultiPV) are in mpcmc_engine.search.searcher and call
`search_root` once per root search; the arrays are those of mpcmc_engine.search.core."""

from mpcmc_engine.bitboard.constants import BB_KEYS, ST_PLY
from mpcmc_engine.bitboard.makemove import unmake_move
from mpcmc_engine.eval.evaluate import KIND_NETWORK
from mpcmc_engine.eval.network_eval import refresh_root
from mpcmc_engine.jit import jit
from mpcmc_engine.search.constants import (
    BOUND_EXACT, BOUND_LOWER, BOUND_UPPER, C_GENERATION, EVAL_NONE, INF, S_ABORT, S_ROOT_DEPTH, W_ACC, W_EVAL, W_MOVED,
    W_PV_LENGTH,
)
from mpcmc_engine.search.core import negamax
from mpcmc_engine.search.history import piece_target
from mpcmc_engine.search.node import enter_node, play, update_pv
from mpcmc_engine.search.tt import tt_store

ROOT_SIGNATURE = ("int64(uint64[::1], uint64[::1], int64[::1], int64[::1], uint64[::1], int64[::1], int64[::1], "
                  "int64[::1], int64, int64, int64, int64)")


@jit(ROOT_SIGNATURE)
def search_root(tab, bb, st, weights, tt, ws, ctl, root_moves, count, depth, alpha, beta):
    """Search root_moves[:count] (best first) to `depth` within (alpha, beta); fail-soft score of the best move.
    A move whose score raises alpha moves to the front of root_moves, and ws's PV row 0 holds its PV."""
    ws[W_PV_LENGTH] = 0
    ws[S_ROOT_DEPTH] = depth
    ws[W_EVAL] = EVAL_NONE  # unknown at the root: plies 2 and 3 count as improving
    if weights[0] == KIND_NETWORK:
        refresh_root(bb, st, weights, ws, W_ACC)
    if enter_node(ws, ctl, 0):
        return 0
    key = bb[BB_KEYS + st[ST_PLY]]
    original_alpha = alpha
    best = -INF
    for i in range(count):
        move = root_moves[i]
        ws[W_MOVED] = piece_target(st, move)
        play(tab, bb, st, weights, tt, ws, 0, move)
        if i == 0:
            score = -negamax(tab, bb, st, weights, tt, ws, ctl, depth - 1, 1, -beta, -alpha)
        else:
            score = -negamax(tab, bb, st, weights, tt, ws, ctl, depth - 1, 1, -alpha - 1, -alpha)
            if alpha < score < beta:
                score = -negamax(tab, bb, st, weights, tt, ws, ctl, depth - 1, 1, -beta, -alpha)
        unmake_move(bb, st)
        if ws[S_ABORT]:
            return 0
        best = max(best, score)
        if score > alpha:
            alpha = score
            update_pv(ws, 0, move)
            for j in range(i, 0, -1):
                root_moves[j] = root_moves[j - 1]
            root_moves[0] = move
            if score >= beta:
                break
    bound = BOUND_LOWER if best >= beta else (BOUND_EXACT if best > original_alpha else BOUND_UPPER)
    tt_store(tt, key, root_moves[0] if best > original_alpha else 0, best, depth, bound, 0, ctl[C_GENERATION],
             EVAL_NONE)
    return best
