"""The K+R v K and K+Q v K distance-to-mate tables: the known longest mates, every checkmate at 0, each entry
consistent with its successors under python-chess's move generation, agreement with Stockfish's mate scores, and the
perfect player's move choice."""

import os
import random

import chess
import chess.engine
import numpy as np
import pytest

from mpcmc_engine.training.endgame_table import (
    DRAW, ILLEGAL, PIECES, TABLE_SIZE, WEAK, best_move, board_at, build_table, dtm, move_score, table_index,
)

STOCKFISH = "/usr/games/stockfish"
HALF = TABLE_SIZE // 2
EDGE = [square for square in chess.SQUARES
        if chess.square_file(square) in (0, 7) or chess.square_rank(square) in (0, 7)]


@pytest.mark.parametrize("ending, strong_max", [("krk", 31), ("kqk", 19)])
def test_longest_mates(ending, strong_max):
    """The strong side to move mates in at most 16 moves (31 plies) in KRK and 10 moves (19 plies) in KQK, the weak
    side to move is mated in at most one ply more; the strong side to move never fails to win."""
    values = build_table(PIECES[ending])
    strong, weak = values[:HALF], values[HALF:]
    assert strong.max() == strong_max and weak.max() == strong_max + 1
    assert not np.any(strong == DRAW)
    assert np.all(strong[strong >= 0] % 2 == 1) and np.all(weak[weak >= 0] % 2 == 0)


@pytest.mark.parametrize("ending", ["krk", "kqk"])
def test_every_checkmate_is_zero(ending):
    """The entries at 0 are exactly the checkmates python-chess finds (all with the weak king on the edge)."""
    piece = PIECES[ending]
    values = build_table(piece)
    mates = set()
    for weak_king in EDGE:
        for strong_king in chess.SQUARES:
            for strong_piece in chess.SQUARES:
                index = table_index(WEAK, strong_king, strong_piece, weak_king)
                if values[index] != ILLEGAL and board_at(piece, index).is_checkmate():
                    mates.add(index)
    assert mates == set(np.flatnonzero(values == 0).tolist())
    assert all(dtm(board_at(piece, index, chess.BLACK)) == 0 for index in sorted(mates)[::50])


def _successor_values(board):
    """dtm of the position after each legal move (from the opponent's view)."""
    values = []
    for move in board.legal_moves:
        board.push(move)
        values.append(dtm(board))
        board.pop()
    return values


@pytest.mark.parametrize("ending", ["krk", "kqk"])
def test_entries_agree_with_their_successors(ending):
    """On 400 random entries: ILLEGAL exactly where the squares are not distinct or python-chess finds the position
    invalid; a win in n plies has a move to a loss in n - 1 and none to a faster one; a loss in n plies has every move
    lead to a win in at most n - 1 (one exactly); a draw is a stalemate or has a move to a draw."""
    piece = PIECES[ending]
    values = build_table(piece)
    rng = random.Random(27)
    for _ in range(400):
        index = rng.randrange(TABLE_SIZE)
        board = board_at(piece, index, rng.choice(chess.COLORS))
        if len(board.piece_map()) < 3:
            assert values[index] == ILLEGAL
            continue
        assert (values[index] == ILLEGAL) == (not board.is_valid()), board.fen()
        if values[index] == ILLEGAL:
            continue
        value, after = dtm(board), _successor_values(board)
        if value is None:
            assert board.is_stalemate() or None in after, board.fen()
        elif value > 0:
            assert -(value - 1) in after, board.fen()
            assert all(other is None or other > 0 or other <= -(value - 1) for other in after), board.fen()
        elif value == 0:
            assert board.is_checkmate()
        else:
            assert all(other is not None and 0 < other <= -value - 1 for other in after), board.fen()
            assert max(after) == -value - 1, board.fen()


def test_best_move_takes_the_fastest_mate_and_the_longest_defence():
    """The perfect player's moves keep the distance-to-mate exact, and a reachable draw is taken."""
    board = chess.Board("8/8/8/8/8/2k5/8/K6R w - - 0 1")
    while not board.is_game_over():
        before = dtm(board)
        board.push(best_move(board))
        assert dtm(board) == -(before - 1) if before > 0 else dtm(board) == -before - 1
    assert board.is_checkmate() and board.ply() == dtm(chess.Board("8/8/8/8/8/2k5/8/K6R w - - 0 1"))
    hanging = chess.Board("8/8/8/8/8/8/1k6/1R3K2 b - - 0 1")   # the rook on b1 is undefended
    assert dtm(hanging) is None and best_move(hanging) == chess.Move.from_uci("b2b1")
    assert move_score(hanging, chess.Move.from_uci("b2b1")) == 0


def test_bad_material_is_refused():
    """dtm reads only K+R v K and K+Q v K (K v K is a draw)."""
    assert dtm(chess.Board("8/8/8/8/8/2k5/8/K7 w - - 0 1")) is None
    with pytest.raises(ValueError):
        dtm(chess.Board())


@pytest.mark.skipif(not os.path.exists(STOCKFISH), reason="Stockfish not installed at /usr/games")
@pytest.mark.parametrize("ending", ["krk", "kqk"])
def test_stockfish_agrees(ending):
    """On 5 random positions won in 4 to 8 moves for the side to move, Stockfish asked for a mate in the table's
    number of moves (`go mate N`; a depth-limited search may report a longer mate than the shortest) reports exactly
    it, and asked for one move less (1 s) reports no shorter mate. The losing side's entries follow from these by the
    successor test above."""
    piece = PIECES[ending]
    values = build_table(piece)
    rng = np.random.default_rng(15)
    candidates = np.flatnonzero((values[:HALF] >= 7) & (values[:HALF] <= 15))
    with chess.engine.SimpleEngine.popen_uci(STOCKFISH, timeout=30) as engine:
        for index in rng.choice(candidates, 5, replace=False):
            board = board_at(piece, int(index), chess.WHITE if index % 2 else chess.BLACK)
            moves = (dtm(board) + 1) // 2
            found = engine.analyse(board, chess.engine.Limit(mate=moves, time=20))["score"].relative.mate()
            assert found == moves, board.fen()
            faster = engine.analyse(board, chess.engine.Limit(mate=moves - 1, time=1))["score"].relative.mate()
            assert faster is None or faster >= moves, board.fen()


def test_either_colour_and_symmetry():
    """The strong side may be either colour: a colour-mirrored board and a left-right flipped one keep their dtm."""
    for fen in ("8/8/8/8/8/2k5/8/K6R w - - 0 1", "8/8/8/8/R7/3K4/7k/8 b - - 0 1", "8/8/8/5K2/3k4/8/8/4Q3 b - - 0 1"):
        board = chess.Board(fen)
        assert dtm(board) == dtm(board.mirror()) == dtm(board.transform(chess.flip_horizontal)) is not None
