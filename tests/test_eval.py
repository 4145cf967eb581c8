"""Evaluation: weights file format, symmetry, and agreement of the evaluation with the feature extraction."""

import json
import random

import chess
import numpy as np
import pytest

from mpcmc_engine.bitboard.position import Position
from mpcmc_engine.eval.evaluate import evaluate, evaluation_array
from mpcmc_engine.eval.explain import explain
from mpcmc_engine.eval.features import LAYOUT, N_FEATURES, PHASE_MAX, block_offsets, extract_features, game_phase, taper
from mpcmc_engine.eval.weights import (
    LINEAR_WEIGHTS_PATH, FORMAT, VERSION, WEIGHT_LIMIT, Weights, load_linear_weights, load_weights,
    material_only_weights, save_weights,
)


def random_boards(count, seed=1):
    """Positions reached by random playouts from the start (varied phases)."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        board = chess.Board()
        for _ in range(rng.randrange(4, 120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        boards.append(board.copy(stack=False))
    return boards


def random_weights(seed=2):
    rng = np.random.default_rng(seed)
    return Weights(rng.integers(-200, 200, N_FEATURES), rng.integers(-200, 200, N_FEATURES), "random")


def test_default_weights_load_and_were_trained():
    weights = load_linear_weights()
    assert weights.mg.shape == weights.eg.shape == (N_FEATURES,)
    assert "mpcmc-engine train" in weights.provenance


def test_weights_round_trip(tmp_path):
    weights = random_weights()
    path = tmp_path / "w.json"
    save_weights(weights, path)
    loaded = load_weights(path)
    assert np.array_equal(loaded.mg, weights.mg) and np.array_equal(loaded.eg, weights.eg)
    assert loaded.provenance == "random"


@pytest.mark.parametrize("change, reason", [
    (lambda d: d.update(version=VERSION + 1), "version"),
    (lambda d: d.update(format="something else"), "format"),
    (lambda d: d.update(mg=d["mg"][:-1]), "'mg' has"),
    (lambda d: d.update(layout=[["material", 6]]), "layout"),
    (lambda d: d["eg"].__setitem__(0, 1.5), "non-integer"),
    (lambda d: d["mg"].__setitem__(7, 10 ** 30), "'mg'[7] is 100000000000... (31 digits), outside the bound"),
    (lambda d: d["eg"].__setitem__(3, -WEIGHT_LIMIT - 1), f"'eg'[3] is {-WEIGHT_LIMIT - 1}, outside the bound"),
])
def test_bad_weights_files_are_refused(tmp_path, change, reason):
    path = tmp_path / "bad.json"
    save_weights(material_only_weights(), path)
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError) as error:
        load_weights(path)
    assert str(path) in str(error.value) and reason in str(error.value)


def test_engine_refuses_weights_with_huge_integers_names_file_and_reason_and_keeps_playing(tmp_path, raw_engine):
    path = tmp_path / "huge.json"
    save_weights(material_only_weights(), path)
    data = json.loads(path.read_text())
    data["mg"][5] = 10 ** 30
    path.write_text(json.dumps(data))
    engine = raw_engine()
    engine.send("uci", f"setoption name EvalFile value {path}", "isready")
    lines = engine.read_until("readyok")
    assert any(line.startswith(f"info string error: weights file {path}: 'mg'[5] is") and "outside the bound" in line
               for line in lines), lines
    engine.send("position startpos", "go depth 3")
    assert engine.read_until("bestmove")[-1].split()[1] in {move.uci() for move in chess.Board().legal_moves}


def test_unreadable_weights_file_is_refused(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    with pytest.raises(ValueError, match="broken.json"):
        load_weights(path)


def test_file_records_layout():
    data = json.loads(LINEAR_WEIGHTS_PATH.read_text())
    assert data["format"] == FORMAT and data["layout"] == [list(block) for block in LAYOUT]


def test_evaluation_is_colour_symmetric():
    packed = evaluation_array(random_weights())
    for board in random_boards(60):
        mirrored = Position.from_board(board.mirror())
        position = Position.from_board(board)
        mirrored_score = evaluate(mirrored.tab, mirrored.bb, mirrored.st, packed)
        assert evaluate(position.tab, position.bb, position.st, packed) == mirrored_score, board.fen()


def test_evaluation_equals_feature_dot_product():
    weights = random_weights()
    packed = evaluation_array(weights)
    counts = np.zeros(N_FEATURES, dtype=np.int64)
    for board in random_boards(60, seed=3):
        position = Position.from_board(board)
        extract_features(position.tab, position.bb, position.st, counts)
        sign = 1 if board.turn == chess.WHITE else -1
        phase = game_phase(position.bb)
        assert 0 <= phase <= PHASE_MAX
        expected = taper(sign * int(counts @ weights.mg), sign * int(counts @ weights.eg), phase)
        assert evaluate(position.tab, position.bb, position.st, packed) == expected, board.fen()


def test_material_evaluation_and_explain():
    position = Position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 b Qkq - 0 1")
    assert evaluate(position.tab, position.bb, position.st, evaluation_array(material_only_weights())) == 500
    explanation = explain(position, material_only_weights())
    assert [block.name for block in explanation.blocks] == [name for name, _ in LAYOUT]
    material = explanation.blocks[1]
    assert (material.mg, material.eg, material.tapered) == (-500, -500, -500)
    assert explanation.total == -500 and explanation.side_to_move_score == 500


def test_old_version_is_refused_with_the_reason(tmp_path):
    path = tmp_path / "old.json"
    save_weights(material_only_weights(), path)
    data = json.loads(path.read_text())
    data.update(version=1, layout=[["tempo", 1], ["material", 6], ["pst", 384]])
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="another feature layout"):
        load_weights(path)


def white_counts(fen):
    """{block name: white-minus-black counts of that block} of the position `fen`."""
    position = Position(fen)
    counts = np.zeros(N_FEATURES, dtype=np.int64)
    extract_features(position.tab, position.bb, position.st, counts)
    return {name: list(counts[start:start + size]) for name, (start, size) in block_offsets().items()}


@pytest.mark.parametrize("fen, block, expected", [
    ("4k3/8/8/8/8/2P5/2P5/4K3 w - - 0 1", "doubled_pawn", [1]),          # c2, c3: one doubled pawn
    ("4k3/8/8/8/8/8/P1P1P3/4K3 w - - 0 1", "isolated_pawn", [3]),        # a2, c2, e2: all isolated
    ("4k3/8/8/8/8/8/PP5P/4K3 w - - 0 1", "isolated_pawn", [1]),          # only h2
    ("4k3/8/3P4/8/8/8/8/4K3 w - - 0 1", "passed_pawn", [0, 0, 0, 0, 1, 0]),  # d6: passed on rank 6
    ("4k3/2p5/3P4/8/8/8/8/4K3 w - - 0 1", "passed_pawn", [0, 0, 0, 0, 0, 0]),  # c7 guards d6's path
    ("4k3/8/8/8/8/8/5pp1/K7 b - - 0 1", "passed_pawn", [0, 0, 0, 0, 0, -2]),  # black f2, g2: rank 7 for black
    ("4k3/8/8/8/8/2P5/1P1P4/4K3 w - - 0 1", "connected_pawn", [1]),      # c3, defended by b2 and d2
    ("4k3/8/8/8/8/8/PP6/R3K3 w - - 0 1", "rook_open_file", [0]),
    ("4k3/p7/8/8/8/8/1P6/R3K3 w - - 0 1", "rook_half_open_file", [1]),
    ("3rk3/8/8/8/8/8/8/3RK3 w - - 0 1", "rook_open_file", [0]),          # one each: white minus black
    ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "connected_pawn", [0]),
    ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "rook_open_file", [1]),
    ("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", "bishop_pair", [1]),
    ("2b1kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", "bishop_pair", [-1]),
    ("4k3/8/8/8/8/8/5PPP/6K1 w - - 0 1", "pawn_shield", [3, 0]),
    ("4k3/8/8/8/8/8/8/N3K3 w - - 0 1", "mobility", [2, 0, 0, 0]),        # Na1: b3, c2
    ("4k3/8/8/8/8/1p6/8/N3K3 w - - 0 1", "mobility", [1, 0, 0, 0]),      # c2 is attacked by the b3 pawn
    ("7k/8/5N2/8/8/8/8/4K3 w - - 0 1", "king_attack", [2, 0, 0, 0]),     # Nf6 hits g8 and h7 in h8's zone
])
def test_hand_checked_feature_counts(fen, block, expected):
    assert white_counts(fen)[block] == expected


def test_side_terms_are_colour_symmetric():
    for board in random_boards(40, seed=5):
        counts = white_counts(board.fen())
        mirrored = white_counts(board.mirror().fen())
        for name, _ in LAYOUT:
            assert counts[name] == [-c for c in mirrored[name]], (board.fen(), name)
