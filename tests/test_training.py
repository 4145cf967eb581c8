"""The TD trainer: each method's update against hand computation, eligibility traces, PGN reading, checkpoints and
resume, repeatability, atomic weights files."""

import json
import math
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from mpcmc_engine.data import UNBALANCED_OPENINGS
from mpcmc_engine.eval.features import N_FEATURES, PHASE_MAX
from mpcmc_engine.eval.weights import (WEIGHT_LIMIT, load_linear_weights, load_weights, material_only_weights,
                                      save_weights)
from mpcmc_engine.score_scale import LICHESS_SCALE
from mpcmc_engine.training.curve_csv import read_curve_csv, write_curve_csv
from mpcmc_engine.training.records import TrainingRecord
from mpcmc_engine.training.td.checkpoint import checkpoint_path, load_checkpoint
from mpcmc_engine.training.td.generate import SourceConfig
from mpcmc_engine.training.td.learning_curve import plot_curves
from mpcmc_engine.training.td.linear_model import float_weights, frozen_mask, integer_weights, values_and_gradients
from mpcmc_engine.training.td.pgn_games import read_pgn_games
from mpcmc_engine.training.td.probes import MatchProbe, WacProbe
from mpcmc_engine.training.td.trainer import TrainSettings, train
from mpcmc_engine.training.td.updates import eligibility_direction, game_update
from tests.processes import default_sigint

STOCKFISH = "/usr/games/stockfish"
FAKE_ENGINE = str(Path(__file__).with_name("fake_uci_engine.py"))

GAMES_PGN = """[Event "one"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "two"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "broken"]
[Result "1-0"]

1. e4 e5 2. Ke3 Nc6 1-0

[Event "three"]
[Result "1/2-1/2"]

1. d4 d5 2. c4 c6 3. Nf3 Nf6 4. Nc3 e6 1/2-1/2

[Event "unfinished"]
[Result "*"]

1. d4 *
"""


def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-x))


def synthetic_game(leaf_fixed=(np.nan, np.nan, np.nan)):
    """A 3-position game over two features (0: material pawn, 1: tempo-like), phases 24, 12, 0; white won."""
    played = np.zeros((3, N_FEATURES), dtype=np.int16)
    played[:, 1] = [0, 1, 2]
    played[:, 0] = [1, -1, 1]
    leaf = np.zeros((3, N_FEATURES), dtype=np.int16)
    leaf[:, 1] = [1, 1, 3]
    leaf[:, 0] = [0, 1, 0]
    phases = np.array([PHASE_MAX, PHASE_MAX // 2, 0])
    return TrainingRecord(played, phases, 1.0, "synthetic", leaf, phases.copy(), np.array(leaf_fixed, dtype=float))


def hand_values(vector, rows, phases):
    """[(value, {weight index: dV/du})] computed term by term."""
    out = []
    for row, phase in zip(rows, phases):
        share = phase / PHASE_MAX
        cp = sum(row[i] * (share * vector[i] + (1 - share) * vector[N_FEATURES + i]) for i in (0, 1))
        value = sigmoid(LICHESS_SCALE * cp)
        slope = value * (1 - value)
        gradient = {i: slope * share * row[i] for i in (0, 1)}
        gradient.update({N_FEATURES + i: slope * (1 - share) * row[i] for i in (0, 1)})
        out.append((value, gradient))
    return out


def hand_step(values, gradients, result, lam, alpha):
    """alpha * sum_t d_t * sum_{k<=t} lam^(t-k) grad_k, in centipawns (divided by LICHESS_SCALE)."""
    targets = values[1:] + [result]
    step = {}
    for t in range(len(values)):
        d = targets[t] - values[t]
        for k in range(t + 1):
            for index, g in gradients[k].items():
                step[index] = step.get(index, 0.0) + alpha * d * lam ** (t - k) * g / LICHESS_SCALE
    return step


def start_vector():
    vector = float_weights(material_only_weights())
    vector[1] = 40.0
    vector[N_FEATURES + 1] = 10.0
    return vector


@pytest.mark.parametrize("method", ["td-lambda", "td-leaf", "td-stem"])
def test_each_method_matches_the_hand_computed_update(method):
    record, vector, lam, alpha = synthetic_game(), start_vector(), 0.7, 0.5
    played = hand_values(vector, record.played, record.played_phase)
    leaves = hand_values(vector, record.leaf, record.leaf_phase)
    value_source = played if method == "td-lambda" else leaves
    gradient_source = leaves if method == "td-leaf" else played
    step = hand_step([v for v, _ in value_source], [g for _, g in gradient_source], 1.0, lam, alpha)
    updated, errors = game_update(method, vector, record, lam, alpha)
    expected = vector.copy()
    for index, change in step.items():
        expected[index] += change
    assert np.allclose(updated, expected, rtol=0, atol=1e-9)
    assert np.allclose(errors, [b - a for a, b in zip([v for v, _ in value_source],
                                                      [v for v, _ in value_source][1:] + [1.0])])


def test_stem_return_adds_the_pull_of_each_played_position_to_its_leaf():
    """td-stem-return's step is td-stem's plus alpha * sum_t (V(leaf_t) - V(s_t)) grad V(s_t): each played position's
    error is its leaves' lambda-return less its own value."""
    record, vector, lam, alpha = synthetic_game(), start_vector(), 0.7, 0.5
    played = hand_values(vector, record.played, record.played_phase)
    leaves = hand_values(vector, record.leaf, record.leaf_phase)
    step = hand_step([v for v, _ in leaves], [g for _, g in played], 1.0, lam, alpha)
    for (leaf_value, _), (played_value, gradient) in zip(leaves, played):
        for index, g in gradient.items():
            step[index] = step.get(index, 0.0) + alpha * (leaf_value - played_value) * g / LICHESS_SCALE
    updated, _ = game_update("td-stem-return", vector, record, lam, alpha)
    stem, _ = game_update("td-stem", vector, record, lam, alpha)
    expected = vector.copy()
    for index, change in step.items():
        expected[index] += change
    assert np.allclose(updated, expected, rtol=0, atol=1e-9)
    assert not np.allclose(updated, stem)


@pytest.mark.parametrize("method", ["td-lambda", "td-leaf", "td-stem", "td-stem-return"])
def test_frozen_block_keeps_its_weights_and_the_others_step_as_usual(method):
    """With the tempo block (feature 0, both phases) frozen, its weights stay where they were, where the same update
    without the mask moves them; every other weight takes exactly the unmasked step."""
    record, vector = synthetic_game(), start_vector()
    free, _ = game_update(method, vector, record, 0.7, 0.5)
    held, _ = game_update(method, vector, record, 0.7, 0.5, frozen=frozen_mask(["tempo"]))
    tempo = [0, N_FEATURES]
    assert np.all(free[tempo] != vector[tempo]) and np.array_equal(held[tempo], vector[tempo])
    others = np.ones(len(vector), dtype=bool)
    others[tempo] = False
    assert np.array_equal(held[others], free[others])


def test_frozen_mask_names_both_phases_and_refuses_unknown_blocks():
    mask = frozen_mask(["tempo", "material"])
    assert np.flatnonzero(mask).tolist() == [0, 1, 2, 3, 4, 5, 6] + [N_FEATURES + i for i in range(7)]
    with pytest.raises(ValueError, match="no feature block 'tempi'.*tempo, material, pst"):
        frozen_mask(["tempi"])


def test_game_ending_leaf_has_its_outcome_and_no_gradient():
    record, vector = synthetic_game(leaf_fixed=(np.nan, np.nan, 1.0)), start_vector()
    leaves = hand_values(vector, record.leaf, record.leaf_phase)
    values = [leaves[0][0], leaves[1][0], 1.0]
    gradients = [leaves[0][1], leaves[1][1], {}]
    step = hand_step(values, gradients, 1.0, 0.7, 0.5)
    updated, errors = game_update("td-leaf", vector, record, 0.7, 0.5)
    assert errors[-1] == 0.0
    assert updated[1] == pytest.approx(vector[1] + step[1], abs=1e-9)


def test_eligibility_traces_at_lambda_zero_and_one():
    rng = np.random.default_rng(0)
    values, gradients, final = rng.random(5), rng.random((5, 3)), 1.0
    direction, errors = eligibility_direction(values, gradients, final, 0.0)
    assert np.allclose(direction, (errors[:, None] * gradients).sum(axis=0))
    direction, _ = eligibility_direction(values, gradients, final, 1.0)   # TD(1): Monte Carlo, final - V_k
    assert np.allclose(direction, ((final - values)[:, None] * gradients).sum(axis=0))


def test_values_and_gradients_of_the_model():
    vector = start_vector()
    rows = synthetic_game().played
    values, gradients = values_and_gradients(vector, rows, synthetic_game().played_phase)
    for (value, gradient), got_value, got_gradient in zip(hand_values(vector, rows, [24, 12, 0]), values, gradients):
        assert got_value == pytest.approx(value)
        for index, g in gradient.items():
            assert got_gradient[index] == pytest.approx(g)


def test_malformed_pgn_games_are_skipped_with_file_and_line(tmp_path):
    path = tmp_path / "games.pgn"
    path.write_text(GAMES_PGN)
    reports = []
    games = read_pgn_games([str(path)], reports.append)
    assert [game.result for game in games] == [1.0, 0.0, 0.5]
    assert games[0].label == f"{path}:1" and games[2].label == f"{path}:16"
    assert reports[0].startswith(f"{path}:11: game skipped: illegal san")
    assert reports[1].startswith(f"{path}:21: game skipped: no game result")


def pgn_settings(tmp_path, out, games, method="td-lambda", seed=3, workers=1, source="pgn", **extra):
    path = tmp_path / "games.pgn"
    path.write_text(GAMES_PGN)
    pgn_games = tuple(read_pgn_games([str(path)], lambda line: None))
    config = SourceConfig(source, method != "td-lambda", nodes=300, epsilon=0.2, leaf_depth=1, seed=seed,
                          pgn_games=pgn_games if source == "pgn" else ())
    return TrainSettings(method, config, games, 0.7, 0.05, seed, str(tmp_path / out), workers, **extra)


def test_checkpoint_and_resume_equal_an_uninterrupted_run(tmp_path):
    whole = train(pgn_settings(tmp_path, "whole.json", 24, method="td-leaf", checkpoint_every=8),
                  material_only_weights(), log=lambda text: None)
    train(pgn_settings(tmp_path, "parts.json", 16, method="td-leaf", checkpoint_every=8), material_only_weights())
    assert checkpoint_path(tmp_path / "parts.json").exists()
    resumed = train(pgn_settings(tmp_path, "parts.json", 24, method="td-leaf", checkpoint_every=8),
                    material_only_weights(), resume=True, log=lambda text: None)
    assert np.array_equal(whole.mg, resumed.mg) and np.array_equal(whole.eg, resumed.eg)
    assert not np.array_equal(whole.mg, material_only_weights().mg)


def test_averaged_weights_are_the_mean_after_each_averaged_game(tmp_path):
    quiet = {"log": lambda text: None}
    train(pgn_settings(tmp_path, "a.json", 11, method="td-leaf"), material_only_weights(), **quiet)
    train(pgn_settings(tmp_path, "b.json", 12, method="td-leaf"), material_only_weights(), **quiet)
    after_11 = load_checkpoint(checkpoint_path(tmp_path / "a.json"), pgn_settings(tmp_path, "a.json", 11,
                                                                                  method="td-leaf").fixed()).vector
    after_12 = load_checkpoint(checkpoint_path(tmp_path / "b.json"), pgn_settings(tmp_path, "b.json", 12,
                                                                                  method="td-leaf").fixed()).vector
    averaged = train(pgn_settings(tmp_path, "m.json", 12, method="td-leaf", average_after=10), material_only_weights(),
                     **quiet)
    expected = integer_weights((after_11 + after_12) / 2, "")
    assert np.array_equal(averaged.mg, expected.mg) and np.array_equal(averaged.eg, expected.eg)
    assert not np.array_equal(averaged.mg, integer_weights(after_12, "").mg)
    whole = train(pgn_settings(tmp_path, "w.json", 24, method="td-leaf", average_after=10, checkpoint_every=16),
                  material_only_weights(), **quiet)
    train(pgn_settings(tmp_path, "p.json", 16, method="td-leaf", average_after=10, checkpoint_every=16),
          material_only_weights(), **quiet)
    resumed = train(pgn_settings(tmp_path, "p.json", 24, method="td-leaf", average_after=10, checkpoint_every=16),
                    material_only_weights(), resume=True, **quiet)
    assert np.array_equal(whole.mg, resumed.mg) and np.array_equal(whole.eg, resumed.eg)


def test_resume_with_other_settings_is_refused(tmp_path):
    train(pgn_settings(tmp_path, "w.json", 8, checkpoint_every=8), material_only_weights())
    with pytest.raises(ValueError, match="other settings"):
        train(pgn_settings(tmp_path, "w.json", 16, seed=4, checkpoint_every=8), material_only_weights(), resume=True)


def test_selfplay_runs_repeat_with_the_same_seed(tmp_path):
    first = train(pgn_settings(tmp_path, "a.json", 2, method="td-stem", source="selfplay"), material_only_weights())
    again = train(pgn_settings(tmp_path, "b.json", 2, method="td-stem", source="selfplay"), material_only_weights())
    other = train(pgn_settings(tmp_path, "c.json", 2, method="td-stem", source="selfplay", seed=9),
                  material_only_weights())
    assert np.array_equal(first.mg, again.mg) and np.array_equal(first.eg, again.eg)
    assert not (np.array_equal(first.mg, other.mg) and np.array_equal(first.eg, other.eg))


@pytest.mark.skipif(not os.path.exists(STOCKFISH), reason="no Stockfish to be the mentor")
def test_mentor_games_train(tmp_path):
    settings = pgn_settings(tmp_path, "m.json", 1, method="td-stem", source="selfplay")
    settings.source = SourceConfig("mentor", True, nodes=500, leaf_depth=1, mentor=STOCKFISH, seed=3)
    weights = train(settings, material_only_weights())
    assert not np.array_equal(weights.eg, material_only_weights().eg)


def test_weights_file_is_written_atomically_and_loads(tmp_path):
    weights = train(pgn_settings(tmp_path, "w.json", 8), material_only_weights())
    loaded = load_weights(tmp_path / "w.json")
    assert np.array_equal(loaded.mg, weights.mg) and "mpcmc-engine train" in loaded.provenance
    assert not [name for name in os.listdir(tmp_path) if name.endswith(".tmp")]


def test_a_diverging_run_writes_weights_within_the_bound_the_engine_loads(tmp_path):
    settings = pgn_settings(tmp_path, "wild.json", 8)
    settings.alpha = 1e7  # a step of millions of centipawns
    train(settings, material_only_weights(), log=lambda text: None)
    loaded = load_weights(tmp_path / "wild.json")
    assert max(np.abs(loaded.mg).max(), np.abs(loaded.eg).max()) == WEIGHT_LIMIT


@pytest.mark.slow
def test_parallel_workers_give_the_same_weights(tmp_path):
    one = train(pgn_settings(tmp_path, "one.json", 16, method="td-leaf"), material_only_weights())
    two = train(pgn_settings(tmp_path, "two.json", 16, method="td-leaf", workers=2), material_only_weights())
    assert np.array_equal(one.mg, two.mg) and np.array_equal(one.eg, two.eg)


def test_match_probe_scores_equal_weights_even_and_trained_weights_higher():
    probe = MatchProbe(material_only_weights(), UNBALANCED_OPENINGS, games=12, nodes=600, seed=1)
    even = probe.measure(material_only_weights())
    assert even["match_games"] == 12 and even["score"] == 0.5 and even["elo"] == 0.0
    trained = probe.measure(load_linear_weights())
    # the interval brackets the estimate; a clean sweep has both at +inf
    assert trained["score"] > 0.6 and trained["elo_low"] < trained["elo"] <= trained["elo_high"]


def test_wac_probe_counts_the_positions_solved(tmp_path):
    suite = tmp_path / "suite.epd"
    suite.write_text("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id \"mate\";\n"
                     "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm h3; id \"not the mate\";\n"
                     "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - am Ra8#; id \"avoid the mate\";\n")
    assert WacProbe(suite, count=3, nodes=2000).measure(material_only_weights()) == {"wac_solved": 1, "wac_total": 3}
    assert WacProbe(suite, count=1, nodes=2000).measure(material_only_weights()) == {"wac_solved": 1, "wac_total": 1}


def test_curve_csv_round_trips_and_both_measures_plot(tmp_path):
    match_rows = [{"games": 0, "score": 0.5, "elo": 0.0, "elo_low": -30.5, "elo_high": 30.5, "match_games": 200,
                   "mean_abs_td": 0.0},
                  {"games": 250, "score": 1.0, "elo": math.inf, "elo_low": 410.0, "elo_high": math.inf,
                   "match_games": 200, "mean_abs_td": 0.02}]
    wac_rows = [{"games": 0, "wac_solved": 80, "wac_total": 100, "mean_abs_td": 0.0}]
    write_curve_csv(match_rows, tmp_path / "match.csv")
    write_curve_csv(wac_rows, tmp_path / "wac.csv")
    assert read_curve_csv(tmp_path / "match.csv") == match_rows
    assert read_curve_csv(tmp_path / "wac.csv") == wac_rows
    plot_curves({"match": match_rows, "wac": wac_rows}, tmp_path / "curves.png")
    assert (tmp_path / "curves.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def train_command(out, *arguments) -> list:
    """argv of `mpcmc-engine train ... --out OUT`."""
    return [sys.executable, "-m", "mpcmc_engine", "train", *arguments, "--out", str(out)]


def test_ctrl_c_writes_a_checkpoint_and_resume_gives_the_uninterrupted_weights(tmp_path, engine_env):
    games = tmp_path / "games.pgn"
    games.write_text(GAMES_PGN)
    # enough games that the interrupt lands mid-run: the reader below lags the run by up to a pipe buffer of progress
    arguments = ["--method", "td-leaf", "--source", "pgn", "--pgn", str(games), "--games", "4000"]
    whole = subprocess.run(train_command(tmp_path / "whole.json", *arguments), env=engine_env, capture_output=True,
                           text=True, timeout=600)
    assert whole.returncode == 0, whole.stderr
    out = tmp_path / "parts.json"
    process = subprocess.Popen(train_command(out, *arguments), env=engine_env, stderr=subprocess.PIPE,
                               preexec_fn=default_sigint)
    try:
        progress = b""
        while not (done := re.findall(rb"(\d+)/4000", progress)) or int(done[-1]) < 16:
            character = process.stderr.read(1)
            assert character, f"the run ended before it could be interrupted: {progress[-300:]!r}"
            progress += character
        process.send_signal(signal.SIGINT)  # what Ctrl-C in a terminal sends
        error = process.communicate(timeout=60)[1].decode()
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 130 and "interrupted" in error and "--resume" in error, error[-500:]
    interrupted_at = json.loads(checkpoint_path(out).read_text())["games_done"]
    assert 16 <= interrupted_at < 4000 and not out.exists()
    resumed = subprocess.run(train_command(out, *arguments, "--resume"), env=engine_env, capture_output=True,
                             text=True, timeout=600)
    assert resumed.returncode == 0 and f"after {interrupted_at} games" in resumed.stdout, resumed.stderr
    first, second = load_weights(tmp_path / "whole.json"), load_weights(out)
    assert np.array_equal(first.mg, second.mg) and np.array_equal(first.eg, second.eg)


@pytest.mark.parametrize("mode, workers, reason", [
    ("hang", 1, "mentor game 1: TimeoutError: no move within 2.000 s"),
    ("crash", 2, "mentor game 1: EngineTerminatedError"),
])
def test_a_mentor_that_hangs_or_dies_mid_move_stops_the_run_with_the_reason(tmp_path, engine_env, mode, workers,
                                                                             reason):
    pids = tmp_path / "mentor.pids"
    mentor = shlex.join([sys.executable, FAKE_ENGINE, mode, "6"])
    out = tmp_path / "w.json"
    began = time.monotonic()
    finished = subprocess.run(train_command(out, "--method", "td-lambda", "--source", "mentor", "--mentor", mentor,
                                            "--mentor-timeout", "2", "--games", "4", "--workers", str(workers)),
                              env={**engine_env, "FAKE_UCI_PID_FILE": str(pids)}, capture_output=True, text=True,
                              timeout=300)
    print(f"stopped after {time.monotonic() - began:.1f} s")
    assert finished.returncode == 1, finished.stderr[-2000:]
    assert reason in finished.stderr and "--resume" in finished.stderr, finished.stderr[-2000:]
    assert json.loads(checkpoint_path(out).read_text())["games_done"] == 0
    started = [int(pid) for pid in pids.read_text().split()]
    assert len(started) >= 2 and not [pid for pid in started if os.path.exists(f"/proc/{pid}")]


def test_train_refuses_start_weights_with_huge_integers(tmp_path, engine_env):
    init = tmp_path / "huge.json"
    save_weights(material_only_weights(), init)
    data = json.loads(init.read_text())
    data["eg"][9] = -10 ** 40
    init.write_text(json.dumps(data))
    finished = subprocess.run(train_command(tmp_path / "w.json", "--method", "td-lambda", "--source", "selfplay",
                                            "--games", "2", "--init", str(init)),
                              env=engine_env, capture_output=True, text=True, timeout=300)
    assert finished.returncode == 2
    assert f"weights file {init}: 'eg'[9] is -10000000000" in finished.stderr and "outside the bound" in finished.stderr


def test_train_command_writes_a_match_learning_curve(tmp_path, engine_env):
    games = tmp_path / "games.pgn"
    games.write_text(GAMES_PGN)
    out = tmp_path / "w.json"
    completed = subprocess.run(
        [sys.executable, "-m", "mpcmc_engine", "train", "--method", "td-leaf", "--source", "pgn", "--pgn", str(games),
         "--games", "6", "--nodes", "300", "--curve", str(tmp_path / "curve.png"), "--curve-every", "3",
         "--curve-games", "4", "--curve-nodes", "300", "--curve-openings", str(UNBALANCED_OPENINGS),
         "--out", str(out)], capture_output=True, text=True, env=engine_env, timeout=600)
    assert completed.returncode == 0, completed.stderr
    rows = read_curve_csv(tmp_path / "curve.csv")
    assert [row["games"] for row in rows] == [0, 3, 6] and rows[0]["elo"] == 0.0
    assert all(row["match_games"] == 4 and 0.0 <= row["score"] <= 1.0 for row in rows)
    assert (tmp_path / "curve.png").exists() and load_weights(out).provenance.startswith("mpcmc-engine train")
