"""The Python face of the board: `Position` owns the numba arrays and is the only way callers create or read them."""

from typing import Optional

import chess
import numpy as np

from mpcmc_engine.bitboard.constants import (
    BB_KEYS, BB_SIZE, BLACK, KIND_CASTLE, KIND_PROMOTION, MAX_GAME_PLY, MAX_MOVES, NO_SQUARE, PIECE_SYMBOLS,
    ST_BOARD, ST_CASTLE, ST_CASTLE_MASK, ST_CHESS960, ST_EP, ST_FULLMOVE0, ST_HALFMOVE, ST_PLY, ST_ROOK_SQ,
    ST_SIDE, ST_SIZE, WHITE,
)
from mpcmc_engine.bitboard.makemove import castling_destinations, compute_key, make_move, put_piece, unmake_move
from mpcmc_engine.bitboard.movegen import generate_moves, in_check
from mpcmc_engine.bitboard.moves import move_from, move_kind, move_promotion, move_to
from mpcmc_engine.bitboard.perft import stoppable_perft
from mpcmc_engine.bitboard.tables import build_tables

STARTING_FEN = chess.STARTING_FEN
_TABLES = None

# python-chess statuses a position may have and still be played from (impossible but harmless check patterns).
_ACCEPTED_STATUS = chess.STATUS_VALID | chess.STATUS_TOO_MANY_CHECKERS | chess.STATUS_IMPOSSIBLE_CHECK
_STATUS_REASONS = {
    chess.STATUS_NO_WHITE_KING: "white has no king",
    chess.STATUS_NO_BLACK_KING: "black has no king",
    chess.STATUS_TOO_MANY_KINGS: "a side has more than one king",
    chess.STATUS_TOO_MANY_WHITE_PAWNS: "white has more than 8 pawns",
    chess.STATUS_TOO_MANY_BLACK_PAWNS: "black has more than 8 pawns",
    chess.STATUS_PAWNS_ON_BACKRANK: "a pawn stands on the first or eighth rank",
    chess.STATUS_TOO_MANY_WHITE_PIECES: "white has more than 16 pieces",
    chess.STATUS_TOO_MANY_BLACK_PIECES: "black has more than 16 pieces",
    chess.STATUS_BAD_CASTLING_RIGHTS: "castling rights without the king and rook on their squares",
    chess.STATUS_INVALID_EP_SQUARE: "the en passant square does not follow a double pawn push",
    chess.STATUS_OPPOSITE_CHECK: "the side not to move is in check",
    chess.STATUS_EMPTY: "the board is empty",
}


def tables() -> np.ndarray:
    """The process-wide attack/Zobrist table array (built or loaded on first use)."""
    global _TABLES
    if _TABLES is None:
        _TABLES = build_tables()
    return _TABLES


def validation_error(board: chess.Board):
    """Return why `board` cannot be played from (one line), or None when it can."""
    status = board.status()
    if status & ~_ACCEPTED_STATUS:
        reasons = [text for flag, text in _STATUS_REASONS.items() if status & flag]
        return "; ".join(reasons) or f"invalid position (status {int(status)})"
    return None


def ended_by_rules(board: chess.Board) -> Optional[chess.Outcome]:
    """How the game on `board` has ended by the rules as cutechess and fastchess apply them, or None: checkmate,
    stalemate, insufficient material, the current position standing for the third time, fifty moves without capture
    or pawn move. A repetition that the side to move could only reach with its next move is no draw (python-chess's
    `claim_draw` counts it): that side may well prefer another move."""
    outcome = board.outcome()
    if outcome is None and board.is_repetition(3):
        outcome = chess.Outcome(chess.Termination.THREEFOLD_REPETITION, None)
    elif outcome is None and board.is_fifty_moves():
        outcome = chess.Outcome(chess.Termination.FIFTY_MOVES, None)
    return outcome


def board_from_fen(fen: str, chess960: bool = False) -> chess.Board:
    """Parse and validate a FEN (X-FEN and Shredder-FEN castling fields accepted); raise ValueError naming the fault."""
    try:
        board = chess.Board(fen.strip(), chess960=chess960)
    except ValueError as error:
        raise ValueError(f"invalid FEN {fen.strip()!r}: {error}") from None
    problem = validation_error(board)
    if problem:
        raise ValueError(f"invalid FEN {fen.strip()!r}: {problem}")
    return board


class Position:
    """A chess position held in numpy arrays for the numba core, with its history since it was set up.

    Moves are the core's integers; `uci()` and `parse_uci()` convert at the edge. Create one from a FEN
    (`Position(fen)`) or from a python-chess board (`Position.from_board`), which also replays the board's move stack
    so that repetitions before the current position are known.
    """

    def __init__(self, fen: str = STARTING_FEN, chess960: bool = False):
        self._load(board_from_fen(fen, chess960))

    @classmethod
    def from_board(cls, board: chess.Board) -> "Position":
        """Position equal to `board`, its move stack replayed (validated like a FEN)."""
        root = board.root()
        problem = validation_error(root)
        if problem:
            raise ValueError(f"invalid position {root.fen()!r}: {problem}")
        position = cls.__new__(cls)
        position._load(root)
        for move in board.move_stack:
            position.push(position.parse_uci(move.uci()))
        return position

    def _load(self, board: chess.Board) -> None:
        """Fill fresh arrays from a validated python-chess board (its move stack is ignored)."""
        self.tab = tables()
        self.bb = np.zeros(BB_SIZE, dtype=np.uint64)
        self.st = np.zeros(ST_SIZE, dtype=np.int64)
        self.chess960 = bool(board.chess960)
        st = self.st
        for square, piece in board.piece_map().items():
            colour = WHITE if piece.color == chess.WHITE else BLACK
            put_piece(self.bb, st, colour * 8 + piece.piece_type, square)
        side = WHITE if board.turn == chess.WHITE else BLACK
        st[ST_SIDE] = side
        st[ST_HALFMOVE] = board.halfmove_clock
        st[ST_FULLMOVE0] = board.fullmove_number
        st[ST_CHESS960] = int(self.chess960)
        st[ST_ROOK_SQ:ST_ROOK_SQ + 4] = NO_SQUARE
        st[ST_CASTLE_MASK:ST_CASTLE_MASK + 64] = 15
        for rook in chess.scan_forward(board.clean_castling_rights()):
            colour = WHITE if rook < 8 else BLACK
            king = board.king(chess.WHITE if colour == WHITE else chess.BLACK)
            slot = colour * 2 + (0 if chess.square_file(rook) > chess.square_file(king) else 1)
            st[ST_CASTLE] |= 1 << slot
            st[ST_ROOK_SQ + slot] = rook
            st[ST_CASTLE_MASK + rook] &= ~(1 << slot)
            st[ST_CASTLE_MASK + king] &= ~(3 << (colour * 2))
        ep = board.ep_square
        if ep is not None and board.pawns & board.occupied_co[board.turn] & chess.BB_PAWN_ATTACKS[not board.turn][ep]:
            st[ST_EP] = ep
        else:
            st[ST_EP] = NO_SQUARE
        self.bb[BB_KEYS] = compute_key(self.tab, st)

    # --- reading -----------------------------------------------------------------------------------------------
    @property
    def key(self) -> int:
        """Polyglot Zobrist key of the current position."""
        return int(self.bb[BB_KEYS + self.st[ST_PLY]])

    @property
    def white_to_move(self) -> bool:
        return self.st[ST_SIDE] == WHITE

    @property
    def ply(self) -> int:
        """Plies played since the position was set up."""
        return int(self.st[ST_PLY])

    def piece_at(self, square: int) -> str:
        """Symbol of the piece on `square` ('P', 'n', ...) or '.' when empty."""
        return PIECE_SYMBOLS[self.st[ST_BOARD + square]]

    def is_check(self) -> bool:
        return bool(in_check(self.tab, self.bb, self.st))

    def legal_moves(self, captures_only: bool = False) -> list:
        """The legal moves (core integers), or only captures and promotions."""
        moves = np.zeros(MAX_MOVES, dtype=np.int64)
        count = generate_moves(self.tab, self.bb, self.st, moves, 0, captures_only)
        return [int(m) for m in moves[:count]]

    def to_board(self) -> chess.Board:
        """An equal python-chess board (without the move history)."""
        st = self.st
        board = chess.Board(None, chess960=self.chess960)
        board.set_piece_map({sq: chess.Piece.from_symbol(self.piece_at(sq)) for sq in range(64)
                             if st[ST_BOARD + sq]})
        board.turn = chess.WHITE if st[ST_SIDE] == WHITE else chess.BLACK
        board.castling_rights = 0
        for slot in range(4):
            if (st[ST_CASTLE] >> slot) & 1:
                board.castling_rights |= chess.BB_SQUARES[int(st[ST_ROOK_SQ + slot])]
        board.ep_square = None if st[ST_EP] == NO_SQUARE else int(st[ST_EP])
        board.halfmove_clock = int(st[ST_HALFMOVE])
        first_side_black = int(st[ST_SIDE] ^ (st[ST_PLY] & 1))
        board.fullmove_number = int(st[ST_FULLMOVE0] + (st[ST_PLY] + first_side_black) // 2)
        return board

    def fen(self, shredder: bool = False) -> str:
        """FEN of the position (X-FEN castling as python-chess writes it, or Shredder-FEN); en passant only if legal."""
        board = self.to_board()
        return board.shredder_fen() if shredder else board.fen()

    # --- moves -------------------------------------------------------------------------------------------------
    def uci(self, move: int) -> str:
        """UCI text of a core move; castling as king-takes-rook in Chess960, king two squares otherwise."""
        origin, target, kind = move_from(move), move_to(move), move_kind(move)
        if kind == KIND_CASTLE and not self.chess960:
            target = castling_destinations(origin // 56, target > origin)[0]
        text = chess.square_name(origin) + chess.square_name(target)
        if kind == KIND_PROMOTION:
            text += chess.piece_symbol(move_promotion(move))
        return text

    def parse_uci(self, text: str) -> int:
        """The legal core move written `text` (both castling notations accepted); raise ValueError if none."""
        text = text.strip()
        for move in self.legal_moves():
            if self.uci(move) == text:
                return move
            if move_kind(move) == KIND_CASTLE:
                king_takes_rook = chess.square_name(move_from(move)) + chess.square_name(move_to(move))
                if king_takes_rook == text:
                    return move
        raise ValueError(f"illegal or malformed move {text!r} in {self.fen()}")

    def push(self, move: int) -> None:
        """Play a legal core move."""
        if self.st[ST_PLY] >= MAX_GAME_PLY:
            raise ValueError(f"game longer than {MAX_GAME_PLY} plies")
        make_move(self.tab, self.bb, self.st, move)

    def pop(self) -> None:
        """Take back the last move pushed; raise IndexError when there is none."""
        if self.st[ST_PLY] == 0:
            raise IndexError("no move to take back")
        unmake_move(self.bb, self.st)

    def copy(self) -> "Position":
        """An independent copy (arrays duplicated, tables shared)."""
        other = Position.__new__(Position)
        other.tab, other.bb, other.st, other.chess960 = self.tab, self.bb.copy(), self.st.copy(), self.chess960
        return other

    # --- perft -------------------------------------------------------------------------------------------------
    def perft(self, depth: int, stop=None) -> int:
        """Number of leaf nodes `depth` plies below this position (1 when depth is 0). `stop`: an int64 array that
        another thread may set non-zero at [0] to make the count return early (then partial)."""
        if depth <= 0:
            return 1
        moves = np.zeros(MAX_MOVES * (depth + 1), dtype=np.int64)
        stop = np.zeros(1, dtype=np.int64) if stop is None else stop
        return int(stoppable_perft(self.tab, self.bb, self.st, moves, 0, depth, stop))

    def divide(self, depth: int, stop=None):
        """Yield (uci move, leaf count below it) for every legal move, in generation order (depth >= 1); once `stop`
        (as in `perft`) is set, yield nothing more (a count cut short is never yielded)."""
        stop = np.zeros(1, dtype=np.int64) if stop is None else stop
        position = self.copy()
        for move in self.legal_moves():
            position.push(move)
            count = position.perft(depth - 1, stop)
            position.pop()
            if stop[0]:
                return
            yield self.uci(move), count
