"""Exact distance-to-mate tables of K+R vs K and K+Q vs K, solved by retrograde iteration, the perfect player,
and random won or lost starting positions (random_start: the endgame study's games, the TD trainer's `endgame` source).

A table holds one int16 per index ((side to move * 64 + strong king) * 64 + strong piece) * 64 + weak king (squares
0 = a1 .. 63 = h8, side to move STRONG or WEAK): the number of plies to mate with best play (the strong side mates
as fast as it can, the weak side delays as long as it can), counted from that position: 0 = the weak side is mated
now, 1 = the strong side mates with its move, 2 = the weak side moves and is mated by the reply, ... A position
with the strong side to move is therefore won in an odd number of plies, one with the weak side to move lost in an
even number. DRAW marks the drawn positions (stalemate, or the weak king may capture an undefended rook or queen:
K v K), ILLEGAL the impossible ones (squares shared, kings adjacent, the weak king attacked with the strong side to
move). The endings have no pawns, so one table serves the strong side of either colour.

The iteration goes forward by plies: pass n marks the strong-to-move positions with a move to a position lost in
n - 1 plies (n odd), or the weak-to-move positions whose every move leads to a position already won (n even, so
in at most n - 1 plies, exactly n - 1 for one of them), until two passes mark nothing.
"""

import functools
import random

import chess
import numpy as np

from mpcmc_engine.bitboard.attacks import bishop_attacks, king_attacks, rook_attacks
from mpcmc_engine.bitboard.constants import U1
from mpcmc_engine.bitboard.tables import build_tables
from mpcmc_engine.jit import jit
from mpcmc_engine.jit.intrinsics import lsb

STRONG, WEAK = 0, 1
TABLE_SIZE = 2 * 64 ** 3
DRAW = -1
ILLEGAL = -2
PIECES = {"krk": chess.ROOK, "kqk": chess.QUEEN}   # the ending's name -> its strong side's piece
WIN_SCORE = 10_000   # best_move's scale: a win in n plies scores WIN_SCORE - n, a loss in n plies n - WIN_SCORE


@jit("int64(int64, int64, int64, int64)", inline="always")
def table_index(side_to_move, strong_king, strong_piece, weak_king):
    """The table entry of a position."""
    return ((side_to_move * 64 + strong_king) * 64 + strong_piece) * 64 + weak_king


@jit("uint64(uint64[::1], boolean, int64, uint64)", inline="always")
def _piece_attacks(tab, queen, square, occupied):
    """Squares the strong piece (a queen when `queen`, else a rook) on `square` attacks given the occupied squares."""
    attacks = rook_attacks(tab, square, occupied)
    if queen:
        attacks |= bishop_attacks(tab, square, occupied)
    return attacks


@jit("boolean(uint64[::1], boolean, int64, int64, int64, int64)")
def _is_legal(tab, queen, side_to_move, strong_king, strong_piece, weak_king):
    """Whether the position can arise: three distinct squares, kings apart, and the weak king not attacked when the
    strong side is to move."""
    if strong_king == strong_piece or strong_king == weak_king or strong_piece == weak_king:
        return False
    if king_attacks(tab, strong_king) & (U1 << np.uint64(weak_king)):
        return False
    occupied = (U1 << np.uint64(strong_king)) | (U1 << np.uint64(weak_king))
    return not (side_to_move == STRONG and _piece_attacks(tab, queen, strong_piece, occupied)
                & (U1 << np.uint64(weak_king)))


@jit("boolean(uint64[::1], boolean, int16[::1], int64, int64, int64, int64)")
def _strong_move_reaches(tab, queen, values, strong_king, strong_piece, weak_king, target):
    """Whether the strong side to move has a move to a weak-to-move position of value `target`."""
    occupied = (U1 << np.uint64(strong_king)) | (U1 << np.uint64(weak_king))
    king_moves = king_attacks(tab, strong_king) & ~king_attacks(tab, weak_king) & ~(U1 << np.uint64(strong_piece))
    while king_moves:
        square = lsb(king_moves)
        king_moves &= king_moves - U1
        if values[table_index(WEAK, square, strong_piece, weak_king)] == target:
            return True
    piece_moves = _piece_attacks(tab, queen, strong_piece, occupied) & ~occupied
    while piece_moves:
        square = lsb(piece_moves)
        piece_moves &= piece_moves - U1
        if values[table_index(WEAK, strong_king, square, weak_king)] == target:
            return True
    return False


@jit("int64(uint64[::1], boolean, int16[::1], int64, int64, int64)")
def _weak_moves_all_lost(tab, queen, values, strong_king, strong_piece, weak_king):
    """For the weak side to move: -1 when it has no move, 0 when a move escapes (a capture of the undefended piece or
    a position not yet known as won), else 1 (every move leads to a position already won)."""
    guarded = king_attacks(tab, strong_king)
    attacked_by_piece = _piece_attacks(tab, queen, strong_piece, U1 << np.uint64(strong_king))
    moves = king_attacks(tab, weak_king) & ~guarded
    has_move = False
    while moves:
        square = lsb(moves)
        moves &= moves - U1
        if square == strong_piece:
            return 0
        if attacked_by_piece & (U1 << np.uint64(square)):
            continue
        has_move = True
        if values[table_index(STRONG, strong_king, strong_piece, square)] < 0:
            return 0
    return 1 if has_move else -1


@jit("void(uint64[::1], boolean, int16[::1])")
def _solve(tab, queen, values):
    """Fill `values` (TABLE_SIZE entries) with the plies to mate, DRAW and ILLEGAL (see the module docstring)."""
    for side in range(2):
        for strong_king in range(64):
            for strong_piece in range(64):
                for weak_king in range(64):
                    legal = _is_legal(tab, queen, side, strong_king, strong_piece, weak_king)
                    values[table_index(side, strong_king, strong_piece, weak_king)] = DRAW if legal else ILLEGAL
    for strong_king in range(64):
        for strong_piece in range(64):
            for weak_king in range(64):
                index = table_index(WEAK, strong_king, strong_piece, weak_king)
                if values[index] == DRAW and _weak_moves_all_lost(tab, queen, values, strong_king, strong_piece,
                                                                  weak_king) == -1:
                    in_check = _piece_attacks(tab, queen, strong_piece, U1 << np.uint64(strong_king)) \
                        & (U1 << np.uint64(weak_king))
                    if in_check:
                        values[index] = 0
    plies, idle_passes = 0, 0
    while idle_passes < 2:
        plies += 1
        side = STRONG if plies % 2 == 1 else WEAK
        marked = False
        for strong_king in range(64):
            for strong_piece in range(64):
                for weak_king in range(64):
                    index = table_index(side, strong_king, strong_piece, weak_king)
                    if values[index] != DRAW:
                        continue
                    if side == STRONG:
                        solved = _strong_move_reaches(tab, queen, values, strong_king, strong_piece, weak_king,
                                                      plies - 1)
                    else:
                        solved = _weak_moves_all_lost(tab, queen, values, strong_king, strong_piece, weak_king) == 1
                    if solved:
                        values[index] = plies
                        marked = True
        idle_passes = 0 if marked else idle_passes + 1


@functools.lru_cache(maxsize=None)
def build_table(piece: int) -> np.ndarray:
    """The solved table (see the module docstring) of K + `piece` (chess.ROOK or chess.QUEEN) vs K; built once per
    process (a few seconds), read-only."""
    if piece not in PIECES.values():
        raise ValueError(f"no table for piece {piece!r}: expected chess.ROOK or chess.QUEEN")
    values = np.empty(TABLE_SIZE, dtype=np.int16)
    _solve(build_tables(), piece == chess.QUEEN, values)
    values.flags.writeable = False
    return values


def _entry(board: chess.Board):
    """(piece, side to move STRONG or WEAK, table index) of a K+R v K or K+Q v K board; (None, None, None) for K v K;
    ValueError for anything else."""
    pieces = board.piece_map()
    kings = {piece.color: square for square, piece in pieces.items() if piece.piece_type == chess.KING}
    others = [(square, piece) for square, piece in pieces.items() if piece.piece_type != chess.KING]
    if len(kings) == 2 and not others:
        return None, None, None
    if len(kings) != 2 or len(others) != 1 or others[0][1].piece_type not in PIECES.values():
        raise ValueError(f"not a K+R v K or K+Q v K position: {board.fen()}")
    square, piece = others[0]
    side = STRONG if board.turn == piece.color else WEAK
    return piece.piece_type, side, table_index(side, kings[piece.color], square, kings[not piece.color])


def dtm(board: chess.Board):
    """Plies to mate from the side to move's view: n > 0 when it mates in n plies, -n when it is mated in n plies
    (0 when it is mated now), None for a draw (K v K included); ValueError for another material or an illegal
    position. The fifty-move rule is not counted (no mate here takes longer)."""
    piece, side, index = _entry(board)
    if piece is None:
        return None
    value = int(build_table(piece)[index])
    if value == ILLEGAL:
        raise ValueError(f"illegal position: {board.fen()}")
    if value == DRAW:
        return None
    return value if side == STRONG else -value


def move_score(board: chess.Board, move: chess.Move) -> int:
    """How good `move` is for the side to move under perfect play: WIN_SCORE - n when it mates in n plies (counting
    the move), n - WIN_SCORE when it is mated in n plies, 0 for a draw."""
    board.push(move)
    try:
        after = dtm(board)
    finally:
        board.pop()
    if after is None:
        return 0
    return WIN_SCORE - (1 - after) if after <= 0 else (1 + after) - WIN_SCORE


def best_move(board: chess.Board) -> chess.Move:
    """The perfect player's move: the fastest mate when winning, the longest resistance when losing (a draw when
    one is reachable); ties go to the first move in UCI order. ValueError when there is no legal move."""
    moves = sorted(board.legal_moves, key=chess.Move.uci)
    if not moves:
        raise ValueError(f"no legal move: {board.fen()}")
    return max(moves, key=lambda move: move_score(board, move))


def board_at(piece: int, index: int, strong_colour: chess.Color = chess.WHITE) -> chess.Board:
    """The board of table entry `index` of the K + `piece` v K table, the strong side playing `strong_colour`."""
    side, rest = divmod(index, 64 ** 3)
    strong_king, rest = divmod(rest, 64 * 64)
    strong_piece, weak_king = divmod(rest, 64)
    board = chess.Board(None)
    board.set_piece_map({strong_king: chess.Piece(chess.KING, strong_colour),
                         strong_piece: chess.Piece(piece, strong_colour),
                         weak_king: chess.Piece(chess.KING, not strong_colour)})
    board.turn = strong_colour if side == STRONG else not strong_colour
    return board


def random_start(piece: int, attacking: bool, rng: random.Random) -> chess.Board:
    """A legal K + `piece` v K position drawn uniformly: one won for the side to move when `attacking`, else one
    lost (not yet mated) for it; the strong side's colour drawn too."""
    values = build_table(piece)
    side = STRONG if attacking else WEAK
    half = TABLE_SIZE // 2
    while True:
        index = side * half + rng.randrange(half)
        if values[index] > 0:
            return board_at(piece, index, rng.choice(chess.COLORS))


def random_won_start(piece: int, rng: random.Random) -> chess.Board:
    """A legal K + `piece` v K position won for the strong side, drawn with `rng`: either side to move (the weak side
    not yet mated), each side's colour drawn too (random_start)."""
    return random_start(piece, rng.random() < 0.5, rng)
