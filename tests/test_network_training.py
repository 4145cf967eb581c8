"""The network trainer: gradients against finite differences, the float model against the engine's integer network,
learning, checkpoint and resume, generation of labelled positions, and the commands' error paths."""

import dataclasses
import json
import random
import signal
import subprocess
import sys
import time

import chess
import numpy as np
import pytest

from mpcmc_engine.bitboard.constants import KIND_EN_PASSANT, KIND_PROMOTION, ST_BOARD
from mpcmc_engine.bitboard.moves import move_kind
from mpcmc_engine.bitboard.position import Position
from mpcmc_engine.eval.evaluate import evaluate, evaluation_array
from mpcmc_engine.eval.network import (
    ACTIVATION_CODES, ACTIVATIONS, FORMAT, HIDDEN, OUTPUT_SCALE, QA, QB, SHIPPED_NETWORK_PATH, Network, load_network,
    save_network,
)
from mpcmc_engine.eval.network_features import MAX_PIECES, OUTPUT_BUCKETS, output_bucket
from mpcmc_engine.training.td.checkpoint import checkpoint_path, load_checkpoint
from mpcmc_engine.training.network_model import (
    LOGISTIC, OUTPUT_WIDTH, V_B1, V_B2, V_W1, V_W2, active_inputs, dequantize, initial_vector,
    loss_and_gradient, network_outputs, network_row_of, network_values_and_gradients, output_gradients, quantize,
    widened,
)
from mpcmc_engine.training.network.trainer import (
    NetworkTrainSettings, TrainerCheckpoint, checkpoint_file, save_trainer_checkpoint, split, train_network,
)
from mpcmc_engine.training.network.position_data import Positions, load_positions, write_chunk
from mpcmc_engine.training.network.position_generation import GenerationSettings, generate_positions
from mpcmc_engine.training.network.relabelling import board_of, position_of
from mpcmc_engine.training.records import TrainingRecord
from mpcmc_engine.training.td.trainer import train
from mpcmc_engine.training.td.updates import NETWORK, game_update
from tests.processes import default_sigint, live_children, wait_gone
from tests.test_eval import random_boards
from tests.test_training import pgn_settings


def random_positions(count, seed=1):
    """Positions of random games (mailboxes, sides) with made-up scores and results."""
    boards, sides = [], []
    for board in random_boards(count, seed):
        position = Position(board.fen())
        boards.append(position.st[ST_BOARD:ST_BOARD + 64].astype(np.uint8))
        sides.append(0 if board.turn == chess.WHITE else 1)
    generator = np.random.default_rng(seed)
    boards_array = np.array(boards, dtype=np.uint8)
    material = np.array([(np.isin(b, [1]).sum() - np.isin(b, [9]).sum()) * 100 for b in boards_array])
    scores = np.where(np.array(sides) == 0, material, -material) + generator.integers(-30, 30, count)
    return Positions(boards_array, np.array(sides, dtype=np.uint8), scores.astype(np.int16),
                     np.sign(scores).astype(np.int8))


def bucket_of(row):
    """The output bucket of a position's inputs row (its side to move's view has an input for every piece)."""
    return output_bucket(int(np.count_nonzero(row[:MAX_PIECES] >= 0)))


def output_slots(row):
    """(index of b2, index of the first output weight) in the vector for the output bucket of an inputs row."""
    bucket = bucket_of(row)
    return V_B2 + bucket, V_W2 + bucket * OUTPUT_WIDTH


def varied_vector(seed):
    """initial_vector(seed) with every bucket's output layer made different."""
    vector = initial_vector(seed)
    rng = np.random.default_rng(seed)
    vector[V_W2:] += rng.normal(0.0, 0.05, len(vector) - V_W2).astype(np.float32)
    return vector


@pytest.mark.parametrize("activation", ACTIVATIONS)
def test_minibatch_gradient_against_finite_differences(activation):
    code = ACTIVATION_CODES[activation]
    positions = random_positions(12)
    inputs = active_inputs(positions.board, positions.side)
    targets = np.linspace(0.1, 0.9, 12).astype(np.float32)
    vector = varied_vector(3)
    rows = np.arange(12, dtype=np.int64)
    gradient = np.zeros_like(vector)
    loss_and_gradient(vector, inputs, targets, rows, gradient, code)
    first_row = V_W1 + int(inputs[0, 0]) * HIDDEN
    b2, w2 = output_slots(inputs[0])
    used = {bucket_of(row) for row in inputs}
    assert len(used) > 1, "the positions span several output buckets"
    for bucket in range(OUTPUT_BUCKETS):
        layer = gradient[V_W2 + bucket * OUTPUT_WIDTH:V_W2 + (bucket + 1) * OUTPUT_WIDTH]
        assert np.any(layer != 0) == (bucket in used) and (gradient[V_B2 + bucket] != 0) == (bucket in used)
    for index in [b2, w2 + 3, w2 + 200, V_B1 + 5, first_row + 7, first_row + 100]:
        shifted = []
        for step in (5e-4, -5e-4):  # small enough to cross no clipping point of the activations
            probe = vector.copy()
            probe[index] += step
            shifted.append(loss_and_gradient(probe, inputs, targets, rows, np.zeros_like(vector), code))
        numeric = (shifted[0] - shifted[1]) / 1e-3
        assert numeric == pytest.approx(gradient[index], rel=0.05, abs=1e-6), index


@pytest.mark.parametrize("activation", ACTIVATIONS)
def test_output_gradients_against_finite_differences(activation):
    code = ACTIVATION_CODES[activation]
    positions = random_positions(3, seed=2)
    inputs = active_inputs(positions.board, positions.side)
    vector = varied_vector(4)
    gradients = np.zeros((3, len(vector)), dtype=np.float32)
    output_gradients(gradients, vector, inputs, code)
    b2, w2 = output_slots(inputs[1])
    for index in [b2, w2 + 10, V_B1 + 20, V_W1 + int(inputs[1, 3]) * HIDDEN + 9]:
        probe = vector.copy()
        probe[index] += 1e-2
        numeric = (network_outputs(probe, inputs, code) - network_outputs(vector, inputs, code)) / 1e-2
        assert numeric == pytest.approx(gradients[:, index], rel=0.05, abs=1e-4), index


@pytest.mark.parametrize("activation", ACTIVATIONS)
def test_the_float_model_and_the_engine_agree(activation):
    """The quantized network in the engine scores what the float model computes, up to rounding, in every output
    bucket the positions reach, with either activation."""
    vector = varied_vector(5)
    network = quantize(vector, "test", activation)
    params = evaluation_array(network)
    positions = random_positions(30, seed=3)
    outputs = network_outputs(dequantize(network), active_inputs(positions.board, positions.side),
                              ACTIVATION_CODES[activation])
    for i in range(30):
        position = Position(board_of(positions.board[i], positions.side[i]).fen())
        assert evaluate(position.tab, position.bb, position.st, params) == pytest.approx(
            OUTPUT_SCALE * outputs[i], abs=2)


def test_a_finer_output_scale_scores_nearer_the_float_network():
    """The same float network written at the trainer's qb (512 for clipped ReLU) and at the older 64: the engine's
    scores at 512 stay nearer the float model's (the rounding of 512 output weights adds up at 64)."""
    vector = varied_vector(6)
    positions = random_positions(40, seed=4)
    exact = OUTPUT_SCALE * network_outputs(vector, active_inputs(positions.board, positions.side),
                                           ACTIVATION_CODES["crelu"])
    boards = [Position(board_of(positions.board[i], positions.side[i]).fen()) for i in range(40)]
    errors = {}
    for qb in (64, 512):
        network = quantize(vector, "test", "crelu", qb)
        assert network.qb == qb and quantize(vector, "test").qb == 512
        params = evaluation_array(network)
        errors[qb] = np.mean([abs(evaluate(board.tab, board.bb, board.st, params) - exact[i])
                              for i, board in enumerate(boards)])
    assert errors[512] < errors[64] / 2, errors


def narrow_network(hidden, seed):
    """A random network of `hidden` units (fewer than the engine's)."""
    rng = np.random.default_rng(seed)
    return Network(rng.integers(-60, 60, (768, hidden)), rng.integers(-40, 120, hidden),
                   rng.integers(-127, 128, (OUTPUT_BUCKETS, 2 * hidden)), rng.integers(-5000, 5000, OUTPUT_BUCKETS),
                   "narrow")


def zero_padded(network):
    """`network` with HIDDEN units, the added ones all zero: by construction it scores as `network` does."""
    hidden = len(network.b1)
    pad = HIDDEN - hidden
    w2 = np.asarray(network.w2)
    zeros = np.zeros((OUTPUT_BUCKETS, pad), int)
    return Network(np.pad(network.w1, ((0, 0), (0, pad))), np.pad(network.b1, (0, pad)),
                   np.concatenate([w2[:, :hidden], zeros, w2[:, hidden:], zeros], axis=1), network.b2)


def test_a_widened_network_scores_as_the_narrow_one_and_trains_its_new_units():
    narrow = narrow_network(HIDDEN // 4, seed=4)
    wide = widened(narrow, seed=1)
    assert wide.w1.shape == (768, HIDDEN) and len(wide.b1) == HIDDEN and wide.w2.shape == (OUTPUT_BUCKETS, 2 * HIDDEN)
    assert np.any(wide.w1[:, HIDDEN // 4:] != 0), "the added units have input weights to learn with"
    reference, params = evaluation_array(zero_padded(narrow)), evaluation_array(wide)
    positions = random_positions(40, seed=9)
    for i in range(40):
        position = Position(board_of(positions.board[i], positions.side[i]).fen())
        assert evaluate(position.tab, position.bb, position.st, params) == evaluate(
            position.tab, position.bb, position.st, reference)
    gradient = np.zeros_like(dequantize(wide))
    inputs = active_inputs(positions.board, positions.side)
    targets = np.full(40, 0.9, dtype=np.float32)
    loss_and_gradient(dequantize(wide), inputs, targets, np.arange(40), gradient, ACTIVATION_CODES["crelu"])
    layers = gradient[V_W2:V_B2].reshape(OUTPUT_BUCKETS, OUTPUT_WIDTH)
    assert np.any(layers[:, HIDDEN // 4:HIDDEN] != 0), "the added units' output weights learn"


def test_a_version_1_network_is_read_by_the_trainer_with_its_output_layer_in_every_bucket(tmp_path):
    """A file of the layout before output buckets (version 1: one output layer, b2 an integer) is refused by the
    engine's loader, naming the conversion, and read by the trainer's (`older`) with that layer in every bucket."""
    narrow = narrow_network(HIDDEN // 2, seed=3)
    path = tmp_path / "v1.json"
    path.write_text(json.dumps({
        "format": FORMAT, "version": 1, "inputs": 768, "hidden": HIDDEN // 2, "qa": QA, "qb": QB,
        "output_scale": OUTPUT_SCALE, "w1": narrow.w1.reshape(-1).tolist(), "b1": narrow.b1.tolist(),
        "w2": narrow.w2[0].tolist(), "b2": int(narrow.b2[0]), "provenance": "v1"}))
    with pytest.raises(ValueError, match="converts a version-1 network"):
        load_network(path)
    read = load_network(path, older=True)
    assert np.array_equal(read.w1, narrow.w1) and np.array_equal(read.b1, narrow.b1)
    assert np.array_equal(read.w2, np.tile(narrow.w2[0], (OUTPUT_BUCKETS, 1)))
    assert np.array_equal(read.b2, np.full(OUTPUT_BUCKETS, narrow.b2[0])) and read.provenance == "v1"


def test_the_validation_share_holds_out_whole_chunks(tmp_path):
    """Positions read from chunk files are held out chunk by chunk (so no game is on both sides), the share of the
    chunks drawn by the seed, at least one chunk of several; positions without chunk numbers are held out singly."""
    for index in range(10):
        write_chunk(tmp_path, index, random_positions(20 + index, seed=index))
    positions = load_positions(tmp_path)
    assert list(np.bincount(positions.chunk)) == [20 + index for index in range(10)]
    for share, chunks in [(0.2, 2), (0.02, 1), (0.0, 0)]:
        training, validation = split(positions, share, seed=3)
        held = set(positions.chunk[validation])
        assert len(held) == chunks and not held & set(positions.chunk[training])
        assert sorted(np.concatenate([training, validation])) == list(range(len(positions)))
    assert set(positions.chunk[split(positions, 0.2, seed=4)[1]]) != set(positions.chunk[split(positions, 0.2, 3)[1]])
    loose = random_positions(100, seed=1)
    assert len(split(loose, 0.1, seed=3)[1]) == 10


def test_training_lowers_the_loss_and_resume_gives_the_same_network(tmp_path):
    positions = random_positions(400, seed=4)
    settings = NetworkTrainSettings(epochs=4, batch_size=64, lr=0.003, result_weight=0.3, validation=0.1, seed=7)
    whole = tmp_path / "whole.json"
    state = train_network(positions, settings, initial_vector(7), whole, "test")
    assert state.curve[-1]["train_loss"] < state.curve[0]["train_loss"]
    partial = tmp_path / "made" / "partial.json"  # its directory is made by the first checkpoint

    class StopTrainingError(Exception):
        pass

    def stop_after_two(curve):
        if len(curve) == 2:
            raise StopTrainingError

    with pytest.raises(StopTrainingError):
        train_network(positions, settings, initial_vector(7), partial, "test", on_epoch=stop_after_two)
    assert checkpoint_file(partial).exists() and not partial.exists()
    resumed = train_network(positions, settings, initial_vector(99), partial, "test", resume=True)
    assert np.array_equal(resumed.vector, state.vector) and resumed.curve == state.curve
    assert np.array_equal(load_network(partial).w1, load_network(whole).w1)
    other = NetworkTrainSettings(epochs=5, batch_size=64, lr=0.003, result_weight=0.3, validation=0.1, seed=7)
    with pytest.raises(ValueError, match="written with settings"):
        train_network(positions, other, initial_vector(7), partial, "test", resume=True)


def test_a_checkpoint_from_before_the_activation_and_qb_resumes_with_their_defaults(tmp_path):
    """A checkpoint whose settings lack the fields added since (activation, qb) resumes a run with their defaults and
    is refused by a run that sets them otherwise."""
    positions = random_positions(40, seed=5)
    settings = NetworkTrainSettings(epochs=2, batch_size=16, lr=0.003, result_weight=0.3, validation=0.1, seed=7)
    out = tmp_path / "n.json"
    vector = initial_vector(7)

    kept = [field.name for field in dataclasses.fields(NetworkTrainSettings) if field.name not in ("activation", "qb")]
    older = dataclasses.make_dataclass("OlderSettings", kept)(**{name: getattr(settings, name) for name in kept})
    save_trainer_checkpoint(TrainerCheckpoint(vector, np.zeros_like(vector), np.zeros_like(vector), 0, 1, [{}]),
                            older, out)
    assert train_network(positions, settings, vector, out, "test", resume=True).epochs_done == 2
    save_trainer_checkpoint(TrainerCheckpoint(vector, np.zeros_like(vector), np.zeros_like(vector), 0, 1, [{}]),
                            older, out)
    with pytest.raises(ValueError, match="written with settings"):
        train_network(positions, dataclasses.replace(settings, qb=64), vector, out, "test", resume=True)


def test_resume_refuses_a_damaged_or_foreign_checkpoint(tmp_path):
    positions = random_positions(40, seed=5)
    settings = NetworkTrainSettings(epochs=1, batch_size=16, lr=0.003, result_weight=0.3, validation=0.1, seed=7)
    out = tmp_path / "n.json"
    checkpoint_file(out).write_bytes(b"PK\x03\x04 truncated")
    with pytest.raises(ValueError, match="cannot be read"):
        train_network(positions, settings, initial_vector(7), out, "test", resume=True)
    small = np.zeros(10, dtype=np.float32)
    save_trainer_checkpoint(TrainerCheckpoint(small, small, small, 1, 0, []), settings, out)
    with pytest.raises(ValueError, match="do not hold the"):
        train_network(positions, settings, initial_vector(7), out, "test", resume=True)


def test_generated_positions_are_quiet_labelled_and_resumable(tmp_path):
    settings = GenerationSettings(str(tmp_path / "data"), games=2, games_per_chunk=1, nodes=300, epsilon=0.0,
                                  openings="", seed=3)
    generate_positions(settings, 1, lambda games, kept: None)
    positions = load_positions(tmp_path / "data")
    assert len(positions) > 10
    with np.load(tmp_path / "data" / "chunk-00000.npz") as game:  # one game: one result, seen from both sides
        white = game["result"][game["side"] == 0]
        black = game["result"][game["side"] == 1]
        assert set(white) == {white[0]} and set(black) == {-white[0]} and white[0] in (-1, 0, 1)
    quiet = positions.quiet_only()
    assert 0 < len(quiet) < len(positions)  # every position is kept, flagged
    for i in range(len(quiet)):  # the side to move of a quiet position is never in check, its best move quiet
        board = board_of(quiet.board[i], quiet.side[i])
        assert not board.is_check()
    for i in range(len(positions)):  # every best move is legal (the row has no en passant square), quiet if flagged
        position = position_of(positions.board[i], int(positions.side[i]))
        move = int(positions.move[i])
        if move_kind(move) == KIND_EN_PASSANT:
            assert not positions.quiet[i]
            continue
        assert move in position.legal_moves()
        tactical = position.to_board().is_capture(chess.Move.from_uci(position.uci(move))) \
            or move_kind(move) == KIND_PROMOTION
        assert not (positions.quiet[i] and tactical)
    first = (tmp_path / "data" / "chunk-00000.npz").stat().st_mtime_ns
    generate_positions(settings, 1, lambda games, kept: pytest.fail("nothing is missing"))
    assert (tmp_path / "data" / "chunk-00000.npz").stat().st_mtime_ns == first


def run_command(*words, env):
    return subprocess.run([sys.executable, "-m", "mpcmc_engine", *words], capture_output=True, text=True, env=env,
                          timeout=300)


def test_train_network_command_errors_and_a_run(tmp_path, engine_env):
    missing = run_command("train-network", "--data", str(tmp_path / "none"), "--out", str(tmp_path / "n.json"),
                          env=engine_env)
    assert missing.returncode == 2 and "no chunk-*.npz" in missing.stderr and "Traceback" not in missing.stderr
    data = tmp_path / "data"
    write_chunk(data, 0, random_positions(100, seed=6))
    bad_init = tmp_path / "bad.json"
    bad_init.write_text("[]")
    refused = run_command("train-network", "--data", str(data), "--out", str(tmp_path / "n.json"), "--init",
                          str(bad_init), env=engine_env)
    assert refused.returncode == 2 and str(bad_init) in refused.stderr
    save_network(narrow_network(HIDDEN // 2, seed=2), tmp_path / "narrow.json")
    engine = subprocess.run([sys.executable, "-m", "mpcmc_engine"], capture_output=True, text=True, env=engine_env,
                            input=f"setoption name EvalFile value {tmp_path / 'narrow.json'}\nisready\nquit\n",
                            timeout=60)
    assert f"'hidden' is {HIDDEN // 2}" in engine.stdout and "widens" in engine.stdout and "readyok" in engine.stdout
    wide = run_command("train-network", "--data", str(data), "--out", str(tmp_path / "wide.json"), "--init",
                       str(tmp_path / "narrow.json"), "--epochs", "1", "--batch-size", "32", env=engine_env)
    assert wide.returncode == 0, wide.stderr
    assert load_network(tmp_path / "wide.json").w1.shape == (768, HIDDEN)
    squared = run_command("train-network", "--data", str(data), "--out", str(tmp_path / "screlu.json"), "--init",
                          str(tmp_path / "wide.json"), "--activation", "screlu", "--epochs", "1", "--batch-size", "32",
                          env=engine_env)
    assert squared.returncode == 0, squared.stderr
    squared_network = load_network(tmp_path / "screlu.json")
    assert squared_network.activation == "screlu" and squared_network.qb == 64
    assert load_network(tmp_path / "wide.json").qb == 512, "a clipped-ReLU network is written at qb 512"
    coarse = run_command("train-network", "--data", str(data), "--out", str(tmp_path / "coarse.json"), "--init",
                         str(tmp_path / "wide.json"), "--qb", "64", "--epochs", "1", "--batch-size", "32",
                         env=engine_env)
    assert coarse.returncode == 0 and load_network(tmp_path / "coarse.json").qb == 64, coarse.stderr
    too_fine = run_command("train-network", "--data", str(data), "--out", str(tmp_path / "fine.json"), "--qb", "20000",
                           env=engine_env)
    assert too_fine.returncode == 2 and "--qb within 1 to 16384" in too_fine.stderr
    kept = run_command("train-network", "--data", str(data), "--out", str(tmp_path / "kept.json"), "--init",
                       str(tmp_path / "screlu.json"), "--epochs", "1", "--batch-size", "32", env=engine_env)
    assert kept.returncode == 0 and load_network(tmp_path / "kept.json").activation == "screlu", kept.stderr
    td = run_command("train", "--method", "td-leaf", "--source", "selfplay", "--games", "1", "--out",
                     str(tmp_path / "td.json"), "--init", str(tmp_path / "screlu.json"), env=engine_env)
    assert td.returncode == 2 and "clipped-ReLU networks" in td.stderr and "Traceback" not in td.stderr
    (data / "chunk-00001.npz").write_bytes(b"not a chunk")
    broken = run_command("train-network", "--data", str(data), "--out", str(tmp_path / "n.json"), env=engine_env)
    assert broken.returncode == 2 and "chunk-00001.npz" in broken.stderr
    (data / "chunk-00001.npz").unlink()
    done = run_command("train-network", "--data", str(data), "--out", str(tmp_path / "n.json"), "--epochs", "2",
                       "--batch-size", "32", "--curve", str(tmp_path / "curve.png"), env=engine_env)
    assert done.returncode == 0, done.stderr
    assert load_network(tmp_path / "n.json").provenance.startswith("mpcmc-engine train-network --data")
    assert (tmp_path / "curve.png").stat().st_size > 0 and (tmp_path / "curve.csv").read_text().count("\n") == 3
    checkpoint_file(tmp_path / "n.json").write_bytes(b"PK\x03\x04 truncated")
    damaged = run_command("train-network", "--data", str(data), "--out", str(tmp_path / "n.json"), "--epochs", "2",
                          "--batch-size", "32", "--resume", env=engine_env)
    assert damaged.returncode == 2 and "n.json.checkpoint.npz: cannot be read" in damaged.stderr
    assert "Traceback" not in damaged.stderr


def test_the_logistic_matches_the_trainers_scale():
    assert LOGISTIC == pytest.approx(0.00368208 * OUTPUT_SCALE)


def network_game_record(plies=6, seed=8):
    """A TrainingRecord of network rows: the positions of a random game, with the positions two plies later as
    leaves (standing in for PV leaves), white won."""
    rng = random.Random(seed)
    board = chess.Board()
    positions = []
    for _ in range(plies + 2):
        positions.append(Position(board.fen()))
        board.push(rng.choice(list(board.legal_moves)))
    rows = [network_row_of(position) for position in positions]
    played, leaves = rows[:plies], rows[2:plies + 2]
    return TrainingRecord(np.array([r for r, _ in played]), np.array([s for _, s in played]), 1.0, "test",
                          np.array([r for r, _ in leaves]), np.array([s for _, s in leaves]),
                          np.full(plies, np.nan))


@pytest.mark.parametrize("method", ["td-lambda", "td-leaf", "td-stem"])
def test_each_td_method_on_the_network_against_finite_differences(method):
    """game_update's step on the network equals alpha * sum_t d_t sum_k lambda^(t-k) grad V_k with every gradient
    taken by finite differences, on coordinates of each parameter block."""
    record, vector, lam, alpha = network_game_record(), initial_vector(9), 0.7, 0.5
    value_rows = (record.played, record.played_phase) if method == "td-lambda" else (record.leaf, record.leaf_phase)
    gradient_rows = (record.leaf, record.leaf_phase) if method == "td-leaf" else (record.played, record.played_phase)
    values, _ = network_values_and_gradients(vector, *value_rows)
    differences = np.append(values[1:], record.result) - values
    updated, errors = game_update(method, vector, record, lam, alpha, NETWORK)
    assert np.allclose(errors, differences)
    active = int(record.played[0][0])
    b2, w2 = output_slots(record.played[0])
    for index in [b2, w2 + 5, w2 + HIDDEN + 9, V_B1 + 17, V_W1 + active * HIDDEN + 3]:
        shifted = []
        for step in (1e-2, -1e-2):
            probe = vector.copy()
            probe[index] += step
            shifted.append(network_values_and_gradients(probe, *gradient_rows)[0])
        gradient = (shifted[0] - shifted[1]) / 2e-2
        expected = alpha * sum(differences[t] * sum(lam ** (t - k) * gradient[k] for k in range(t + 1))
                               for t in range(len(differences)))
        assert updated[index] - vector[index] == pytest.approx(expected, rel=0.05, abs=1e-7), index


def test_gen_positions_refuses_an_unusable_evaluation_file(tmp_path, engine_env):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    refused = run_command("gen-positions", "--out", str(tmp_path / "data"), "--games", "1", "--eval-file", str(bad),
                          env=engine_env)
    assert refused.returncode == 2 and str(bad) in refused.stderr and "Traceback" not in refused.stderr
    assert not (tmp_path / "data").exists()


def test_a_chunk_with_values_out_of_range_or_truncated_is_refused(tmp_path):
    good = random_positions(10, seed=11)
    for name, broken in [("piece", Positions(np.where(good.board == 0, 15, good.board).astype(np.uint8), good.side,
                                             good.score, good.result)),
                         ("side", Positions(good.board, np.full(10, 2, dtype=np.uint8), good.score, good.result))]:
        folder = tmp_path / name
        write_chunk(folder, 0, broken)
        with pytest.raises(ValueError, match="out of range") as error:
            load_positions(folder)
        assert "chunk-00000.npz" in str(error.value)
    folder = tmp_path / "truncated"
    write_chunk(folder, 0, good)
    path = folder / "chunk-00000.npz"
    path.write_bytes(path.read_bytes()[:200])
    with pytest.raises(ValueError, match="cannot be read"):
        load_positions(folder)


def test_the_td_trainer_learns_the_network_and_resumes_exactly(tmp_path):
    """`train` started from a network learns the network (TD-Leaf on PGN games here, with averaging): it writes a
    network file, the float network moved, and a run stopped at a checkpoint and resumed ends where an uninterrupted
    run does."""
    initial = load_network(SHIPPED_NETWORK_PATH)

    def run(out, games, resume=False):
        settings = pgn_settings(tmp_path, out, games, method="td-leaf", checkpoint_every=8, average_after=4,
                                model="network")
        return train(settings, initial, resume=resume, log=lambda text: None), settings

    whole, settings = run("whole.json", 12)
    run("parts.json", 8)
    resumed, _ = run("parts.json", 12, resume=True)
    assert isinstance(whole, Network) and load_network(tmp_path / "whole.json").provenance.startswith(
        "mpcmc-engine train --method td-leaf")
    vectors = [load_checkpoint(checkpoint_path(tmp_path / out), settings.fixed()) for out in ("whole.json",
                                                                                              "parts.json")]
    assert np.array_equal(vectors[0].vector, vectors[1].vector)
    assert np.array_equal(vectors[0].average_sum, vectors[1].average_sum)
    assert np.array_equal(whole.w1, resumed.w1) and np.array_equal(whole.w2, resumed.w2)
    assert np.array_equal(whole.b2, resumed.b2)
    assert not np.array_equal(vectors[0].vector, dequantize(initial))
    with pytest.raises(ValueError, match="not of the trained kind"):
        train(pgn_settings(tmp_path, "x.json", 2, model="linear"), initial)


def test_train_command_trains_the_shipped_network_by_self_play(tmp_path, engine_env):
    """`mpcmc-engine train --init <network>` plays self-play games with the network and writes a network; a
    checkpoint of the network is refused, with the reason, when resumed as the linear weights."""
    out = tmp_path / "net.json"
    words = ["train", "--method", "td-stem", "--source", "selfplay", "--games", "2", "--nodes", "200", "--out",
             str(out)]
    done = run_command(*words, "--init", "<network>", env=engine_env)
    assert done.returncode == 0 and f"network evaluation written to {out}" in done.stdout, done.stderr[-2000:]
    assert load_network(out).provenance.startswith("mpcmc-engine train --method td-stem")
    refused = run_command(*words, "--resume", env=engine_env)
    assert refused.returncode == 2 and "another format, model or feature layout" in refused.stderr, refused.stderr



def wait_for_a_chunk(run, data, seconds=120) -> None:
    """Wait until the gen-positions process `run` has written a chunk into `data`; fail when it ends first or none
    comes within `seconds`."""
    deadline = time.monotonic() + seconds
    while not list(data.glob("chunk-*.npz")):
        assert run.poll() is None and time.monotonic() < deadline, "no chunk was written"
        time.sleep(0.1)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")
def test_gen_positions_workers_end_when_the_command_is_killed(tmp_path, engine_env):
    """A gen-positions run killed outright (SIGKILL: no cleanup) leaves none of its worker processes playing on."""
    run = subprocess.Popen([sys.executable, "-m", "mpcmc_engine", "gen-positions", "--out", str(tmp_path / "data"),
                            "--games", "400", "--games-per-chunk", "2", "--nodes", "200", "--workers", "2"],
                           env=engine_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_a_chunk(run, tmp_path / "data")   # the workers are past their initialiser
        workers = live_children(run.pid)
        assert len(workers) >= 2, f"expected the 2 workers among the children, found {workers}"
    finally:
        run.kill()
        run.wait()
    running = wait_gone(workers, 30)   # a worker still starting ends when it reaches its initialiser
    assert running == [], f"workers {running} still running after the command was killed"


@pytest.mark.parametrize("stop_signal", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_gen_positions_interrupted_keeps_its_chunks_and_resumes(tmp_path, engine_env, stop_signal):
    """Ctrl-C (SIGINT) or SIGTERM (sent to the command alone, not to its workers) during a gen-positions run with 2
    workers: the command says it finishes the chunks begun, ends with status 130 and no traceback, every chunk file it
    leaves is whole, and the same command then generates only the missing chunks."""
    data = tmp_path / "data"
    command = [sys.executable, "-m", "mpcmc_engine", "gen-positions", "--out", str(data), "--games", "60",
               "--games-per-chunk", "2", "--nodes", "200", "--workers", "2"]
    run = subprocess.Popen(command, env=engine_env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           preexec_fn=default_sigint)
    try:
        wait_for_a_chunk(run, data)
        run.send_signal(stop_signal)
        error = run.communicate(timeout=120)[1]
    finally:
        run.kill()
        run.wait()
    assert run.returncode == 130, error[-1000:]
    assert "interrupted; finishing the chunks" in error and "the same command generates the missing ones" in error
    assert "Traceback" not in error, error[-1000:]
    kept = {path: path.stat().st_mtime_ns for path in data.glob("chunk-*.npz")}
    assert 1 <= len(kept) < 30 and len(load_positions(data)) > 0
    resumed = subprocess.run(command, env=engine_env, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr[-1000:]
    assert len(list(data.glob("chunk-*.npz"))) == 30
    assert all(path.stat().st_mtime_ns == written for path, written in kept.items())


WORKER_STARTING_SCRIPT = '''
import multiprocessing, time
from mpcmc_engine.uci_process import end_worker_with_parent

def worker():
    time.sleep(2)                # still starting when its parent is killed
    end_worker_with_parent()
    time.sleep(60)

if __name__ == "__main__":
    child = multiprocessing.get_context("spawn").Process(target=worker)
    child.start()
    print(child.pid, flush=True)
    time.sleep(60)
'''


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")
def test_a_worker_whose_parent_was_killed_while_it_started_ends(tmp_path, engine_env):
    """A spawned worker whose parent is killed before its initialiser asks for the parent-death signal ends when it
    reaches end_worker_with_parent (the signal is never sent for a death that came first)."""
    script = tmp_path / "parent.py"
    script.write_text(WORKER_STARTING_SCRIPT)
    parent = subprocess.Popen([sys.executable, str(script)], env=engine_env, stdout=subprocess.PIPE, text=True)
    try:
        worker = int(parent.stdout.readline())
    finally:
        parent.kill()
        parent.wait()
    assert wait_gone([worker], 0.5) == [worker], "the worker ended with its parent before it asked to"
    assert wait_gone([worker], 15) == [], f"worker {worker} still running after its parent was killed"
