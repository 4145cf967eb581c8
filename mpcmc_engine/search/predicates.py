"""Questions the search asks about a position or a move: is the move tactical, does a quiet move give check, is the
position drawn (fifty-move rule, insufficient material, repetition)."""

import numpy as np

from mpcmc_engine.bitboard.attacks import (
    between, bishop_attacks, knight_attacks, line_through, pawn_attacks, rook_attacks,
)
from mpcmc_engine.bitboard.constants import (
    BB_ALL, BB_KEYS, BISHOP, KIND_CASTLE, KIND_EN_PASSANT, KIND_PROMOTION, KING, KNIGHT, PAWN, QUEEN, ROOK, ST_BOARD,
    ST_HALFMOVE, ST_PLY, ST_SIDE, ST_UNDO, U0, U1, U_MOVE, UNDO_SIZE,
)
from mpcmc_engine.bitboard.moves import move_from, move_kind, move_to
from mpcmc_engine.jit import jit
from mpcmc_engine.jit.intrinsics import lsb, popcount

LIGHT_SQUARES = np.uint64(0x55AA55AA55AA55AA)


@jit("boolean(int64[::1], int64)", inline="always")
def is_tactical(st, move):
    """Captures (en passant included) and promotions."""
    kind = move_kind(move)
    if kind == KIND_PROMOTION or kind == KIND_EN_PASSANT:
        return True
    return kind != KIND_CASTLE and st[ST_BOARD + move_to(move)] != 0


@jit("boolean(uint64[::1], uint64[::1], int64[::1], int64)")
def gives_check(tab, bb, st, move):
    """True when the quiet (non-capture, non-promotion) `move` checks the opponent's king, directly or by
    discovery. A king move counts as none: castling's rook and a king stepping off a line are not looked at. Slider
    attacks are computed only for a piece that ends on a line with the king (direct) or leaves one (discovered)."""
    us = st[ST_SIDE]
    origin, target = move_from(move), move_to(move)
    piece = st[ST_BOARD + origin] & 7
    if piece == KING:
        return False
    king = lsb(bb[(1 - us) * 8 + KING])
    king_bit = U1 << np.uint64(king)
    origin_bit = U1 << np.uint64(origin)
    occupied = (bb[BB_ALL] ^ origin_bit) | (U1 << np.uint64(target))
    if piece == KNIGHT:
        if knight_attacks(tab, target) & king_bit:
            return True
    elif piece == PAWN:
        if pawn_attacks(tab, us, target) & king_bit:
            return True
    elif line_through(tab, target, king) != U0 and between(tab, target, king) & occupied == U0:
        straight_line = (target ^ king) & 7 == 0 or (target ^ king) >> 3 == 0  # the same file or rank
        if piece == QUEEN or (piece == ROOK) == straight_line:
            return True
    if line_through(tab, origin, king) == U0:
        return False  # only a piece on a line with the king can uncover a check
    diagonal = (bb[us * 8 + BISHOP] | bb[us * 8 + QUEEN]) & ~origin_bit
    straight = (bb[us * 8 + ROOK] | bb[us * 8 + QUEEN]) & ~origin_bit
    return ((bishop_attacks(tab, king, occupied) & diagonal) | (rook_attacks(tab, king, occupied) & straight)) != U0


@jit("boolean(uint64[::1])")
def insufficient_material(bb):
    """True when neither side can mate: no pawns, rooks or queens, and one minor piece at most or only bishops all
    on squares of one colour."""
    if bb[PAWN] | bb[8 + PAWN] | bb[ROOK] | bb[8 + ROOK] | bb[QUEEN] | bb[8 + QUEEN]:
        return False
    knights = bb[2] | bb[8 + 2]
    bishops = bb[BISHOP] | bb[8 + BISHOP]
    if popcount(knights | bishops) <= 1:
        return True
    return knights == U0 and ((bishops & LIGHT_SQUARES) == U0 or (bishops & ~LIGHT_SQUARES) == U0)


@jit("boolean(uint64[::1], int64[::1], int64)")
def is_draw(bb, st, root_ply):
    """True when the position is drawn by the fifty-move rule, insufficient material or repetition. A position
    repeating one at or after the root (ply `root_ply`) is a draw at once; an earlier one must occur twice. The scan
    stops at the last irreversible move or null move."""
    if st[ST_HALFMOVE] >= 100 or insufficient_material(bb):
        return True
    ply = st[ST_PLY]
    key = bb[BB_KEYS + ply]
    oldest = max(ply - st[ST_HALFMOVE], 0)
    seen = 0
    earlier = ply
    while earlier - 2 >= oldest:
        if (st[ST_UNDO + (earlier - 1) * UNDO_SIZE + U_MOVE] == 0
                or st[ST_UNDO + (earlier - 2) * UNDO_SIZE + U_MOVE] == 0):
            return False
        earlier -= 2
        if bb[BB_KEYS + earlier] == key:
            if earlier >= root_ply:
                return True
            seen += 1
            if seen == 2:
                return True
    return False
