"""Quiescence search: the captures (all evasions in check) below the horizon of the alpha-beta search, so that
leaves are evaluated in quiet positions. The arrays are those of mpcmc_engine.search.core."""

from mpcmc_engine.bitboard.constants import BB_KEYS, MAX_MOVES, ST_PLY
from mpcmc_engine.bitboard.makemove import key_after, unmake_move
from mpcmc_engine.bitboard.movegen import generate_moves, in_check
from mpcmc_engine.jit import jit
from mpcmc_engine.search.constants import (
    BOUND_EXACT, BOUND_LOWER, BOUND_UPPER, C_GENERATION, EVAL_NONE, INF, MATE, MAX_PLY, ORDER_TT_MOVE, S_ABORT, W_MOVES,
    W_ORDER, W_PV_LENGTH,
)
from mpcmc_engine.search.movepick import order_tactical_moves, pick_move
from mpcmc_engine.search.node import enter_node, play, search_evaluate, stored_or_evaluate, tt_bounded_eval, update_pv
from mpcmc_engine.search.see import see_ge
from mpcmc_engine.search.tt import entry_bound, entry_move, entry_score, tt_prefetch, tt_probe, tt_store
from mpcmc_engine.search.tunables import DELTA_MARGIN

QUIESCENCE_SIGNATURE = ("int64(uint64[::1], uint64[::1], int64[::1], int64[::1], uint64[::1], int64[::1], "
                        "int64[::1], int64, int64, int64)")


@jit(QUIESCENCE_SIGNATURE)
def quiescence(tab, bb, st, weights, tt, ws, ctl, ply, alpha, beta):
    """Quiescence search: stand pat (the static evaluation, bounded by the TT score), then captures and promotions
    (every evasion when in check), skipping captures that lose material (SEE) or cannot reach alpha (delta pruning);
    TT cutoffs outside PV nodes, the TT move first, results stored at depth 0. Fail-soft within (alpha, beta)."""
    ws[W_PV_LENGTH + ply] = 0
    if enter_node(ws, ctl, ply):
        return 0
    if ply >= MAX_PLY - 1:
        return search_evaluate(tab, bb, st, weights, ws, ply)
    key = bb[BB_KEYS + st[ST_PLY]]
    entry = tt_probe(tt, key)
    if entry != 0 and beta - alpha == 1:
        score = entry_score(entry, ply)
        bound = entry_bound(entry)
        if (bound == BOUND_EXACT or (bound == BOUND_LOWER and score >= beta)
                or (bound == BOUND_UPPER and score <= alpha)):
            return score
    tt_move = entry_move(entry)
    original_alpha = alpha
    checked = in_check(tab, bb, st)
    static_eval = EVAL_NONE
    if checked:
        best = -MATE + ply
        stand_pat = -INF
    else:
        static_eval = stored_or_evaluate(tab, bb, st, weights, ws, ply, entry)
        stand_pat = tt_bounded_eval(entry, ply, static_eval)
        if stand_pat >= beta:
            if entry == 0:
                tt_store(tt, key, 0, stand_pat, 0, BOUND_LOWER, ply, ctl[C_GENERATION], static_eval)
            return stand_pat
        best = stand_pat
        if stand_pat > alpha:
            alpha = stand_pat
    start = W_MOVES + ply * MAX_MOVES
    end = generate_moves(tab, bb, st, ws, start, not checked)
    order_tactical_moves(st, ws, start, end, tt_move)
    best_move = 0
    for i in range(start, end):
        move = pick_move(ws, i, end)
        if not checked and stand_pat + (ws[i - W_MOVES + W_ORDER] & (ORDER_TT_MOVE - 1)) // 8 + DELTA_MARGIN <= alpha:
            continue
        tt_prefetch(tt, key_after(tab, st, key, move))  # the bucket loads while SEE runs
        if not checked and not see_ge(tab, bb, st, move, 0):
            continue
        play(tab, bb, st, weights, tt, ws, ply, move)
        score = -quiescence(tab, bb, st, weights, tt, ws, ctl, ply + 1, -beta, -alpha)
        unmake_move(bb, st)
        if ws[S_ABORT]:
            return 0
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                best_move = move
                update_pv(ws, ply, move)
                if score >= beta:
                    break
    bound = BOUND_LOWER if best >= beta else (BOUND_EXACT if best > original_alpha else BOUND_UPPER)
    tt_store(tt, key, best_move, best, 0, bound, ply, ctl[C_GENERATION], static_eval)
    return best
