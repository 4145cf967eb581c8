"""The numba board against python-chess on positions reached by random play (standard chess and Chess960):
identical legal move sets, identical Zobrist keys, make/unmake restoring the position exactly; the search's
shortcuts (the key after a move before it is made, all pawn attacks at once) against the slow way."""

import random

import chess
import chess.polyglot
import numpy as np
import pytest

from mpcmc_engine.bitboard.attacks import pawn_attacks, pawn_attacks_all
from mpcmc_engine.bitboard.constants import (
    BB_KEYS, KIND_CASTLE, KIND_EN_PASSANT, NO_SQUARE, PAWN, ST_CASTLE, ST_EP, ST_UNDO,
)
from mpcmc_engine.bitboard.makemove import key_after
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


def test_key_after_is_the_key_make_move_computes():
    exact = 0
    for _, position in _random_games(77, False):
        key = np.uint64(position.key)
        for move in position.legal_moves():
            predicted = int(key_after(position.tab, position.st, key, move))
            castle = position.st[ST_CASTLE]
            position.push(move)
            if (move_kind(move) not in (KIND_CASTLE, KIND_EN_PASSANT) and position.st[ST_CASTLE] == castle
                    and position.st[ST_EP] == NO_SQUARE):
                assert predicted == position.key, position.fen()
                exact += 1
            position.pop()
    assert exact > 100_000


def test_pawn_attacks_all_is_the_union_of_each_pawns_attacks():
    for _, position in _random_games(78, True):
        for colour in (0, 1):
            pawns = position.bb[colour * 8 + PAWN]
            expected = np.uint64(0)
            for square in range(64):
                if (int(pawns) >> square) & 1:
                    expected |= pawn_attacks(position.tab, colour, square)
            assert pawn_attacks_all(pawns, colour) == expected, position.fen()
