"""Attack look-ups over the table array: sliders by magic bitboards, and who attacks a square."""

import numpy as np

from mpcmc_engine.bitboard.constants import (
    BISHOP, KING, KNIGHT, NOT_FILE_A, NOT_FILE_H, PAWN, QUEEN, ROOK, T_BETWEEN, T_BISHOP_MAGIC,
    T_BISHOP_MASK, T_BISHOP_OFFSET, T_BISHOP_SHIFT, T_KING, T_KNIGHT, T_LINE, T_PAWN_ATTACKS, T_ROOK_MAGIC,
    T_ROOK_MASK, T_ROOK_OFFSET, T_ROOK_SHIFT, WHITE,
)
from mpcmc_engine.bitboard.layout import pieces
from mpcmc_engine.jit import jit


@jit("uint64(uint64[::1], int64, uint64)", inline="always")
def rook_attacks(tab, square, occupied):
    """Squares a rook on `square` attacks given the occupied squares."""
    index = ((occupied & tab[T_ROOK_MASK + square]) * tab[T_ROOK_MAGIC + square]) >> tab[T_ROOK_SHIFT + square]
    return tab[np.int64(tab[T_ROOK_OFFSET + square] + index)]


@jit("uint64(uint64[::1], int64, uint64)", inline="always")
def bishop_attacks(tab, square, occupied):
    """Squares a bishop on `square` attacks given the occupied squares."""
    index = ((occupied & tab[T_BISHOP_MASK + square]) * tab[T_BISHOP_MAGIC + square]) >> tab[T_BISHOP_SHIFT + square]
    return tab[np.int64(tab[T_BISHOP_OFFSET + square] + index)]


@jit("uint64(uint64[::1], int64)", inline="always")
def knight_attacks(tab, square):
    """Squares a knight on `square` attacks."""
    return tab[T_KNIGHT + square]


@jit("uint64(uint64[::1], int64)", inline="always")
def king_attacks(tab, square):
    """Squares a king on `square` attacks."""
    return tab[T_KING + square]


@jit("uint64(uint64[::1], int64, int64)", inline="always")
def pawn_attacks(tab, colour, square):
    """Squares a pawn of `colour` on `square` attacks."""
    return tab[T_PAWN_ATTACKS + colour * 64 + square]


@jit("uint64(uint64, int64)", inline="always")
def pawn_attacks_all(pawns, colour):
    """Squares attacked by any of the pawns `pawns` of `colour` (shifts of the whole set, no loop)."""
    if colour == WHITE:
        return ((pawns & NOT_FILE_A) << np.uint64(7)) | ((pawns & NOT_FILE_H) << np.uint64(9))
    return ((pawns & NOT_FILE_A) >> np.uint64(9)) | ((pawns & NOT_FILE_H) >> np.uint64(7))


@jit("uint64(uint64[::1], int64, int64)", inline="always")
def between(tab, a, b):
    """Squares strictly between a and b when they share a line, else 0."""
    return tab[T_BETWEEN + a * 64 + b]


@jit("uint64(uint64[::1], int64, int64)", inline="always")
def line_through(tab, a, b):
    """The whole line (edge to edge) through a and b when they share one, else 0."""
    return tab[T_LINE + a * 64 + b]


@jit("uint64(uint64[::1], uint64[::1], int64, uint64, int64)")
def attackers_of_colour(tab, bb, square, occupied, colour):
    """Pieces of `colour` attacking `square` when the occupied squares are `occupied`."""
    diagonal = pieces(bb, colour, BISHOP) | pieces(bb, colour, QUEEN)
    straight = pieces(bb, colour, ROOK) | pieces(bb, colour, QUEEN)
    return ((pawn_attacks(tab, 1 - colour, square) & pieces(bb, colour, PAWN))
            | (knight_attacks(tab, square) & pieces(bb, colour, KNIGHT))
            | (king_attacks(tab, square) & pieces(bb, colour, KING))
            | (bishop_attacks(tab, square, occupied) & diagonal)
            | (rook_attacks(tab, square, occupied) & straight))
