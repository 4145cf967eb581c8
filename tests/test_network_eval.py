"""The neural evaluation in the engine: incremental accumulators against a full refresh, colour symmetry, a network
computed by hand, the file format's refusals, and the search with a network."""

import json
import random
import re
import subprocess
import sys

import chess
import numpy as np
import pytest

from mpcmc_engine.bitboard.constants import BLACK, PAWN, QUEEN, WHITE
from mpcmc_engine.bitboard.position import Position
from mpcmc_engine.eval.eval_file import DEFAULT_EVALUATION, SHIPPED_EVALUATIONS
from mpcmc_engine.eval.evaluate import KIND_NETWORK, evaluate, evaluation_array
from mpcmc_engine.eval.network import (
    ACTIVATIONS, HIDDEN, INT16_LIMIT, OUTPUT_SCALE, QA, QB, QB_LIMIT, SCRELU_W2_LIMIT, SHIPPED_NETWORK_PATH, Network,
    check_accumulator_reach, load_network, save_network,
)
from mpcmc_engine.eval.network_eval import PLY_SLOTS, network_score, record_move, refresh_root, sums_at
from mpcmc_engine.eval.network_features import (
    INPUTS, INPUTS_PER_OWNER, OUTPUT_BUCKETS, bucket_flip, input_index, output_bucket,
)
from mpcmc_engine.search.constants import MATE_BOUND
from mpcmc_engine.search.limits import SearchLimits
from mpcmc_engine.search.searcher import Searcher
from tests.test_eval import random_boards
from tests.test_uci_protocol import legal_bestmove, start


def random_network(seed=3, scale=60, activation="crelu"):
    """A network with random weights of a size where activations are often clipped both ways."""
    rng = np.random.default_rng(seed)
    return Network(rng.integers(-scale, scale + 1, (INPUTS, HIDDEN)), rng.integers(-scale, 2 * scale, HIDDEN),
                   rng.integers(-127, 128, (OUTPUT_BUCKETS, 2 * HIDDEN)), rng.integers(-5000, 5000, OUTPUT_BUCKETS),
                   "random", activation)


# Games that exercise every kind of accumulator change: castling both ways (kings crossing buckets or not), en
# passant, promotions with and without capture, king walks across the d/e boundary.
SPECIAL_LINES = [
    ("r3k2r/pppq1ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPPQ1PPP/R3K2R w KQkq - 0 1", "e1c1 e8g8 c1b1 g8h8 d1e1"),
    ("r3k2r/pppq1ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPPQ1PPP/R3K2R w KQkq - 0 1", "e1g1 e8c8"),
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6 e8d7 e1d2 d7d6"),
    ("1n6/P6k/8/8/8/8/1p6/R3K3 w - - 0 1", "a7b8q b2a1n b8c8 h7g6"),
    ("8/8/3k4/8/8/4K3/8/8 w - - 0 1", "e3d3 d6e6 d3e4 e6d6 e4d4 d6c6 d4e5"),
]


def engine_moves(position, texts):
    """The engine's move integers of the UCI moves `texts` played from `position` (which is left after them)."""
    moves = []
    for text in texts:
        moves.append(position.parse_uci(text))
        position.push(moves[-1])
    return moves


def accumulator_walk(position, params, moves, evaluated_plies=None):
    """Play `moves` (engine move ints) recorded for incremental sums, evaluating at `evaluated_plies` (every ply when
    None, so that each is computed from its parent; otherwise the plies between are caught up lazily); at each
    evaluated ply, assert equality of the sums and the score with a refresh."""
    base = 3  # any offset in the array
    acc = np.zeros(base + PLY_SLOTS * (len(moves) + 1), dtype=np.int64)
    refresh_root(position.bb, position.st, params, acc, base)
    fresh = np.zeros(PLY_SLOTS, dtype=np.int64)
    sums, fresh_sums = acc.view(np.int16), fresh.view(np.int16)
    for ply, move in enumerate(moves, start=1):
        record_move(position.st, acc, base, ply - 1, move)
        position.push(move)
        if evaluated_plies is not None and ply not in evaluated_plies and ply != len(moves):
            continue
        score = network_score(position.bb, position.st, params, acc, base, ply)
        refresh_root(position.bb, position.st, params, fresh, 0)
        at, fresh_at = sums_at(base, ply, WHITE), sums_at(0, 0, WHITE)
        assert np.array_equal(sums[at:at + 2 * HIDDEN], fresh_sums[fresh_at:fresh_at + 2 * HIDDEN]), position.fen()
        assert score == evaluate(position.tab, position.bb, position.st, params)


@pytest.mark.parametrize("activation", ACTIVATIONS)
@pytest.mark.parametrize("fen,line", SPECIAL_LINES)
def test_incremental_accumulators_equal_a_refresh_on_special_moves(fen, line, activation):
    params = evaluation_array(random_network(activation=activation))
    accumulator_walk(Position(fen), params, engine_moves(Position(fen), line.split()))


def test_incremental_accumulators_equal_a_refresh_on_random_games():
    params = evaluation_array(random_network(seed=5))
    rng = random.Random(11)
    kinds = {"castle": 0, "en_passant": 0, "promotion": 0, "bucket": 0}
    for _ in range(30):
        board = chess.Board()
        for _ in range(rng.randrange(40, 160)):
            legal = list(board.legal_moves)
            if not legal:
                break
            special = [m for m in legal if board.is_castling(m) or board.is_en_passant(m) or m.promotion]
            move = rng.choice(special if special and rng.random() < 0.7 else legal)
            kinds["castle"] += board.is_castling(move)
            kinds["en_passant"] += board.is_en_passant(move)
            kinds["promotion"] += move.promotion is not None
            piece = board.piece_at(move.from_square)
            if piece.piece_type == chess.KING:
                kinds["bucket"] += (chess.square_file(move.from_square) < 4) != (chess.square_file(move.to_square) < 4)
            board.push(move)
        texts = [move.uci() for move in board.move_stack]
        accumulator_walk(Position(), params, engine_moves(Position(), texts))
        accumulator_walk(Position(), params, engine_moves(Position(), texts), set(range(0, len(texts), 7)))
    assert all(count > 0 for count in kinds.values()), kinds


def exact_score(board, network):
    """The score of eval/network.py's formula for `board`'s side to move, in Python integers (no 16- or 32-bit sums):
    out in units of QA * qb, or of QA ** 2 * qb for a screlu network (its activations squared, b2 times QA)."""
    sums = []
    for view in (WHITE, BLACK):
        flip = bucket_flip(view, board.king(view == WHITE))
        rows = [input_index(view, flip, (piece.color != chess.WHITE) * 8 + piece.piece_type, square)
                for square, piece in board.piece_map().items()]
        clipped = [int(v) for v in np.clip(network.b1 + network.w1[rows].sum(axis=0), 0, QA)]
        sums.append([v * v for v in clipped] if network.activation == "screlu" else clipped)
    mover = WHITE if board.turn == chess.WHITE else BLACK
    bucket = output_bucket(len(board.piece_map()))
    layer = [int(w) for w in network.w2[bucket]]
    scale = QA if network.activation == "screlu" else 1
    out = int(network.b2[bucket]) * scale + sum(h * w for h, w in zip(sums[mover] + sums[1 - mover], layer))
    return (abs(out) * OUTPUT_SCALE // (QA * network.qb * scale)) * (1 if out >= 0 else -1)


def test_sums_at_the_edge_of_int16_stay_exact():
    """Every hidden unit's reach exactly INT16_LIMIT (|b1| 31 and +-1023 weights) and output weights at +-INT16_LIMIT:
    the incremental 16-bit sums (whose partial sums on the way may wrap) and the 32-bit dot products give the score
    of the formula in Python integers, on random games."""
    rng = np.random.default_rng(21)
    signs = rng.choice([-1, 1], (INPUTS, HIDDEN))
    network = Network(1023 * signs, 31 * rng.choice([-1, 1], HIDDEN),
                      INT16_LIMIT * rng.choice([-1, 1], (OUTPUT_BUCKETS, 2 * HIDDEN)),
                      rng.integers(-5000, 5000, OUTPUT_BUCKETS))
    check_accumulator_reach(network.w1, network.b1, "edge")
    params = evaluation_array(network)
    for board in random_boards(30, seed=12):
        position = Position(board.fen())
        assert evaluate(position.tab, position.bb, position.st, params) == exact_score(board, network), board.fen()
    games = random.Random(13)
    for _ in range(4):
        board = chess.Board()
        while not board.is_game_over() and board.ply() < 120:
            board.push(games.choice(list(board.legal_moves)))
        texts = [move.uci() for move in board.move_stack]
        accumulator_walk(Position(), params, engine_moves(Position(), texts))
        final = Position(board.fen())
        assert evaluate(final.tab, final.bb, final.st, params) == exact_score(board, network), board.fen()


def scores_by_formula_and_walk(network, other, boards_seed, walk_seed, plies):
    """Assert that `network` scores random boards as exact_score does and walk a random game of `plies` with its
    incremental sums checked (accumulator_walk); return how many of those boards `other` (a Network) scores
    differently."""
    params, other_params = evaluation_array(network), evaluation_array(other)
    differs = 0
    for board in random_boards(30, seed=boards_seed):
        position = Position(board.fen())
        score = evaluate(position.tab, position.bb, position.st, params)
        assert score == exact_score(board, network), board.fen()
        differs += score != evaluate(position.tab, position.bb, position.st, other_params)
    games = random.Random(walk_seed)
    board = chess.Board()
    while not board.is_game_over() and board.ply() < plies:
        board.push(games.choice(list(board.legal_moves)))
    accumulator_walk(Position(), params, engine_moves(Position(), [move.uci() for move in board.move_stack]))
    return differs


@pytest.mark.parametrize("saturated", [False, True])
def test_a_screlu_network_scores_by_its_formula(saturated):
    """Squared clipped ReLU: random weights (whose scores differ from the clipped ReLU's), and every unit at QA with
    every output weight of a bucket at +SCRELU_W2_LIMIT or -SCRELU_W2_LIMIT (each view's products of squares at the
    edge of int32): from scratch and incrementally the score of the formula in Python integers."""
    if saturated:
        rng = np.random.default_rng(8)
        signs = rng.choice([1, -1], (OUTPUT_BUCKETS, 1))
        network = Network(np.zeros((INPUTS, HIDDEN), dtype=np.int64), np.full(HIDDEN, 2 * QA, dtype=np.int64),
                          SCRELU_W2_LIMIT * signs * np.ones((OUTPUT_BUCKETS, 2 * HIDDEN), dtype=np.int64),
                          rng.integers(-5000, 5000, OUTPUT_BUCKETS), "saturated", "screlu")
    else:
        network = random_network(seed=6, activation="screlu")
    differs = scores_by_formula_and_walk(network, Network(network.w1, network.b1, network.w2, network.b2), 14, 15, 100)
    assert saturated or differs > 0, "the activation changes the scores"


@pytest.mark.parametrize("activation", ACTIVATIONS)
def test_the_output_scale_is_the_networks_own(activation):
    """A network's qb divides its output: the same integers at qb 512 score by the formula, from scratch and
    incrementally, and differ from the scores at 64."""
    network = random_network(seed=9, activation=activation)
    fine = Network(network.w1, network.b1, network.w2, network.b2, "", activation, 512)
    assert scores_by_formula_and_walk(fine, network, 16, 17, 80) > 20


def test_a_null_move_keeps_the_sums():
    params = evaluation_array(random_network())
    position = Position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    acc = np.zeros(2 * PLY_SLOTS, dtype=np.int64)
    refresh_root(position.bb, position.st, params, acc, 0)
    record_move(position.st, acc, 0, 0, 0)
    network_score(position.bb, position.st, params, acc, 0, 1)
    sums = acc.view(np.int16)
    assert np.array_equal(sums[sums_at(0, 0, WHITE):][:2 * HIDDEN], sums[sums_at(0, 1, WHITE):][:2 * HIDDEN])


def mirrored_fen(board):
    """The colour-flipped position (python-chess mirror: board flipped vertically, colours and side swapped)."""
    return board.mirror().fen()


def test_colour_symmetry_of_the_network():
    """A position and its colour-flipped twin score the same for their side to move."""
    params = evaluation_array(random_network(seed=8))
    for board in random_boards(40, seed=4):
        position = Position(board.fen())
        twin = Position(mirrored_fen(board))
        assert evaluate(position.tab, position.bb, position.st, params) == evaluate(
            twin.tab, twin.bb, twin.st, params), board.fen()


def test_horizontal_mirror_symmetry_of_the_buckets():
    """The inputs mirror a view whose king is on files a-d, so a position and its left-right mirror score alike."""
    params = evaluation_array(random_network(seed=9))
    fen = "2kr3r/ppp2ppp/2n5/3q4/8/2N5/PPP2PPP/2KR3R w - - 0 1"
    board = chess.Board(fen)
    position = Position(fen)
    twin = Position(board.transform(chess.flip_horizontal).fen())
    assert evaluate(position.tab, position.bb, position.st, params) == evaluate(twin.tab, twin.bb, twin.st, params)


def test_input_indices_by_hand():
    assert bucket_flip(WHITE, 4) == 0          # white king e1: files e-h, no mirror
    assert bucket_flip(WHITE, 2) == 7          # white king c1: mirrored
    assert bucket_flip(BLACK, 60) == 56        # black king e8: vertical flip only
    assert bucket_flip(BLACK, 58) == 63        # black king c8: both
    # a white pawn on e2 seen by white (king e1) and by black (king e8)
    assert input_index(WHITE, 0, WHITE * 8 + PAWN, 12) == 12
    assert input_index(BLACK, 56, WHITE * 8 + PAWN, 12) == INPUTS_PER_OWNER + (12 ^ 56)
    assert input_index(WHITE, 7, BLACK * 8 + QUEEN, 59) == INPUTS_PER_OWNER + 4 * 64 + (59 ^ 7)


def test_a_network_computed_by_hand():
    """Two hidden units, two inputs used: the output follows the formula in eval/network.py, with the output layer
    of the position's bucket (3 pieces: bucket 0; the other buckets' layers would give other scores)."""
    w1 = np.zeros((INPUTS, HIDDEN), dtype=np.int64)
    b1 = np.zeros(HIDDEN, dtype=np.int64)
    w2 = np.full((OUTPUT_BUCKETS, 2 * HIDDEN), 7, dtype=np.int64)
    w2[0] = 0
    # white king e1, black king e8, white queen d1: from white's view the queen is own (d1 = 3), no mirror;
    # from black's view it is the other side's, vertically flipped (d8 = 59), no mirror (black king e8).
    queen_white_view = input_index(WHITE, bucket_flip(WHITE, 4), WHITE * 8 + QUEEN, 3)
    queen_black_view = input_index(BLACK, bucket_flip(BLACK, 60), WHITE * 8 + QUEEN, 3)
    w1[queen_white_view, 0] = 200     # own queen: unit 0 at 200 (below QA)
    w1[queen_black_view, 1] = 400     # enemy queen: unit 1 at 400, clipped to QA = 255
    b1[0] = 10
    w2[0, 0] = 3                      # side to move's unit 0
    w2[0, HIDDEN + 1] = -2            # other side's unit 1
    w2[0, 1] = 5                      # side to move's unit 1
    b2 = np.arange(OUTPUT_BUCKETS, dtype=np.int64) * 500 + 1000
    network = Network(w1, b1, w2, b2)
    params = evaluation_array(network)
    white = Position("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")
    # white to move: own view units (210, 0+b1[1]=0), other (black) view units (10, 255)
    expected_out = 1000 + 210 * 3 + 0 * 5 + 255 * -2
    expected = int(expected_out * OUTPUT_SCALE / (QA * QB))
    assert evaluate(white.tab, white.bb, white.st, params) == expected
    black = Position("4k3/8/8/8/8/8/8/3QK3 b - - 0 1")
    # black to move: own (black) view units (10, 255), other (white) view (210, 0)
    expected_out = 1000 + 10 * 3 + 255 * 5 + 0 * -2
    assert evaluate(black.tab, black.bb, black.st, params) == int(expected_out * OUTPUT_SCALE / (QA * QB))


def test_the_output_bucket_follows_the_piece_count():
    """Each bucket's own b2 (all output weights 0): 1-4 pieces bucket 0, 5-8 bucket 1, ..., 29-32 bucket 7, the
    same from scratch and incrementally across a capture that changes the bucket."""
    b2 = np.arange(1, OUTPUT_BUCKETS + 1, dtype=np.int64) * QA * QB  # bucket k scores (k + 1) * OUTPUT_SCALE
    network = Network(np.zeros((INPUTS, HIDDEN), dtype=np.int64), np.zeros(HIDDEN, dtype=np.int64),
                      np.zeros((OUTPUT_BUCKETS, 2 * HIDDEN), dtype=np.int64), b2)
    params = evaluation_array(network)
    for fen, bucket in [("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0), ("4k3/8/8/8/8/8/8/R2QK3 w - - 0 1", 0),
                        ("4k3/8/8/8/8/8/8/RB1QK3 w - - 0 1", 1), (chess.STARTING_FEN, 7),
                        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RN1QK2R w KQkq - 0 1", 7),
                        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RN2K2R w KQkq - 0 1", 6)]:
        position = Position(fen)
        assert evaluate(position.tab, position.bb, position.st, params) == (bucket + 1) * OUTPUT_SCALE, fen
    # 5 pieces, then a capture leaves 4: bucket 1, then 0 (the accumulators carried incrementally)
    position = Position("4k3/8/8/3r4/8/8/8/R2QK3 w - - 0 1")
    acc = np.zeros(2 * PLY_SLOTS, dtype=np.int64)
    refresh_root(position.bb, position.st, params, acc, 0)
    assert network_score(position.bb, position.st, params, acc, 0, 0) == 2 * OUTPUT_SCALE
    move = position.parse_uci("d1d5")
    record_move(position.st, acc, 0, 0, move)
    position.push(move)
    assert network_score(position.bb, position.st, params, acc, 0, 1) == OUTPUT_SCALE


def test_network_file_round_trip_and_refusals(tmp_path):
    network = random_network()
    path = tmp_path / "net.json"
    save_network(network, path)
    loaded = load_network(path)
    assert np.array_equal(loaded.w1, network.w1) and np.array_equal(loaded.w2, network.w2)
    assert np.array_equal(loaded.b2, network.b2)
    data = json.loads(path.read_text())
    for field, value, reason in [("hidden", 2 * HIDDEN, f"'hidden' is {2 * HIDDEN}"), ("hidden", HIDDEN // 2, "widens"),
                                 ("version", 99, "version is 99"), ("version", 1, "converts a version-1 network"),
                                 ("output_buckets", 4, "'output_buckets' is 4"), ("b2", 7, "'b2' is missing"),
                                 ("b1", [0] * 3, "'b1' has 3 values"), ("format", "x", "format is 'x'")]:
        broken = dict(data, **{field: value})
        bad = tmp_path / f"bad-{field}.json"
        bad.write_text(json.dumps(broken))
        with pytest.raises(ValueError, match=reason) as error:
            load_network(bad)
        assert str(bad) in str(error.value)
    reaching = tmp_path / "reaching.json"
    reaching.write_text(json.dumps(dict(data, b1=[0] * 7 + [INT16_LIMIT] + [0] * (HIDDEN - 8))))
    with pytest.raises(ValueError, match="hidden unit 7 can reach .* beyond the engine's 16-bit sums") as error:
        load_network(reaching)
    assert str(reaching) in str(error.value)
    unsaved = tmp_path / "unsaved.json"
    with pytest.raises(ValueError, match=f"{unsaved}: hidden unit 7 can reach"):
        save_network(Network(network.w1, np.where(np.arange(HIDDEN) == 7, INT16_LIMIT, 0), network.w2, network.b2),
                     unsaved)
    assert not unsaved.exists()
    truncated = tmp_path / "truncated.json"
    truncated.write_text(path.read_text()[:1000])
    with pytest.raises(ValueError, match="cannot be read as JSON"):
        load_network(truncated)


def test_the_activation_in_the_network_file(tmp_path):
    """A screlu network keeps its activation through its file; a version-2 file (no activation field) is a crelu
    network; an unknown activation, and screlu output weights beyond +-SCRELU_W2_LIMIT, are refused when read and
    when written, naming the file."""
    network = random_network(activation="screlu")
    network.qb = 256
    path = tmp_path / "screlu.json"
    save_network(network, path)
    assert load_network(path).activation == "screlu" and load_network(path).qb == 256
    data = json.loads(path.read_text())
    assert data["version"] == 3 and data["activation"] == "screlu" and data["qb"] == 256
    for qb in (0, QB_LIMIT + 1, 2.5):
        bad_scale = tmp_path / "bad-qb.json"
        bad_scale.write_text(json.dumps(dict(data, qb=qb)))
        with pytest.raises(ValueError, match=f"{bad_scale}: 'qb' is {qb}"):
            load_network(bad_scale)
    version2 = tmp_path / "version2.json"
    older = {key: value for key, value in dict(data, version=2, qb=QB).items() if key != "activation"}
    version2.write_text(json.dumps(older))
    assert load_network(version2).activation == "crelu" and load_network(version2).qb == QB
    version2.write_text(json.dumps(dict(older, qb=256)))
    with pytest.raises(ValueError, match="a network file of version 2 has qb 64"):
        load_network(version2)
    unknown = tmp_path / "unknown.json"
    unknown.write_text(json.dumps(dict(data, activation="gelu")))
    with pytest.raises(ValueError, match=f"{unknown}: 'activation' is 'gelu'"):
        load_network(unknown)
    wide = np.array(network.w2)
    wide[3, 17] = SCRELU_W2_LIMIT + 1
    beyond = tmp_path / "beyond.json"
    beyond.write_text(json.dumps(dict(data, w2=wide.reshape(-1).tolist())))
    with pytest.raises(ValueError, match=rf"{beyond}: 'w2'\[{3 * 2 * HIDDEN + 17}\] is outside .* of a screlu network"):
        load_network(beyond)
    crelu = dict(data, activation="crelu", w2=wide.reshape(-1).tolist())
    beyond.write_text(json.dumps(crelu))
    assert load_network(beyond).activation == "crelu", "a crelu network's w2 may go to +-INT16_LIMIT"
    unsaved = tmp_path / "unsaved.json"
    with pytest.raises(ValueError, match="outside the bound"):
        save_network(Network(network.w1, network.b1, wide, network.b2, "", "screlu"), unsaved)
    assert not unsaved.exists()


def test_the_search_with_a_network_plays_legal_moves_and_agrees_with_its_evaluation():
    """A fixed-depth search with a network: the engine's incremental evaluation at the PV's end equals the
    evaluation from scratch (a 1-ply search's score is the best child's static evaluation after quiescence)."""
    network = random_network(seed=12, scale=20)
    searcher = Searcher(hash_mb=4)
    searcher.set_evaluation(network)
    assert searcher._weights[0] == KIND_NETWORK
    position = Position("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    result = searcher.search(position, SearchLimits(depth=5))
    assert result.best_move in position.legal_moves()
    quiet = Position("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    params = evaluation_array(network)
    best = -10 ** 9
    for move in quiet.legal_moves():
        child = quiet.copy()
        child.push(move)
        best = max(best, -evaluate(child.tab, child.bb, child.st, params))
    searcher.clear()
    assert searcher.search(quiet, SearchLimits(depth=1)).score == best


def test_uci_loads_a_network_refuses_a_corrupt_one_and_keeps_playing(raw_engine, tmp_path):
    """EvalFile takes a network file; a corrupt or mismatched one is refused with `info string error` naming the
    file, and the engine goes on with the network it had."""
    engine, _ = start(raw_engine)
    good = tmp_path / "net.json"
    save_network(random_network(seed=21, scale=20), good)
    engine.send(f"setoption name EvalFile value {good}", "position startpos moves e2e4", "eval")
    lines = engine.read_until("Final evaluation")
    assert any(line.startswith("NNUE network output") for line in lines), lines
    assert any(line.startswith("material balance +0.00") for line in lines), lines
    evaluation = lines[-1]
    data = json.loads(good.read_text())
    mismatched = tmp_path / "mismatched.json"
    mismatched.write_text(json.dumps(dict(data, hidden=64)))
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text(good.read_text()[:5000])
    for bad in (mismatched, corrupt):
        engine.send(f"setoption name EvalFile value {bad}", "isready")
        lines = engine.read_until("readyok")
        errors = [line for line in lines if line.startswith("info string error")]
        assert len(errors) == 1 and str(bad) in errors[0], lines
    engine.send("eval")
    assert engine.read_until("Final evaluation")[-1] == evaluation
    engine.send("go depth 4")
    board = chess.Board()
    board.push_uci("e2e4")
    legal_bestmove(engine.read_until("bestmove", timeout=30), board)


def test_bench_measures_another_evaluation_against_the_default(tmp_path, engine_env):
    """`bench --eval-file` prints the default evaluation's line, then the other's (a file or a shipped name) with the
    speed ratio; a corrupt file exits 2 naming it."""
    network_file = tmp_path / "net.json"
    save_network(random_network(seed=4, scale=20), network_file)
    command = [sys.executable, "-m", "mpcmc_engine", "bench", "3", "--eval-file"]
    for other_evaluation in (str(network_file), "<linear>"):
        finished = subprocess.run(command + [other_evaluation], capture_output=True, text=True, env=engine_env,
                                  timeout=300)
        assert finished.returncode == 0, finished.stderr
        default, other = finished.stdout.strip().splitlines()
        assert re.fullmatch(r"\d+ nodes \d+ nps", default)
        assert re.fullmatch(rf"{re.escape(other_evaluation)}: \d+ nodes \d+ nps; \d+\.\d+ x the default "
                            r"evaluation's nodes/s", other)
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text("{")
    finished = subprocess.run(command + [str(corrupt)], capture_output=True, text=True, env=engine_env, timeout=300)
    assert finished.returncode == 2 and str(corrupt) in finished.stdout


def test_the_shipped_evaluations_are_selectable_by_name(raw_engine):
    """The engine plays with the shipped network by default (`EvalFile <network>`, also `<default>`); `<linear>`
    selects the shipped linear weights, broken down by feature block in `eval`, `<material>` the material-only weights
    (a rook down: -5.00 for white, nothing from the other blocks); either network name returns to the network."""
    shipped = load_network(SHIPPED_NETWORK_PATH)
    assert shipped.provenance.startswith("train-network on")
    assert SHIPPED_EVALUATIONS[DEFAULT_EVALUATION] == SHIPPED_EVALUATIONS["<default>"] == SHIPPED_NETWORK_PATH
    engine, _ = start(raw_engine)

    def evaluation_lines(*commands):
        engine.send(*commands, "eval")
        return engine.read_until("Final evaluation")

    def is_network(lines):
        return any(line.startswith("NNUE network output") for line in lines)

    def is_linear(lines):
        return (any(line.startswith("material") and "mg" not in line for line in lines)
                and any(line.split()[0] == "pst" for line in lines))

    assert is_network(evaluation_lines("position startpos"))
    assert is_linear(evaluation_lines("setoption name EvalFile value <linear>"))
    engine.send("go depth 6")
    legal_bestmove(engine.read_until("bestmove", timeout=30), chess.Board())
    assert is_network(evaluation_lines("setoption name EvalFile value <default>"))
    material = evaluation_lines("setoption name EvalFile value <material>",
                                "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 b Qkq - 0 1")
    assert is_linear(material) and any(line.split()[:2] == ["pst", "0"] for line in material)
    assert "Final evaluation -5.00 (white side), +5.00 (side to move)" in material
    assert is_network(evaluation_lines("setoption name EvalFile value <network>"))


def test_a_static_evaluation_beyond_the_mate_scores_never_reads_as_a_mate():
    """A network whose every output lies far beyond the mate scores (all of the side to move's units saturated at
    the largest output weight): the search clamps its static evaluation below MATE_BOUND, so it reports no mate,
    and still plays a legal move."""
    w2 = np.tile(np.concatenate([np.full(HIDDEN, INT16_LIMIT), np.zeros(HIDDEN)]), (OUTPUT_BUCKETS, 1)).astype(np.int64)
    network = Network(np.zeros((INPUTS, HIDDEN), dtype=np.int64), np.full(HIDDEN, QA, dtype=np.int64), w2,
                      np.zeros(OUTPUT_BUCKETS, dtype=np.int64))
    position = Position("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    assert evaluate(position.tab, position.bb, position.st, evaluation_array(network)) > 10 * MATE_BOUND
    searcher = Searcher(hash_mb=4)
    searcher.set_evaluation(network)
    for depth in (1, 4):
        searcher.clear()
        result = searcher.search(position, SearchLimits(depth=depth))
        assert not result.is_mate and abs(result.score) < MATE_BOUND, (depth, result.score)
        assert result.best_move in position.legal_moves()
