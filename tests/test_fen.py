"""FEN in and out: round trips (X-FEN and Shredder-FEN for Chess960) and clear errors for invalid FENs."""

import random

import chess
import pytest

from mpcmc_engine.bitboard.position import Position
from mpcmc_engine.data import CHESS960_STARTS


def _random_boards(seed, count, chess960):
    rng = random.Random(seed)
    for _ in range(count):
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
        for _ in range(rng.randrange(1, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        yield board


@pytest.mark.parametrize("chess960", [False, True], ids=["standard", "chess960"])
def test_round_trip_of_random_positions(chess960):
    for board in _random_boards(7 + chess960, 300, chess960):
        position = Position(board.fen(), chess960)
        assert position.fen() == board.fen()
        assert Position(board.shredder_fen(), chess960).fen(shredder=True) == board.shredder_fen()


def test_fen_after_moves_counts_fullmoves_and_halfmoves():
    position = Position("4k3/8/8/8/8/8/8/4K2R b K - 7 42")
    position.push(position.parse_uci("e8d7"))
    position.push(position.parse_uci("h1h5"))
    assert position.fen() == "8/3k4/8/7R/8/8/8/4K3 b - - 9 43"


def test_chess960_start_positions_round_trip():
    for line in open(CHESS960_STARTS, encoding="utf-8").read().splitlines()[::37]:
        board = chess.Board(line, chess960=True)
        assert Position(line, chess960=True).fen() == board.fen()


def test_en_passant_written_only_when_legal():
    # the pawn on e4 that could capture d3 is pinned: python-chess and the core both omit the square
    fen = "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1"
    assert Position(fen).fen() == chess.Board(fen).fen()


@pytest.mark.parametrize("fen, reason", [
    ("", "empty"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "expected 8 rows"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "turn"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1", "invalid character"),
    ("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "black has no king"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w KQkq - 0 1", "more than one king"),
    ("Pnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKBNR w Qkq - 0 1", "pawn stands on the first or eighth rank"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "castling rights"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "en passant"),
    ("4k3/8/8/8/8/8/8/4K2r b - - 0 1", "side not to move is in check"),
    ("4k3/8/8/8/8/8/8/4K3 w - - x 1", "half-move clock"),
])
def test_invalid_fen_raises_value_error_naming_the_problem(fen, reason):
    with pytest.raises(ValueError) as caught:
        Position(fen)
    message = str(caught.value)
    assert message.startswith("invalid FEN")
    assert reason in message
