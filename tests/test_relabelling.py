"""relabel-positions: a chunk's row back to a position, the relabelled chunks (same games and rows, new scores, best
moves and quiet flags, the same whatever the workers), resuming, and the command's errors."""

import subprocess
import sys

import chess
import numpy as np
import pytest

from mpcmc_engine.bitboard.constants import ST_BOARD
from mpcmc_engine.bitboard.position import Position
from mpcmc_engine.search.searcher import Searcher
from mpcmc_engine.training.network.position_data import chunk_path, read_chunk, write_chunk
from mpcmc_engine.training.network.position_generation import GenerationSettings, generate_positions
from mpcmc_engine.training.network.relabelling import position_of, relabelled
from tests.test_eval import random_boards


def squares_of(board: chess.Board) -> np.ndarray:
    """A chunk's row of `board`: its 64 piece codes."""
    return Position(board.fen()).st[ST_BOARD:ST_BOARD + 64].astype(np.uint8)


def test_a_chunk_row_becomes_its_position_with_the_castling_its_pieces_allow():
    assert position_of(squares_of(chess.Board()), 0).fen() == chess.STARTING_FEN
    moved = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    moved.push_san("Kd1")
    moved.push_san("Rh7")   # black's h-rook has left its square: black keeps the long castling only
    assert position_of(squares_of(moved), 0).fen() == "r3k3/7r/8/8/8/8/8/R2K3R w q - 0 1"
    for board in random_boards(60, seed=11):
        side = 0 if board.turn == chess.WHITE else 1
        rebuilt = chess.Board(position_of(squares_of(board), side).fen())
        assert rebuilt.board_fen() == board.board_fen() and rebuilt.turn == board.turn
        assert rebuilt.ep_square is None and rebuilt.castling_rights & board.castling_rights == board.castling_rights


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    """Two chunks of self-play positions labelled at 200 nodes."""
    data = tmp_path_factory.mktemp("source")
    generate_positions(GenerationSettings(str(data), games=2, games_per_chunk=1, nodes=200, epsilon=0.0, openings="",
                                          seed=5), 1, lambda games, kept: None)
    return data


def run_relabel(*words, env):
    return subprocess.run([sys.executable, "-m", "mpcmc_engine", "relabel-positions", *words], capture_output=True,
                          text=True, env=env, timeout=300)


def test_relabelled_chunks_keep_the_games_and_take_the_deeper_scores(source, tmp_path, engine_env):
    out = tmp_path / "out"
    done = run_relabel("--data", str(source), "--out", str(out), "--nodes", "2000", "--workers", "2", env=engine_env)
    assert done.returncode == 0, done.stderr[-1000:]
    for index in (0, 1):
        before, after = read_chunk(chunk_path(source, index)), read_chunk(chunk_path(out, index))
        expected = relabelled(before, 2000, Searcher())   # the same in this process as in a worker
        for name in ("board", "side", "score", "result", "move", "quiet"):
            assert np.array_equal(getattr(after, name), getattr(expected, name)), name
        assert len(after) == len(before) and 0 < after.quiet.sum() < len(after)
        assert np.array_equal(after.board, before.board) and np.array_equal(after.result, before.result)
        shallow = {(bytes(board), int(side), int(result)): int(score) for board, side, result, score in
                   zip(before.board, before.side, before.result, before.score)}
        keys = [(bytes(board), int(side), int(result)) for board, side, result in
                zip(after.board, after.side, after.result)]
        assert all(key in shallow for key in keys)   # the source's positions with their game's result
        assert any(shallow[key] != score for key, score in zip(keys, after.score))   # deeper searches, other scores


def test_an_interrupted_relabelling_resumes_with_the_missing_chunks_only(source, tmp_path, engine_env):
    out = tmp_path / "out"
    partial = read_chunk(chunk_path(source, 0))
    write_chunk(out, 0, partial)   # chunk 0 already done (here: a copy, which a rerun must not touch)
    written = chunk_path(out, 0).stat().st_mtime_ns
    done = run_relabel("--data", str(source), "--out", str(out), "--nodes", "500", env=engine_env)
    assert done.returncode == 0, done.stderr[-1000:]
    assert chunk_path(out, 0).stat().st_mtime_ns == written and chunk_path(out, 1).exists()
    relabelled_once = chunk_path(out, 1).stat().st_mtime_ns
    again = run_relabel("--data", str(source), "--out", str(out), "--nodes", "500", env=engine_env)
    assert again.returncode == 0, again.stderr[-1000:]
    assert chunk_path(out, 1).stat().st_mtime_ns == relabelled_once and "2/2" in again.stderr   # nothing left


def test_relabelling_bad_data_is_refused_with_the_reason(tmp_path, engine_env):
    empty = tmp_path / "empty"
    empty.mkdir()
    refused = run_relabel("--data", str(empty), "--out", str(tmp_path / "out"), env=engine_env)
    assert refused.returncode == 2 and f"position data {empty}: no chunk-*.npz files" in refused.stderr
    broken = tmp_path / "broken"
    broken.mkdir()
    chunk_path(broken, 3).write_bytes(b"PK\x03\x04 truncated")
    refused = run_relabel("--data", str(broken), "--out", str(tmp_path / "out"), env=engine_env)
    assert refused.returncode == 2 and f"position chunk {chunk_path(broken, 3)}: cannot be read" in refused.stderr
    assert "Traceback" not in refused.stderr
    refused = run_relabel("--data", str(broken), "--out", str(tmp_path / "out"), "--nodes", "0", env=engine_env)
    assert refused.returncode == 2 and "--nodes and --workers must be positive" in refused.stderr
