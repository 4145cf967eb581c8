"""Evaluation: weights file format, symmetry, and agreement of the evaluation with the feature extraction."""

import json
import random

import chess
import numpy as np
import pytest

from bitboard.position import Position
from eval.evaluate import evaluate
from eval.explain import explain
from eval.features import LAYOUT, N_FEATURES, PHASE_MAX, extract_features, game_phase, taper
from eval.weights import (
    DEFAULT_WEIGHTS_PATH, FORMAT, VERSION, Weights, load_default_weights, load_weights, material_only_weights,
    save_weights,
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


def test_default_weights_are_material_only():
    weights = load_default_weights()
    expected = material_only_weights()
    assert np.array_equal(weights.mg, expected.mg) and np.array_equal(weights.eg, expected.eg)


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


def test_unreadable_weights_file_is_refused(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    with pytest.raises(ValueError, match="broken.json"):
        load_weights(path)


def test_file_records_layout():
    data = json.loads(DEFAULT_WEIGHTS_PATH.read_text())
    assert data["format"] == FORMAT and data["layout"] == [list(block) for block in LAYOUT]


def test_evaluation_is_colour_symmetric():
    packed = random_weights().packed()
    for board in random_boards(60):
        mirrored = Position.from_board(board.mirror())
        position = Position.from_board(board)
        assert evaluate(position.bb, position.st, packed) == evaluate(mirrored.bb, mirrored.st, packed), board.fen()


def test_evaluation_equals_feature_dot_product():
    weights = random_weights()
    packed = weights.packed()
    counts = np.zeros(N_FEATURES, dtype=np.int64)
    for board in random_boards(60, seed=3):
        position = Position.from_board(board)
        extract_features(position.bb, position.st, counts)
        sign = 1 if board.turn == chess.WHITE else -1
        phase = game_phase(position.bb)
        assert 0 <= phase <= PHASE_MAX
        expected = taper(sign * int(counts @ weights.mg), sign * int(counts @ weights.eg), phase)
        assert evaluate(position.bb, position.st, packed) == expected, board.fen()


def test_material_evaluation_and_explain():
    position = Position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 b Qkq - 0 1")
    assert evaluate(position.bb, position.st, load_default_weights().packed()) == 500
    explanation = explain(position)
    assert [block.name for block in explanation.blocks] == [name for name, _ in LAYOUT]
    material = explanation.blocks[1]
    assert (material.mg, material.eg, material.tapered) == (-500, -500, -500)
    assert explanation.total == -500 and explanation.side_to_move_score == 500
