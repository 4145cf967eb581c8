"""The numba board against python-chess on positions reached by random play (standard chess and Chess960):
identical legal move sets, identical Zobrist keys, make/unmake restoring the position exactly."""

import random

import chess
import chess.polyglot
import numpy as np
import pytest

from mpcmc_engine.bitboard.constants import BB_KEYS, ST_UNDO
from mpcmc_engine.bitboard.moves import move_kind, move_promotion
from mpcmc_engine.bitboard.position import Position

GAMES_PER_VARIANT = 80
MAX_PLIES = 110


def _random_games(seed, chess960):
    """Yield (python-chess board, Position) after every ply of random games, both kept in step."""
    rng = random.Random(seed)
    for _ in range(GAMES_PER_VARIANT):
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
        position = Position(board.fen(), chess960)
        for _ in range(MAX_PLIES):
            yield board, position
            moves = list(board.legal_moves)
            if not moves:
                break
            # prefer captures and promotions now and then so that endgames and promotions occur
            tactical = [m for m in moves if board.is_capture(m) or m.promotion]
            move = rng.choice(tactical if tactical and rng.random() < 0.4 else moves)
            text = board.uci(move)
            board.push(move)
            position.push(position.parse_uci(text))


def _snapshot(position):
    ply = position.ply
    return position.bb[:BB_KEYS + ply + 1].copy(), position.st[:ST_UNDO].copy()


@pytest.mark.parametrize("chess960", [False, True], ids=["standard", "chess960"])
def test_random_positions_match_python_chess(chess960):
    checked = 0
    for board, position in _random_games(1234 + chess960, chess960):
        expected = {board.uci(move) for move in board.legal_moves}
        moves = position.legal_moves()
        assert {position.uci(move) for move in moves} == expected, board.fen()
        assert len(moves) == len(expected)
        assert position.key == chess.polyglot.zobrist_hash(board), board.fen()
        assert position.is_check() == board.is_check()

        tactical = {board.uci(m) for m in board.legal_moves if board.is_capture(m) or m.promotion}
        assert {position.uci(m) for m in position.legal_moves(captures_only=True)} == tactical, board.fen()

        before_bb, before_st = _snapshot(position)
        for move in moves:
            position.push(move)
            position.pop()
        after_bb, after_st = _snapshot(position)
        assert np.array_equal(before_bb, after_bb) and np.array_equal(before_st, after_st), board.fen()
        checked += 1
    assert checked >= 5000  # both variants together: over 10,000 positions


def test_promotion_and_castling_encodings_round_trip():
    position = Position("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1")
    texts = {position.uci(m) for m in position.legal_moves()}
    assert {"b7b8q", "b7b8n", "b7a8r", "e1g1", "e1c1"} <= texts
    promotion = position.parse_uci("b7a8n")
    assert move_promotion(promotion) == chess.KNIGHT and move_kind(promotion) == 1
    assert position.parse_uci("e1h1") == position.parse_uci("e1g1")  # king-takes-rook accepted too
