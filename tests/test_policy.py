"""The move policy of `SearchAlgorithm mcts`: its file (round trip, refusals naming the file), a move's weight
indices worked out by hand and colour-symmetric, the priors against a numpy computation of the documented formula
(hidden vector kept incrementally equal to one from scratch), the trainer (gradient against finite differences,
loss lowered, resume), the examples and the train-policy command on generated chunks, the shipped policy reading the
shipped network, and over UCI: PolicyFile loaded, refused with `info string error` and the state kept."""

import re
import subprocess
import sys

import chess
import numpy as np
import pytest

from mpcmc_engine.bitboard.constants import KING, ST_SIDE
from mpcmc_engine.bitboard.position import Position
from mpcmc_engine.eval.eval_file import load_default_evaluation
from mpcmc_engine.eval.evaluate import KIND_NETWORK
from mpcmc_engine.eval.network_eval import PLY_SLOTS, network_array, record_move
from mpcmc_engine.eval.policy import (
    CAPTURE_B, FEATURES, FROM_B, FROM_W, PARAMETERS, SHIPPED_POLICY_PATH, SQUARE_INDICES, TO_B, TO_W, Policy,
    VERSION, load_policy, network_digest, save_policy,
)
from mpcmc_engine.eval.policy_eval import INDEX_BITS, INDEX_MASK, hidden_at, hidden_from_scratch, move_indices
from mpcmc_engine.search.policy_moves import (
    CLASS_CHECKS, CLASS_ESCAPES, CLASS_LOSES_MATERIAL, move_class, policy_logits, policy_move,
)
from mpcmc_engine.training.network.position_data import Positions, chunk_path, load_positions, write_chunk
from mpcmc_engine.training.network.position_generation import GenerationSettings, generate_positions
from mpcmc_engine.training.policy.examples import concatenated_examples, policy_examples
from mpcmc_engine.training.policy.trainer import (
    PolicyTrainSettings, loss_and_agreement, loss_and_gradient, train_policy,
)
from tests.test_eval import random_boards
from tests.test_uci_protocol import legal_bestmove

MIDDLEGAME = "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14"
MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"  # Rd8#


def unpack(packed: int) -> tuple:
    return packed & INDEX_MASK, (packed >> INDEX_BITS) & INDEX_MASK, packed >> (2 * INDEX_BITS)


def indices_of(fen: str, uci: str, tactical_class: int = 0) -> tuple:
    position = Position(fen)
    move = position.parse_uci(uci)
    return unpack(int(move_indices(position.bb, position.st, int(position.st[ST_SIDE]), move, tactical_class)))


def class_of(fen: str, uci: str) -> int:
    position = Position(fen)
    return int(move_class(position.tab, position.bb, position.st, position.parse_uci(uci)))


def random_policy(seed=1, scale=0.05) -> np.ndarray:
    return np.random.default_rng(seed).normal(0.0, scale, PARAMETERS).astype(np.float32)


@pytest.fixture(scope="module")
def network():
    return load_default_evaluation()


# --- the file -------------------------------------------------------------------------------------------------------
def test_policy_file_round_trip_and_refusals(tmp_path):
    policy = Policy(random_policy(), "0123456789abcdef", "made by a test")
    path = tmp_path / "p.npz"
    save_policy(policy, path)
    again = load_policy(path)
    assert np.array_equal(again.weights, policy.weights) and again.network == policy.network
    assert again.provenance == "made by a test"
    good = {"format": np.array("mpcmc-engine policy"), "version": np.array(VERSION), "network": np.array("x"),
            "weights": policy.weights}
    bad = {
        "format": {**good, "format": np.array("something else")},
        "version": {**good, "version": np.array(7)},
        "expected float32": {**good, "weights": policy.weights[:10]},
        "not finite": {**good, "weights": np.full(PARAMETERS, np.nan, dtype=np.float32)},
        "no 'network'": {name: value for name, value in good.items() if name != "network"},
    }
    for reason, fields in bad.items():
        broken = tmp_path / f"{reason.replace(' ', '_')}.npz"
        np.savez(broken, **fields)
        with pytest.raises(ValueError, match=reason) as raised:
            load_policy(broken)
        assert str(broken) in str(raised.value)
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(path.read_bytes()[:200])
    with pytest.raises(ValueError, match=f"policy file {truncated}: cannot be read"):
        load_policy(truncated)


def test_the_shipped_policy_reads_the_shipped_network(network):
    assert load_policy(SHIPPED_POLICY_PATH).network == network_digest(network)


# --- the model ------------------------------------------------------------------------------------------------------
def test_move_indices_worked_out_by_hand():
    # castling short: the king put down on g1 (type 5, square 6), from e1; nothing captured; tactical class 3
    assert indices_of("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", 3) == (5 * 64 + 6, 5 * 64 + 4,
                                                                           (5 * 6 + 0) * 8 + 3)
    # black castles long: seen from black's side (vertical mirror), its king (e8 -> e1) on files e-h, so no
    # horizontal mirror: the king put down on c8 ^ 56 = 2
    assert indices_of("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8") == (5 * 64 + 2, 5 * 64 + 4, (5 * 6 + 0) * 8)
    # a pawn takes a knight and becomes a queen: the queen (type 4) put down on b8 (57), the pawn from a7 (48)
    assert indices_of("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8q") == (4 * 64 + 57, 0 * 64 + 48, (0 * 6 + 2) * 8)
    # en passant takes a pawn (kind 1); the white king on d1 mirrors files: e5 (36) -> d5 (35), d6 (43) -> e6 (44)
    assert indices_of("4k3/8/8/3pP3/8/8/8/3K4 w - d6 0 1", "e5d6") == (0 * 64 + 44, 0 * 64 + 35, (0 * 6 + 1) * 8)


def test_tactical_classes():
    # the queen takes a pawn defended by a pawn: the exchange loses material
    assert class_of("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1", "d2d5") == CLASS_LOSES_MATERIAL
    # a rook move that checks along the file
    assert class_of("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8") == CLASS_CHECKS
    # a knight attacked by a pawn steps away to a safe square
    assert class_of("4k3/8/8/3p4/4N3/8/8/4K3 w - - 0 1", "e4g3") == CLASS_ESCAPES
    # a quiet king move
    assert class_of("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1d1") == 0


def test_move_indices_are_colour_symmetric():
    for board in random_boards(20, seed=4):
        mirrored = board.mirror()
        position, other = Position(board.fen()), Position(mirrored.fen())
        ours = sorted(int(policy_move(position.tab, position.bb, position.st, move))
                      for move in position.legal_moves())
        theirs = sorted(int(policy_move(other.tab, other.bb, other.st, move)) for move in other.legal_moves())
        assert ours == theirs


def numpy_logits(policy: np.ndarray, h: np.ndarray, packed: list) -> np.ndarray:
    """The documented formula, computed apart from the numba code."""
    to_w = policy[TO_W:FROM_W].reshape(SQUARE_INDICES, FEATURES).astype(np.float64)
    from_w = policy[FROM_W:TO_B].reshape(SQUARE_INDICES, FEATURES).astype(np.float64)
    logits = []
    for value in packed:
        to_index, from_index, capture = unpack(value)
        logits.append(to_w[to_index] @ h + policy[TO_B + to_index] + from_w[from_index] @ h
                      + policy[FROM_B + from_index] + policy[CAPTURE_B + capture])
    return np.array(logits)


def test_logits_follow_the_formula_and_the_incremental_hidden_vector(network):
    params = network_array(network, KIND_NETWORK)
    policy = random_policy(2)
    rng = np.random.default_rng(3)
    board = chess.Board()
    position = Position()
    work = np.zeros(PLY_SLOTS * 64, dtype=np.int64)
    from mpcmc_engine.eval.network_eval import refresh_root
    refresh_root(position.bb, position.st, params, work, 0)
    for ply in range(40):
        moves = position.legal_moves()
        if not moves:
            break
        h_incremental = np.zeros(FEATURES, dtype=np.float32)
        h_scratch = np.zeros(FEATURES, dtype=np.float32)
        hidden_at(position.bb, position.st, params, work, 0, ply, h_incremental)
        hidden_from_scratch(position.bb, position.st, params, h_scratch)
        assert np.array_equal(h_incremental, h_scratch)
        assert h_scratch.min() >= 0 and h_scratch.max() <= 1 and h_scratch.any()
        logits = np.zeros(len(moves), dtype=np.float32)
        policy_logits(position.tab, position.bb, position.st, policy, h_scratch, np.array(moves, dtype=np.int64), 0,
                      len(moves), logits)
        packed = [int(policy_move(position.tab, position.bb, position.st, move)) for move in moves]
        assert np.allclose(logits, numpy_logits(policy, h_scratch.astype(np.float64), packed), atol=1e-4)
        move = moves[int(rng.integers(len(moves)))]
        record_move(position.st, work, 0, ply, move)
        board.push_uci(position.uci(move))
        position.push(move)
    assert position.bb[KING] and board.ply() > 10


# --- the trainer ----------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def examples(network):
    """Examples from random positions, each with a random legal move as the 'searched' one."""
    boards, sides, moves = [], [], []
    rng = np.random.default_rng(5)
    for board in random_boards(60, seed=6):
        position = Position(board.fen())
        legal = position.legal_moves()
        if not legal or board.ep_square is not None or board.castling_rights:
            continue
        boards.append(position.st[80:144].astype(np.uint8))
        sides.append(int(position.st[ST_SIDE]))
        moves.append(legal[int(rng.integers(len(legal)))])
    n = len(boards)
    positions = Positions(np.array(boards, dtype=np.uint8), np.array(sides, dtype=np.uint8),
                          np.zeros(n, dtype=np.int16), np.zeros(n, dtype=np.int8), np.array(moves, dtype=np.uint16),
                          np.ones(n, dtype=np.uint8), np.arange(n, dtype=np.int32) % 5)
    return policy_examples(positions, network)


def test_gradient_against_finite_differences(examples):
    policy = random_policy(7, 0.2)
    rows = np.arange(len(examples), dtype=np.int64)
    arrays = (examples.hidden, examples.moves_start, examples.packed, examples.target)
    gradient = np.zeros(PARAMETERS, dtype=np.float32)
    loss = loss_and_gradient(policy, *arrays, rows, gradient)
    assert abs(loss - loss_and_agreement(policy, *arrays, rows)[0]) < 1e-4
    to_index, from_index, capture = unpack(int(examples.packed[examples.moves_start[0] + examples.target[0]]))
    probes = [TO_W + to_index * FEATURES + int(np.argmax(examples.hidden[0])), FROM_B + from_index,
              CAPTURE_B + capture, TO_B + to_index]
    for index in probes:
        shifted = policy.astype(np.float64)
        step = 1e-2
        values = []
        for sign in (1, -1):
            probe = policy.copy()
            probe[index] = shifted[index] + sign * step
            values.append(loss_and_agreement(probe, *arrays, rows)[0])
        numeric = (values[0] - values[1]) / (2 * step)
        assert abs(numeric - gradient[index]) < 2e-3 + 0.02 * abs(numeric), index


def test_training_lowers_the_loss_and_resumes_to_the_same_policy(examples, tmp_path, network):
    settings = PolicyTrainSettings(epochs=4, batch_size=8, lr=0.01, validation=0.0, seed=1)
    digest = network_digest(network)
    whole = train_policy(examples, settings, digest, tmp_path / "whole.npz", "test")
    assert whole.curve[-1]["train_loss"] < whole.curve[0]["train_loss"]
    half = PolicyTrainSettings(epochs=2, batch_size=8, lr=0.01, validation=0.0, seed=1)
    train_policy(examples, half, digest, tmp_path / "resumed.npz", "test")
    # the checkpoint of the two-epoch run, continued with the four-epoch settings, is refused (other settings) ...
    with pytest.raises(ValueError, match="settings"):
        train_policy(examples, settings, digest, tmp_path / "resumed.npz", "test", resume=True)
    # ... so interrupt a four-epoch run after two epochs instead
    class StopError(Exception):
        pass

    def stop_after_two(curve):
        if len(curve) == 2:
            raise StopError

    with pytest.raises(StopError):
        train_policy(examples, settings, digest, tmp_path / "cut.npz", "test", on_epoch=stop_after_two)
    train_policy(examples, settings, digest, tmp_path / "cut.npz", "test", resume=True)
    assert np.array_equal(load_policy(tmp_path / "cut.npz").weights, load_policy(tmp_path / "whole.npz").weights)
    assert load_policy(tmp_path / "whole.npz").network == digest


def test_concatenated_examples_keep_each_positions_moves(examples):
    halves = [policy_examples_slice(examples, 0, 10), policy_examples_slice(examples, 10, len(examples))]
    joined = concatenated_examples(halves)
    for name in ("hidden", "moves_start", "packed", "target", "chunk"):
        assert np.array_equal(getattr(joined, name), getattr(examples, name)), name


def policy_examples_slice(examples, first, last):
    """Examples first..last-1 as their own PolicyExamples."""
    from mpcmc_engine.training.policy.example_set import PolicyExamples
    start, end = examples.moves_start[first], examples.moves_start[last]
    return PolicyExamples(examples.hidden[first:last], examples.moves_start[first:last + 1] - start,
                          examples.packed[start:end], examples.target[first:last], examples.chunk[first:last])


# --- the command on generated chunks ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    data = tmp_path_factory.mktemp("chunks")
    generate_positions(GenerationSettings(str(data), games=2, games_per_chunk=1, nodes=200, epsilon=0.0, openings="",
                                          seed=9), 1, lambda games, kept: None)
    return data


def run_command(*words, env):
    return subprocess.run([sys.executable, "-m", "mpcmc_engine", *words], capture_output=True, text=True, env=env,
                          timeout=600)


def test_train_policy_command_and_its_errors(generated, tmp_path, engine_env, network):
    positions = load_positions(generated)
    examples = policy_examples(positions, network)
    assert len(examples) >= len(positions) - 2  # every best move is legal in its row (but en passant ones)
    out = tmp_path / "policy.npz"
    done = run_command("train-policy", "--data", str(generated), "--out", str(out), "--epochs", "2", "--workers", "2",
                       "--validation", "0.5", "--curve", str(tmp_path / "curve.png"), env=engine_env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"{len(examples)} examples from 2 chunks" in done.stdout and "validation top-1" in done.stdout
    assert load_policy(out).network == network_digest(network) and (tmp_path / "curve.csv").exists()
    assert "train-policy" in load_policy(out).provenance
    linear = run_command("train-policy", "--data", str(generated), "--out", str(out), "--eval-file", "<linear>",
                         env=engine_env)
    assert linear.returncode == 2 and "no hidden layer" in linear.stderr and "Traceback" not in linear.stderr
    old = tmp_path / "old"
    chunk = load_positions(generated)
    write_chunk(old, 0, Positions(chunk.board, chunk.side, chunk.score, chunk.result))  # no best moves
    none = run_command("train-policy", "--data", str(old), "--out", str(out), env=engine_env)
    assert none.returncode == 2 and "has a best move" in none.stderr
    assert chunk_path(old, 0).exists()


def test_a_chunk_of_the_first_format_reads_as_quiet_positions_without_moves(generated, tmp_path):
    positions = load_positions(generated)
    np.savez_compressed(tmp_path / "chunk-00000.npz", board=positions.board, side=positions.side,
                        score=positions.score, result=positions.result)
    old = load_positions(tmp_path)
    assert np.array_equal(old.board, positions.board) and old.quiet.all() and not old.move.any()


# --- over UCI -------------------------------------------------------------------------------------------------------
def searched(engine, fen: str, nodes: int) -> list:
    """The lines of a fresh game's `go nodes` from `fen`, up to bestmove."""
    engine.send("ucinewgame", f"position fen {fen}", f"go nodes {nodes}")
    return engine.read_until("bestmove", timeout=60)


def untimed(lines: list) -> list:
    """The lines without their clock-dependent fields (time, nps)."""
    return [re.sub(r" (time|nps) \d+", "", line) for line in lines]


def test_policy_file_over_uci(raw_engine, tmp_path):
    """PolicyFile takes a policy file, <none> or <policy>; each lets mcts play a legal move; a policy of another
    network is accepted (mcts then scores moves as without one); a corrupt file is refused with `info string error`
    naming it and the policy in use stays: the same search as before it."""
    engine = raw_engine()
    engine.send("uci")
    assert "option name PolicyFile type string default <none>" in engine.read_until("uciok")
    other = tmp_path / "other-network.npz"
    save_policy(Policy(random_policy(), "not-this-network"), other)
    engine.send("setoption name SearchAlgorithm value mcts")
    for name in (str(other), "<none>", "<policy>"):
        engine.send(f"setoption name PolicyFile value {name}")
        legal_bestmove(searched(engine, MIDDLEGAME, 500), chess.Board(MIDDLEGAME))
    before = searched(engine, MIDDLEGAME, 400)
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"not a policy")
    engine.send(f"setoption name PolicyFile value {broken}", "isready")
    errors = [line for line in engine.read_until("readyok") if line.startswith("info string error")]
    assert len(errors) == 1 and str(broken) in errors[0], errors
    after = searched(engine, MIDDLEGAME, 400)
    assert untimed(after[-2:]) == untimed(before[-2:])  # the final line and bestmove (reports between are timed)
    mate = searched(engine, MATE_IN_ONE, 200)
    assert mate[-1].startswith("bestmove d1d8") and any("score mate 1 " in line for line in mate), mate
