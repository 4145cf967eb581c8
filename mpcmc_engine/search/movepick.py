"""Move ordering: the ordering scores of a node's moves (TT move, captures by MVV-LVA and SEE, killers, counter
move, quiet moves by history and threats) and the selection of the next move to search.

The moves of ply p lie in ws[W_MOVES + p * MAX_MOVES:], their scores at the same offsets from W_ORDER (the bands
are the ORDER_* constants of mpcmc_engine.search.constants).
"""

import numpy as np

from mpcmc_engine.bitboard.attacks import bishop_attacks, knight_attacks, pawn_attacks_all, rook_attacks
from mpcmc_engine.bitboard.constants import (
    BB_ALL, BISHOP, KIND_EN_PASSANT, KIND_PROMOTION, KING, KNIGHT, PAWN, QUEEN, ROOK, ST_BOARD, ST_SIDE, U1,
)
from mpcmc_engine.bitboard.moves import move_from, move_kind, move_promotion, move_to
from mpcmc_engine.jit import jit
from mpcmc_engine.jit.intrinsics import lsb
from mpcmc_engine.search.constants import (
    ORDER_BAD_CAPTURE, ORDER_GOOD_CAPTURE, ORDER_KILLER, ORDER_TT_MOVE, W_COUNTER, W_KILLERS, W_MOVED, W_MOVES,
    W_ORDER,
)
from mpcmc_engine.search.history import quiet_history
from mpcmc_engine.search.predicates import is_tactical
from mpcmc_engine.search.see import SEE_VALUE, see_ge
from mpcmc_engine.search.tunables import THREAT_ESCAPE_MINOR, THREAT_ESCAPE_QUEEN, THREAT_ESCAPE_ROOK

# Ordering bonus of a quiet move that takes a piece out of an attack by a lesser piece (a malus for one that moves it
# into such an attack), by piece type: knights and bishops from pawns, rooks from minor pieces, queens from rooks.
THREAT_ESCAPE = np.array([0, 0, THREAT_ESCAPE_MINOR, THREAT_ESCAPE_MINOR, THREAT_ESCAPE_ROOK, THREAT_ESCAPE_QUEEN,
                          0, 0], dtype=np.int64)


@jit("int64(int64[::1], int64)", inline="always")
def capture_order(st, move):
    """MVV-LVA score of a tactical move: the victim's value (plus a promotion's gain) first, the attacker's second."""
    kind = move_kind(move)
    victim = PAWN if kind == KIND_EN_PASSANT else st[ST_BOARD + move_to(move)] & 7
    gain = SEE_VALUE[victim]
    if kind == KIND_PROMOTION:
        gain += SEE_VALUE[move_promotion(move)] - SEE_VALUE[PAWN]
    return gain * 8 - (st[ST_BOARD + move_from(move)] & 7)


@jit("void(int64[::1], int64[::1], int64, int64, int64)", inline="always")
def order_tactical_moves(st, ws, start, end, tt_move):
    """Give moves ws[start:end] the ordering scores of quiescence and ProbCut: the TT move first, then tactical moves
    by MVV-LVA, other moves (evasions) last."""
    for i in range(start, end):
        score = ORDER_TT_MOVE if ws[i] == tt_move else 0
        if is_tactical(st, ws[i]):
            score += capture_order(st, ws[i])
        ws[i - W_MOVES + W_ORDER] = score


@jit("UniTuple(uint64, 3)(uint64[::1], uint64[::1], int64)")
def lesser_threats(tab, bb, them):
    """Squares attacked by `them`'s pawns, by their pawns or minor pieces, and by their pawns, minor pieces or
    rooks: where a knight or bishop, a rook, and a queen of the other side are attacked by a lesser piece."""
    occupied = bb[BB_ALL]
    by_pawn = pawn_attacks_all(bb[them * 8 + PAWN], them)
    by_minor = by_pawn
    pieces = bb[them * 8 + KNIGHT]
    while pieces:
        by_minor |= knight_attacks(tab, lsb(pieces))
        pieces &= pieces - U1
    pieces = bb[them * 8 + BISHOP]
    while pieces:
        by_minor |= bishop_attacks(tab, lsb(pieces), occupied)
        pieces &= pieces - U1
    by_rook = by_minor
    pieces = bb[them * 8 + ROOK]
    while pieces:
        by_rook |= rook_attacks(tab, lsb(pieces), occupied)
        pieces &= pieces - U1
    return by_pawn, by_minor, by_rook


@jit("void(uint64[::1], uint64[::1], int64[::1], int64[::1], int64, int64, int64, int64)")
def order_moves(tab, bb, st, ws, start, end, tt_move, ply):
    """Give moves ws[start:end] their ordering scores: TT move, good captures and queen promotions by MVV-LVA,
    killers, the counter move, quiet moves by history (plus THREAT_ESCAPE for a piece leaving an attack by a lesser
    piece, less it for one entering such an attack), captures losing material (SEE) last."""
    by_pawn, by_minor, by_rook = lesser_threats(tab, bb, 1 - st[ST_SIDE])
    killer_a = ws[W_KILLERS + 2 * ply]
    killer_b = ws[W_KILLERS + 2 * ply + 1]
    counter = ws[W_COUNTER + ws[W_MOVED + ply - 1]] if ply > 0 and ws[W_MOVED + ply - 1] >= 0 else 0
    for i in range(start, end):
        move = ws[i]
        if move == tt_move:
            score = ORDER_TT_MOVE
        elif is_tactical(st, move):
            score = capture_order(st, move)
            if move_kind(move) == KIND_PROMOTION and move_promotion(move) != QUEEN:
                score = ORDER_BAD_CAPTURE + score
            elif SEE_VALUE[st[ST_BOARD + move_from(move)] & 7] <= score // 8 or see_ge(tab, bb, st, move, 0):
                score = ORDER_GOOD_CAPTURE + score
            else:
                score = ORDER_BAD_CAPTURE + score
        elif move == killer_a:
            score = ORDER_KILLER
        elif move == killer_b:
            score = ORDER_KILLER - 1
        elif move == counter:
            score = ORDER_KILLER - 2
        else:
            score = quiet_history(ws, st, move, ply)
            piece = st[ST_BOARD + move_from(move)] & 7
            threats = by_rook if piece == QUEEN else (by_minor if piece == ROOK else by_pawn)
            if piece != PAWN and piece != KING:
                leaves = (threats >> np.uint64(move_from(move))) & U1
                enters = (threats >> np.uint64(move_to(move))) & U1
                score += THREAT_ESCAPE[piece] * (np.int64(leaves) - np.int64(enters))
        ws[i - W_MOVES + W_ORDER] = score


@jit("int64(int64[::1], int64, int64)", inline="always")
def pick_move(ws, index, end):
    """Swap the best-scored of moves ws[index:end] into ws[index] (selection sort step) and return it."""
    moves = ws[index:end]
    scores = ws[index - W_MOVES + W_ORDER:end - W_MOVES + W_ORDER]
    best_score = scores[0]
    for i in range(1, end - index):  # a branch-free maximum LLVM vectorizes; then the first move holding it
        best_score = max(best_score, scores[i])
    best = 0
    while scores[best] != best_score:
        best += 1
    move = moves[best]
    moves[best] = moves[0]
    moves[0] = move
    scores[best] = scores[0]
    scores[0] = best_score
    return move
