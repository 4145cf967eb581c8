"""make / unmake of moves and null moves on the position arrays, with incremental Zobrist keys.

The position is two arrays: `bb` (uint64: bitboards and the key history) and `st` (int64: scalar state, mailbox,
undo stack); see mpcmc_engine.bitboard.constants for the slots. Keys follow Polyglot exactly, so they equal
`chess.polyglot.zobrist_hash` (the en passant file is hashed only when a pawn of the side to move stands beside it,
and ST_EP is set only then).
"""

import numpy as np

from mpcmc_engine.bitboard.constants import (
    BB_ALL, BB_KEYS, KIND_CASTLE, KING, KIND_EN_PASSANT, KIND_PROMOTION, NO_SQUARE, PAWN, ROOK, ST_BOARD, ST_CASTLE,
    ST_CASTLE_MASK, ST_EP, ST_HALFMOVE, ST_PLY, ST_SIDE, ST_UNDO, T_ZOBRIST, U1, U_CAPTURED,
    U_CASTLE, U_EP, U_HALFMOVE, U_MOVE, UNDO_SIZE, WHITE, Z_CASTLE, Z_EP_FILE, Z_WHITE_TO_MOVE,
)
from mpcmc_engine.bitboard.attacks import pawn_attacks
from mpcmc_engine.bitboard.layout import colour_of, piece_code, pieces, type_of
from mpcmc_engine.bitboard.moves import move_from, move_kind, move_promotion, move_to
from mpcmc_engine.jit import jit


@jit("uint64(uint64[::1], int64, int64)", inline="always")
def piece_key(tab, piece, square):
    """Polyglot key of `piece` (colour * 8 + type) on `square`."""
    return tab[T_ZOBRIST + 64 * ((type_of(piece) - 1) * 2 + 1 - colour_of(piece)) + square]


@jit("void(uint64[::1], int64[::1], int64, int64)", inline="always")
def put_piece(bb, st, piece, square):
    """Place `piece` on the empty `square` (bitboards and mailbox; the key is the caller's)."""
    bit = U1 << np.uint64(square)
    bb[piece] |= bit
    bb[piece & 8] |= bit  # piece & 8 = colour * 8: the slot of the colour's occupancy
    bb[BB_ALL] |= bit
    st[ST_BOARD + square] = piece


@jit("void(uint64[::1], int64[::1], int64, int64)", inline="always")
def remove_piece(bb, st, piece, square):
    """Remove `piece` from `square` (bitboards and mailbox; the key is the caller's)."""
    bit = ~(U1 << np.uint64(square))
    bb[piece] &= bit
    bb[piece & 8] &= bit
    bb[BB_ALL] &= bit
    st[ST_BOARD + square] = 0


@jit("void(uint64[::1], int64[::1], int64, int64, int64, int64, int64, int64)", inline="always")
def _move_king_and_rook(bb, st, king, rook, king_from, rook_from, king_to, rook_to):
    """Castling (or taking it back): move `king` and `rook` to their new squares, both lifted before either is put
    down (in Chess960 a square may be both's)."""
    remove_piece(bb, st, king, king_from)
    remove_piece(bb, st, rook, rook_from)
    put_piece(bb, st, king, king_to)
    put_piece(bb, st, rook, rook_to)


@jit("UniTuple(int64, 2)(int64, int64)", inline="always")
def castling_destinations(colour, king_side):
    """(king target, rook target) squares of a castling move for `colour` on the given side."""
    base = 56 * colour
    if king_side:
        return base + 6, base + 5
    return base + 2, base + 3


@jit("uint64(uint64[::1], int64[::1], int64)", inline="always")
def _clear_ep(tab, st, key):
    """Forget the en passant square, returning the key without its file."""
    if st[ST_EP] != NO_SQUARE:
        key ^= tab[T_ZOBRIST + Z_EP_FILE + st[ST_EP] % 8]
        st[ST_EP] = NO_SQUARE
    return key


@jit("int64(int64[::1])", inline="always")
def _push_undo(st):
    """Save the irreversible state of the current ply; return the undo record's offset."""
    undo = ST_UNDO + st[ST_PLY] * UNDO_SIZE
    st[undo + U_CASTLE] = st[ST_CASTLE]
    st[undo + U_EP] = st[ST_EP]
    st[undo + U_HALFMOVE] = st[ST_HALFMOVE]
    return undo


@jit("void(uint64[::1], uint64[::1], int64[::1], int64)")
def make_move(tab, bb, st, move):
    """Play a legal `move` for the side to move."""
    ply = st[ST_PLY]
    us = st[ST_SIDE]
    them = 1 - us
    undo = _push_undo(st)
    key = _clear_ep(tab, st, bb[BB_KEYS + ply])
    origin, target, kind = move_from(move), move_to(move), move_kind(move)
    piece = st[ST_BOARD + origin]
    captured = 0
    halfmove = st[ST_HALFMOVE] + 1
    if kind == KIND_CASTLE:
        rook = piece_code(us, ROOK)
        king_to, rook_to = castling_destinations(us, target > origin)
        _move_king_and_rook(bb, st, piece, rook, origin, target, king_to, rook_to)
        key ^= piece_key(tab, piece, origin) ^ piece_key(tab, piece, king_to)
        key ^= piece_key(tab, rook, target) ^ piece_key(tab, rook, rook_to)
    else:
        if kind == KIND_EN_PASSANT:
            captured = piece_code(them, PAWN)
            captured_square = target - 8 if us == WHITE else target + 8
            remove_piece(bb, st, captured, captured_square)
            key ^= piece_key(tab, captured, captured_square)
        else:
            captured = st[ST_BOARD + target]
            if captured != 0:
                remove_piece(bb, st, captured, target)
                key ^= piece_key(tab, captured, target)
        placed = piece_code(us, move_promotion(move)) if kind == KIND_PROMOTION else piece
        remove_piece(bb, st, piece, origin)
        put_piece(bb, st, placed, target)
        key ^= piece_key(tab, piece, origin) ^ piece_key(tab, placed, target)
        if captured != 0:
            halfmove = 0
        if type_of(piece) == PAWN:
            halfmove = 0
            if target - origin == 16 or origin - target == 16:
                ep = (origin + target) >> 1
                if pawn_attacks(tab, us, ep) & pieces(bb, them, PAWN):
                    st[ST_EP] = ep
                    key ^= tab[T_ZOBRIST + Z_EP_FILE + ep % 8]
    rights = st[ST_CASTLE]
    kept = rights & st[ST_CASTLE_MASK + origin] & st[ST_CASTLE_MASK + target]
    lost = rights ^ kept
    while lost:
        slot = 0
        while not (lost >> slot) & 1:
            slot += 1
        key ^= tab[T_ZOBRIST + Z_CASTLE + slot]
        lost &= lost - 1
    st[ST_CASTLE] = kept
    key ^= tab[T_ZOBRIST + Z_WHITE_TO_MOVE]
    st[undo + U_MOVE] = move
    st[undo + U_CAPTURED] = captured
    st[ST_HALFMOVE] = halfmove
    st[ST_SIDE] = them
    st[ST_PLY] = ply + 1
    bb[BB_KEYS + ply + 1] = key


@jit("uint64(uint64[::1], int64[::1], uint64, int64)", inline="always")
def key_after(tab, st, key, move):
    """The key make_move will give the position after `move`, from the current position's `key`, computed without
    playing it (to prefetch its table entry early). Exact unless the move castles, takes en passant, changes a
    castling right or leaves an en passant square; then a key close to it."""
    origin, target = move_from(move), move_to(move)
    piece = st[ST_BOARD + origin]
    placed = piece_code(colour_of(piece), move_promotion(move)) if move_kind(move) == KIND_PROMOTION else piece
    key ^= piece_key(tab, piece, origin) ^ piece_key(tab, placed, target) ^ tab[T_ZOBRIST + Z_WHITE_TO_MOVE]
    if st[ST_BOARD + target] != 0:
        key ^= piece_key(tab, st[ST_BOARD + target], target)
    if st[ST_EP] != NO_SQUARE:
        key ^= tab[T_ZOBRIST + Z_EP_FILE + st[ST_EP] % 8]
    return key


@jit("void(uint64[::1], int64[::1])")
def unmake_move(bb, st):
    """Take back the last move made with make_move."""
    ply = st[ST_PLY] - 1
    undo = ST_UNDO + ply * UNDO_SIZE
    us = 1 - st[ST_SIDE]
    move = st[undo + U_MOVE]
    origin, target, kind = move_from(move), move_to(move), move_kind(move)
    if kind == KIND_CASTLE:
        king = piece_code(us, KING)
        rook = piece_code(us, ROOK)
        king_to, rook_to = castling_destinations(us, target > origin)
        _move_king_and_rook(bb, st, king, rook, king_to, rook_to, origin, target)
    else:
        placed = st[ST_BOARD + target]
        remove_piece(bb, st, placed, target)
        put_piece(bb, st, piece_code(us, PAWN) if kind == KIND_PROMOTION else placed, origin)
        captured = st[undo + U_CAPTURED]
        if kind == KIND_EN_PASSANT:
            put_piece(bb, st, captured, target - 8 if us == WHITE else target + 8)
        elif captured != 0:
            put_piece(bb, st, captured, target)
    st[ST_CASTLE] = st[undo + U_CASTLE]
    st[ST_EP] = st[undo + U_EP]
    st[ST_HALFMOVE] = st[undo + U_HALFMOVE]
    st[ST_SIDE] = us
    st[ST_PLY] = ply


@jit("void(uint64[::1], uint64[::1], int64[::1])")
def make_null_move(tab, bb, st):
    """Pass the turn (for null-move pruning); the side to move must not be in check."""
    ply = st[ST_PLY]
    undo = _push_undo(st)
    key = _clear_ep(tab, st, bb[BB_KEYS + ply])
    st[undo + U_MOVE] = 0
    st[undo + U_CAPTURED] = 0
    st[ST_HALFMOVE] += 1
    st[ST_SIDE] = 1 - st[ST_SIDE]
    st[ST_PLY] = ply + 1
    bb[BB_KEYS + ply + 1] = key ^ tab[T_ZOBRIST + Z_WHITE_TO_MOVE]


@jit("void(int64[::1])")
def unmake_null_move(st):
    """Take back make_null_move."""
    ply = st[ST_PLY] - 1
    undo = ST_UNDO + ply * UNDO_SIZE
    st[ST_CASTLE] = st[undo + U_CASTLE]
    st[ST_EP] = st[undo + U_EP]
    st[ST_HALFMOVE] = st[undo + U_HALFMOVE]
    st[ST_SIDE] = 1 - st[ST_SIDE]
    st[ST_PLY] = ply


@jit("uint64(uint64[::1], int64[::1])")
def compute_key(tab, st):
    """Polyglot key of the position computed from scratch (mailbox, rights, en passant, side)."""
    key = np.uint64(0)
    for square in range(64):
        piece = st[ST_BOARD + square]
        if piece != 0:
            key ^= piece_key(tab, piece, square)
    for slot in range(4):
        if (st[ST_CASTLE] >> slot) & 1:
            key ^= tab[T_ZOBRIST + Z_CASTLE + slot]
    if st[ST_EP] != NO_SQUARE:
        key ^= tab[T_ZOBRIST + Z_EP_FILE + st[ST_EP] % 8]
    if st[ST_SIDE] == WHITE:
        key ^= tab[T_ZOBRIST + Z_WHITE_TO_MOVE]
    return key
