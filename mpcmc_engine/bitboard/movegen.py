"""Legal move generation: every legal move, or only captures and promotions (for quiescence).

Moves are legal by construction: the generator knows the checkers, the pinned pieces and their pin lines, the squares
the king may step to (attacks computed without the king), the en passant capture that would uncover the king, and
Chess960 castling with king and rook anywhere on the back rank.
"""

import numpy as np

from mpcmc_engine.bitboard.attacks import (
    attackers_of_colour, between, bishop_attacks, king_attacks, knight_attacks, line_through, pawn_attacks,
    rook_attacks,
)
from mpcmc_engine.bitboard.constants import (
    ALL_BITS, BB_ALL, BISHOP, KIND_CASTLE, KIND_EN_PASSANT, KIND_PROMOTION, KING, KNIGHT, NO_SQUARE,
    PAWN, QUEEN, RANK_1, RANK_8, ROOK, ST_CASTLE, ST_EP, ST_ROOK_SQ, ST_SIDE, U0, U1, WHITE,
)
from mpcmc_engine.bitboard.layout import occupied_by, pieces
from mpcmc_engine.bitboard.makemove import castling_destinations
from mpcmc_engine.bitboard.moves import encode_move
from mpcmc_engine.jit import jit
from mpcmc_engine.jit.intrinsics import lsb


@jit("int64(int64[::1], int64, int64, uint64)", inline="always")
def _add_moves(moves, n, origin, targets):
    """Append a normal move from `origin` to each square of `targets`; return the new count."""
    while targets:
        target = lsb(targets)
        moves[n] = origin | (target << 6)
        n += 1
        targets &= targets - U1
    return n


@jit("int64(int64[::1], int64, int64, uint64, boolean)", inline="always")
def _add_pawn_moves(moves, n, origin, targets, promotion):
    """Append pawn moves to `targets`; four moves (queen first) each when they promote."""
    while targets:
        target = lsb(targets)
        if promotion:
            for piece in (QUEEN, KNIGHT, ROOK, BISHOP):
                moves[n] = encode_move(origin, target, KIND_PROMOTION, piece)
                n += 1
        else:
            moves[n] = origin | (target << 6)
            n += 1
        targets &= targets - U1
    return n


@jit("int64(uint64[::1], int64[::1], int64, uint64, boolean, uint64, uint64, uint64, int64)", inline="always")
def _add_slider_moves(tab, moves, n, movers, diagonal, occupied, piece_mask, pinned, king):
    """Append the moves of the sliders `movers` along diagonals (`diagonal`) or ranks and files to the squares of
    `piece_mask`, a pinned one only along its pin line; return the new count."""
    while movers:
        origin = lsb(movers)
        attacks = bishop_attacks(tab, origin, occupied) if diagonal else rook_attacks(tab, origin, occupied)
        targets = attacks & piece_mask
        if (pinned >> np.uint64(origin)) & U1:
            targets &= line_through(tab, king, origin)
        n = _add_moves(moves, n, origin, targets)
        movers &= movers - U1
    return n


@jit("uint64(uint64[::1], uint64[::1], int64, int64)")
def pinned_pieces(tab, bb, king, us):
    """Pieces of colour `us` pinned to their king on `king` by an enemy slider."""
    them = 1 - us
    their = occupied_by(bb, them)
    snipers = ((rook_attacks(tab, king, their) & (pieces(bb, them, ROOK) | pieces(bb, them, QUEEN)))
               | (bishop_attacks(tab, king, their) & (pieces(bb, them, BISHOP) | pieces(bb, them, QUEEN))))
    pinned = U0
    while snipers:
        blockers = between(tab, king, lsb(snipers)) & bb[BB_ALL]
        if blockers and not (blockers & (blockers - U1)):
            pinned |= blockers & occupied_by(bb, us)
        snipers &= snipers - U1
    return pinned


@jit("int64(uint64[::1], uint64[::1], int64[::1], int64[::1], int64, boolean)")
def generate_moves(tab, bb, st, moves, n, captures_only):
    """Write the legal moves of the side to move into moves[n:]; return the index after the last one.

    With `captures_only`, only captures (en passant included) and promotions are written; a caller in check that
    needs every evasion must ask for all moves.
    """
    us = st[ST_SIDE]
    them = 1 - us
    ours = occupied_by(bb, us)
    theirs = occupied_by(bb, them)
    occupied = bb[BB_ALL]
    king = lsb(pieces(bb, us, KING))
    checkers = attackers_of_colour(tab, bb, king, occupied, them)

    # King steps: to squares not attacked once the king has left its square.
    targets = king_attacks(tab, king) & ~ours
    if captures_only:
        targets &= theirs
    without_king = occupied ^ (U1 << np.uint64(king))
    while targets:
        target = lsb(targets)
        if attackers_of_colour(tab, bb, target, without_king, them) == 0:
            moves[n] = king | (target << 6)
            n += 1
        targets &= targets - U1
    if checkers & (checkers - U1):
        return n  # double check: only the king moves

    allowed = ALL_BITS
    if checkers:
        allowed = checkers | between(tab, king, lsb(checkers))
    capture_mask = allowed & theirs
    piece_mask = capture_mask if captures_only else allowed & ~ours
    pinned = pinned_pieces(tab, bb, king, us)

    movers = pieces(bb, us, KNIGHT) & ~pinned
    while movers:
        origin = lsb(movers)
        n = _add_moves(moves, n, origin, knight_attacks(tab, origin) & piece_mask)
        movers &= movers - U1
    queens = pieces(bb, us, QUEEN)
    n = _add_slider_moves(tab, moves, n, pieces(bb, us, BISHOP) | queens, True, occupied, piece_mask, pinned, king)
    n = _add_slider_moves(tab, moves, n, pieces(bb, us, ROOK) | queens, False, occupied, piece_mask, pinned, king)

    # Pawns.
    last_rank = RANK_8 if us == WHITE else RANK_1
    forward = 8 if us == WHITE else -8
    start_rank_low, start_rank_high = (8, 16) if us == WHITE else (48, 56)
    movers = pieces(bb, us, PAWN)
    while movers:
        origin = lsb(movers)
        movers &= movers - U1
        mask = allowed
        if (pinned >> np.uint64(origin)) & U1:
            mask &= line_through(tab, king, origin)
        one = origin + forward
        one_bit = U1 << np.uint64(one)
        promotes = (one_bit & last_rank) != U0
        captures = pawn_attacks(tab, us, origin) & theirs & mask
        n = _add_pawn_moves(moves, n, origin, captures, promotes)
        if one_bit & occupied:
            continue
        if promotes:
            n = _add_pawn_moves(moves, n, origin, one_bit & mask, True)
        elif not captures_only:
            n = _add_pawn_moves(moves, n, origin, one_bit & mask, False)
            if start_rank_low <= origin < start_rank_high:
                two_bit = U1 << np.uint64(one + forward)
                if not (two_bit & occupied):
                    n = _add_pawn_moves(moves, n, origin, two_bit & mask, False)

    # En passant: legal when the king is not attacked once both pawns have left their squares.
    ep = st[ST_EP]
    if ep != NO_SQUARE:
        captured_square = ep - forward
        captured_bit = U1 << np.uint64(captured_square)
        movers = pawn_attacks(tab, them, ep) & pieces(bb, us, PAWN)
        while movers:
            origin = lsb(movers)
            movers &= movers - U1
            after = (occupied ^ (U1 << np.uint64(origin)) ^ captured_bit) | (U1 << np.uint64(ep))
            if attackers_of_colour(tab, bb, king, after, them) & ~captured_bit == U0:
                moves[n] = encode_move(origin, ep, KIND_EN_PASSANT, 0)
                n += 1

    # Castling (king-takes-rook encoding): squares between king and rook and their targets empty, and no square
    # of the king's path attacked once king and rook have left their squares.
    if checkers or captures_only:
        return n
    rights = st[ST_CASTLE]
    for slot in range(us * 2, us * 2 + 2):
        if not (rights >> slot) & 1:
            continue
        rook = st[ST_ROOK_SQ + slot]
        king_to, rook_to = castling_destinations(us, slot % 2 == 0)
        king_bit = U1 << np.uint64(king)
        rook_bit = U1 << np.uint64(rook)
        path = between(tab, king, king_to) | (U1 << np.uint64(king_to))
        needed_empty = (path | between(tab, rook, rook_to) | (U1 << np.uint64(rook_to))) & ~(king_bit | rook_bit)
        if needed_empty & occupied:
            continue
        after = occupied ^ king_bit ^ rook_bit
        safe = True
        while path:
            if attackers_of_colour(tab, bb, lsb(path), after, them):
                safe = False
                break
            path &= path - U1
        if safe:
            moves[n] = encode_move(king, rook, KIND_CASTLE, 0)
            n += 1
    return n


@jit("boolean(uint64[::1], uint64[::1], int64[::1])")
def in_check(tab, bb, st):
    """True when the side to move is in check."""
    us = st[ST_SIDE]
    return attackers_of_colour(tab, bb, lsb(pieces(bb, us, KING)), bb[BB_ALL], 1 - us) != U0
