"""The alpha-beta node routine of the numba search, `negamax`: PVS with TT cutoffs, reverse futility pruning, null
move (verified at high depth), ProbCut, internal iterative reduction, singular extension, late-move, futility and SEE
pruning, late move reductions and check extension.

Every search function takes the same arrays: `tab`, `bb`, `st` (the board, see bitboard), `weights` (packed evaluation
weights), `tt` (the shared transposition table), `ws` (this thread's work array, slots in mpcmc_engine.search.constants)
and `ctl` (the shared control array). Scores are fail-soft centipawns from the side to move's view; a search that
had to stop sets ws[S_ABORT] and returns a meaningless score that callers discard.

The search is split by concern, each module importing only those listed before it: tunables (the tuning constants)
and constants, predicates (tactical moves, checks, draws), node (node counting, making moves, evaluation, the PV),
history (killers, counter moves, histories), movepick (move ordering), pruning (reductions and per-move pruning),
quiescence, core (negamax) and root (`search_root`, which the drivers of mpcmc_engine.search.searcher call once per
root search).
"""

from mpcmc_engine.bitboard.constants import (
    BB_KEYS, KING, MAX_MOVES, PAWN, ST_PLY, ST_SIDE, ST_UNDO, U0, UNDO_SIZE, U_MOVE,
)
from mpcmc_engine.bitboard.makemove import key_after, unmake_move, unmake_null_move
from mpcmc_engine.bitboard.movegen import generate_moves, in_check
from mpcmc_engine.jit import jit
from mpcmc_engine.search.constants import (
    BOUND_EXACT, BOUND_LOWER, BOUND_NONE, BOUND_UPPER, C_GENERATION, DRAW, EVAL_NONE, INF, MATE, MATE_BOUND, MAX_PLY,
    ORDER_BAD_CAPTURE, ORDER_PRUNED, S_ABORT, S_NMP_COLOR, S_NMP_MIN_PLY, S_ROOT_DEPTH, S_ROOT_PLY, W_EVAL, W_EXCLUDED,
    W_MOVED, W_MOVES, W_ORDER, W_PV_LENGTH,
)
from mpcmc_engine.search.history import piece_target, reward_quiet
from mpcmc_engine.search.movepick import order_moves, order_tactical_moves, pick_move
from mpcmc_engine.search.node import (
    enter_node, play, play_null_move, search_evaluate, stored_or_evaluate, tt_bounded_eval, update_pv,
)
from mpcmc_engine.search.predicates import is_draw, is_tactical
from mpcmc_engine.search.pruning import is_improving, late_move_reduction, non_pawn_material, prune_move
from mpcmc_engine.search.quiescence import quiescence
from mpcmc_engine.search.see import see_ge
from mpcmc_engine.search.tt import entry_bound, entry_depth, entry_move, entry_score, tt_prefetch, tt_probe, tt_store
from mpcmc_engine.search.tunables import (
    ENDGAME_MATERIAL, ENDGAME_RFP_MAX_DEPTH, FUTILITY_BASE, FUTILITY_MARGIN, IIR_MIN_DEPTH, LMP_BASE, LMR_MIN_DEPTH,
    LMR_MIN_MOVES, NULL_MOVE_BASE, NULL_MOVE_DEPTH_DIVISOR, NULL_MOVE_EVAL_DIVISOR, NULL_MOVE_MIN_DEPTH,
    PROBCUT_IMPROVING, PROBCUT_MARGIN, PROBCUT_MIN_DEPTH, PROBCUT_REDUCTION, RFP_MARGIN, RFP_MAX_DEPTH, SINGULAR_MARGIN,
    SINGULAR_MIN_DEPTH, VERIFY_MIN_DEPTH,
)

NODE_SIGNATURE = ("int64(uint64[::1], uint64[::1], int64[::1], int64[::1], uint64[::1], int64[::1], int64[::1], "
                  "int64, int64, int64, int64)")


@jit(NODE_SIGNATURE)
def negamax(tab, bb, st, weights, tt, ws, ctl, depth, ply, alpha, beta):
    """Alpha-beta search of `depth` plies (quiescence below 1) at distance `ply` from the root: PVS, TT cutoffs
    outside PV nodes, null-move pruning, ProbCut, late move reductions (a ply less for a move giving check), check
    extension, mate-distance pruning and draw detection. Null moves are never played twice in a row. Fail-soft:
    returns r with r <= alpha when no move reaches alpha, r >= beta on a cutoff; outside PV nodes a cutoff's score
    (not a mate) is pulled toward beta, to (score * depth + beta) / (depth + 1)."""
    if depth <= 0:
        return quiescence(tab, bb, st, weights, tt, ws, ctl, ply, alpha, beta)
    ws[W_PV_LENGTH + ply] = 0
    if enter_node(ws, ctl, ply):
        return 0
    if is_draw(bb, st, ws[S_ROOT_PLY]):
        return DRAW
    if ply >= MAX_PLY - 1:
        return search_evaluate(tab, bb, st, weights, ws, ply)
    alpha = max(alpha, -MATE + ply)
    beta = min(beta, MATE - ply - 1)
    if alpha >= beta:
        return alpha
    pv_node = beta - alpha > 1
    excluded = ws[W_EXCLUDED + ply]  # a singular-extension search of this node without its TT move
    key = bb[BB_KEYS + st[ST_PLY]]
    entry = tt_probe(tt, key)
    tt_move = entry_move(entry)
    if entry != 0 and not pv_node and excluded == 0 and entry_depth(entry) >= depth:
        score = entry_score(entry, ply)
        bound = entry_bound(entry)
        if (bound == BOUND_EXACT or (bound == BOUND_LOWER and score >= beta)
                or (bound == BOUND_UPPER and score <= alpha)):
            return score
    checked = in_check(tab, bb, st)
    if checked:
        depth += 1
        static_eval = EVAL_NONE
        eval_ = EVAL_NONE
    else:
        static_eval = stored_or_evaluate(tab, bb, st, weights, ws, ply, entry)
        eval_ = tt_bounded_eval(entry, ply, static_eval)
        if entry == 0:  # keep the evaluation for a return before the node's result is stored (pruning, cutoffs)
            tt_store(tt, key, 0, 0, 0, BOUND_NONE, ply, ctl[C_GENERATION], static_eval)
    ws[W_EVAL + ply] = static_eval
    improving = not checked and is_improving(ws, ply, static_eval)
    us = st[ST_SIDE]
    endgame = non_pawn_material(bb, us) <= ENDGAME_MATERIAL
    if (not pv_node and not checked and excluded == 0
            and depth <= (ENDGAME_RFP_MAX_DEPTH if endgame else RFP_MAX_DEPTH)
            and abs(eval_) < MATE_BOUND and eval_ - RFP_MARGIN * (depth - improving) >= beta):
        return (eval_ + beta) // 2  # halfway: an evaluation far above beta is less sure than it looks
    if (not pv_node and not checked and excluded == 0 and depth >= NULL_MOVE_MIN_DEPTH
            and -MATE_BOUND < beta < MATE_BOUND
            and (ply >= ws[S_NMP_MIN_PLY] or us != ws[S_NMP_COLOR])
            and bb[us * 8] & ~(bb[us * 8 + PAWN] | bb[us * 8 + KING]) != U0
            and st[ST_UNDO + (st[ST_PLY] - 1) * UNDO_SIZE + U_MOVE] != 0
            and eval_ >= beta):
        reduction = NULL_MOVE_BASE + depth // NULL_MOVE_DEPTH_DIVISOR + min((eval_ - beta) // NULL_MOVE_EVAL_DIVISOR, 3)
        ws[W_MOVED + ply] = -1
        play_null_move(tab, bb, st, weights, tt, ws, ply)
        score = -negamax(tab, bb, st, weights, tt, ws, ctl, depth - 1 - reduction, ply + 1, -beta, -beta + 1)
        unmake_null_move(st)
        if ws[S_ABORT]:
            return 0
        if score >= beta:
            score = beta if score >= MATE_BOUND else score
            if ws[S_NMP_MIN_PLY] != 0 or (depth < VERIFY_MIN_DEPTH and not endgame):
                return score
            # Verification: the same node searched without null moves of this side for the next plies must fail
            # high as well; only one ply less deep in a late endgame, where zugzwang is likely.
            verify_depth = depth - 1 if endgame else depth - reduction
            ws[S_NMP_MIN_PLY] = ply + 3 * verify_depth // 4
            ws[S_NMP_COLOR] = us
            verified = negamax(tab, bb, st, weights, tt, ws, ctl, verify_depth, ply, beta - 1, beta)
            ws[S_NMP_MIN_PLY] = 0
            if ws[S_ABORT]:
                return 0
            if verified >= beta:
                return score
    probcut_beta = beta + PROBCUT_MARGIN - PROBCUT_IMPROVING * improving
    probcut_depth = depth - PROBCUT_REDUCTION + 1  # the depth a ProbCut verification search stands for
    if (not pv_node and not checked and excluded == 0 and depth >= PROBCUT_MIN_DEPTH and abs(beta) < MATE_BOUND
            and not (entry != 0 and entry_depth(entry) >= probcut_depth
                     and entry_score(entry, ply) < probcut_beta)):
        # ProbCut: a capture that beats probcut_beta in a reduced search (after a quiescence search that does)
        # almost surely beats beta at full depth.
        start = W_MOVES + ply * MAX_MOVES
        end = generate_moves(tab, bb, st, ws, start, True)
        order_tactical_moves(st, ws, start, end, tt_move)
        for i in range(start, end):
            move = pick_move(ws, i, end)
            if not see_ge(tab, bb, st, move, probcut_beta - static_eval):
                continue
            ws[W_MOVED + ply] = piece_target(st, move)
            play(tab, bb, st, weights, tt, ws, ply, move)
            score = -quiescence(tab, bb, st, weights, tt, ws, ctl, ply + 1, -probcut_beta, -probcut_beta + 1)
            if score >= probcut_beta:
                score = -negamax(tab, bb, st, weights, tt, ws, ctl, depth - PROBCUT_REDUCTION, ply + 1, -probcut_beta,
                                 -probcut_beta + 1)
            unmake_move(bb, st)
            if ws[S_ABORT]:
                return 0
            if score >= probcut_beta:
                tt_store(tt, key, move, score, probcut_depth, BOUND_LOWER, ply, ctl[C_GENERATION],
                         static_eval)
                return score
    if tt_move == 0 and depth >= IIR_MIN_DEPTH:
        depth -= 1  # internal iterative reduction: without a TT move the node is searched a ply less deep
    tt_extension = 0
    if (excluded == 0 and tt_move != 0 and depth >= SINGULAR_MIN_DEPTH and ply < 2 * ws[S_ROOT_DEPTH]
            and entry_depth(entry) >= depth - 3 and entry_bound(entry) & BOUND_LOWER
            and abs(entry_score(entry, ply)) < MATE_BOUND):
        # Singular extension: is the TT move the only good one? Search the node without it, less deep, against a
        # bound a little below its score.
        tt_score = entry_score(entry, ply)
        singular_beta = tt_score - SINGULAR_MARGIN * depth
        ws[W_EXCLUDED + ply] = tt_move
        score = negamax(tab, bb, st, weights, tt, ws, ctl, (depth - 1) // 2, ply, singular_beta - 1, singular_beta)
        ws[W_EXCLUDED + ply] = 0
        if ws[S_ABORT]:
            return 0
        if score < singular_beta:
            tt_extension = 1
        elif singular_beta >= beta:
            return singular_beta  # multi-cut: another move beats beta as well
        elif tt_score >= beta:
            tt_extension = -1
    start = W_MOVES + ply * MAX_MOVES
    end = generate_moves(tab, bb, st, ws, start, False)
    if end == start:
        return -MATE + ply if checked else DRAW
    order_moves(tab, bb, st, ws, start, end, tt_move, ply)
    original_alpha = alpha
    best = -INF
    best_move = 0
    quiets = 0
    late_quiets = (LMP_BASE + depth * depth) // (2 - improving)
    for i in range(start, end):
        move = pick_move(ws, i, end)
        searched = i - start
        quiet = not is_tactical(st, move)
        if move == excluded:
            ws[i - W_MOVES + W_ORDER] = ORDER_PRUNED
            continue
        if best > -MATE_BOUND and not checked and prune_move(tab, bb, st, move, quiet, depth, quiets >= late_quiets,
                                                             eval_ + FUTILITY_BASE + FUTILITY_MARGIN * depth <= alpha):
            ws[i - W_MOVES + W_ORDER] = ORDER_PRUNED
            continue
        tt_prefetch(tt, key_after(tab, st, key, move))
        quiets += quiet
        ws[W_MOVED + ply] = piece_target(st, move)
        play(tab, bb, st, weights, tt, ws, ply, move)
        if searched == 0:
            extension = tt_extension if move == tt_move else 0
            score = -negamax(tab, bb, st, weights, tt, ws, ctl, depth - 1 + extension, ply + 1, -beta, -alpha)
        else:
            reduction = 0
            order = ws[i - W_MOVES + W_ORDER]
            if (depth >= LMR_MIN_DEPTH and searched >= LMR_MIN_MOVES and not checked
                    and (quiet or order < ORDER_BAD_CAPTURE // 2)):
                reduction = late_move_reduction(depth, searched, quiet, order, pv_node, improving,
                                                in_check(tab, bb, st))
            score = -negamax(tab, bb, st, weights, tt, ws, ctl, depth - 1 - reduction, ply + 1, -alpha - 1, -alpha)
            if score > alpha and reduction > 0:
                score = -negamax(tab, bb, st, weights, tt, ws, ctl, depth - 1, ply + 1, -alpha - 1, -alpha)
            if alpha < score < beta:
                score = -negamax(tab, bb, st, weights, tt, ws, ctl, depth - 1, ply + 1, -beta, -alpha)
        unmake_move(bb, st)
        if ws[S_ABORT]:
            return 0
        if score > best:
            best = score
            best_move = move  # stored even when no move reaches alpha: it completes PVs through all-nodes
            if score > alpha:
                alpha = score
                update_pv(ws, ply, move)
                if score >= beta:
                    if quiet:
                        reward_quiet(ws, st, move, ply, depth, start, i)
                    break
    if excluded != 0:
        return alpha if best == -INF else best  # no TT store: the result lacks the excluded move
    if best >= beta and not pv_node and abs(best) < MATE_BOUND and abs(beta) < MATE_BOUND:
        best = (best * depth + beta) // (depth + 1)  # a shallow score far above beta counts for less
    bound = BOUND_LOWER if best >= beta else (BOUND_EXACT if best > original_alpha else BOUND_UPPER)
    tt_store(tt, key, best_move, best, depth, bound, ply, ctl[C_GENERATION], static_eval)
    return best
