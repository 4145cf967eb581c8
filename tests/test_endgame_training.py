"""Training on KRK / KQK: the endgame source's repeatable starts and games played to their end by the rules, TD-Leaf
and TD-Stem on it with checkpoint and resume, the staged driver (endgame-train), and the refusal of bad arguments."""

import json
import random
import subprocess
import sys

import chess
import numpy as np
import pytest

from mpcmc_engine.bitboard.constants import ROOK
from mpcmc_engine.eval.eval_file import load_evaluation
from mpcmc_engine.eval.features import F_TEMPO, material_index
from mpcmc_engine.match.openings import Opening
from mpcmc_engine.search.limits import SearchLimits
from mpcmc_engine.search.searcher import Searcher
from mpcmc_engine.training.endgame.stages import Stage, StagedRun, StudySettings, parse_stages, run_stages
from mpcmc_engine.training.endgame.study import wilson_interval
from mpcmc_engine.training.endgame_table import dtm, random_won_start
from mpcmc_engine.training.play import MAX_PLIES, selfplay_record
from mpcmc_engine.training.records import RecordBuilder
from mpcmc_engine.training.td.checkpoint import checkpoint_path
from mpcmc_engine.training.td.generate import GameGenerator, SourceConfig
from mpcmc_engine.training.td.trainer import TrainSettings, train

ROOK_FEATURE = material_index(ROOK)   # white's rooks minus black's


@pytest.fixture(scope="module")
def linear():
    return load_evaluation("<linear>")


def endgame_config(ending="krk", nodes=300, with_leaves=True):
    return SourceConfig("endgame", with_leaves, nodes=nodes, epsilon=0.05, ending=ending)


def test_won_starts_repeat_with_the_seed_and_are_won_for_the_strong_side():
    """The same seed draws the same positions; each is won for the side with the rook (either side to move, both
    colours occurring), and another seed draws others."""
    first = [random_won_start(chess.ROOK, random.Random(seed)).fen() for seed in range(30)]
    again = [random_won_start(chess.ROOK, random.Random(seed)).fen() for seed in range(30)]
    other = [random_won_start(chess.ROOK, random.Random(seed + 100)).fen() for seed in range(30)]
    assert first == again and first != other
    boards = [chess.Board(fen) for fen in first]
    for board in boards:
        strong = chess.WHITE if board.pieces(chess.ROOK, chess.WHITE) else chess.BLACK
        assert len(board.piece_map()) == 3 and (dtm(board) > 0) == (board.turn == strong) and dtm(board) != 0
    assert {board.turn for board in boards} == {chess.WHITE, chess.BLACK}
    assert {bool(board.pieces(chess.ROOK, chess.WHITE)) for board in boards} == {True, False}


def test_endgame_games_repeat_with_the_seed_and_only_the_strong_side_wins(linear):
    """Game records of the endgame source depend only on (index, seed); every game is of the ending (a rook on its
    first row), no longer than the ply cap, and a decisive result goes to the side with the rook."""
    generator = GameGenerator(endgame_config())
    records = [generator.record(index, 1000 + index, linear) for index in range(12)]
    again = GameGenerator(endgame_config()).record(3, 1003, linear)
    assert np.array_equal(again.played, records[3].played) and np.array_equal(again.leaf, records[3].leaf)
    assert again.result == records[3].result
    assert not np.array_equal(generator.record(3, 77, linear).played, records[3].played)
    decisive = 0
    for record in records:
        rook = record.played[0, ROOK_FEATURE]
        assert abs(rook) == 1 and 1 <= len(record.played) <= MAX_PLIES
        if record.result != 0.5:
            decisive += 1
            assert (record.result == 1.0) == (rook > 0)
    assert decisive > 0


@pytest.mark.parametrize("fen, result, plies", [
    ("6k1/8/6K1/8/8/8/8/R7 w - - 0 1", 1.0, 1),       # Ra8#: white mates and wins
    ("r7/8/8/8/8/6k1/8/6K1 b - - 0 1", 0.0, 1),       # Ra1#: black mates and wins
    ("7k/8/8/8/8/8/1r6/K7 w - - 0 1", 0.5, 1),        # Kxb2: K v K, drawn
])
def test_games_without_adjudication_end_by_the_rules(linear, fen, result, plies):
    """With adjudication off a game is played to its end by the rules: the mating side gets the win, a capture that
    leaves K v K draws."""
    searcher = Searcher(hash_mb=8, threads=1)
    searcher.set_evaluation(linear)
    record = selfplay_record(Opening(fen), (searcher, searcher), SearchLimits(nodes=2000), 0.0, random.Random(1),
                             RecordBuilder(True), "test", adjudication_cp=None)
    assert (record.result, len(record.played)) == (result, plies)


@pytest.mark.parametrize("method", ["td-leaf", "td-stem"])
def test_krk_training_changes_the_weights_and_resumes_exactly(tmp_path, linear, method):
    """A short TD run on KRK moves the weights; stopping at 8 games and resuming to 16 gives the weights of the
    uninterrupted 16-game run."""
    def settings(out, games):
        return TrainSettings(method, endgame_config(), games, 0.8, 0.05, 5, str(tmp_path / out), checkpoint_every=8)
    quiet = {"log": lambda text: None}
    whole = train(settings("whole.json", 16), linear, **quiet)
    train(settings("parts.json", 8), linear, **quiet)
    resumed = train(settings("parts.json", 16), linear, resume=True, **quiet)
    assert np.array_equal(whole.mg, resumed.mg) and np.array_equal(whole.eg, resumed.eg)
    assert not (np.array_equal(whole.mg, linear.mg) and np.array_equal(whole.eg, linear.eg))


def test_staged_run_measures_each_stage_and_a_rerun_reuses_its_results(tmp_path, linear):
    """Two stages: three curve rows (before training, after each), games counted cumulatively, WCR inside its
    interval; running the same staged run again trains and measures nothing new and gives the same rows."""
    run = StagedRun("td-stem", "kqk", (Stage(8, 0.05, 0.8, 200), Stage(8, 0.02, 0.7, 300)), 0.05, 1,
                    str(tmp_path / "run"), checkpoint_every=8)
    study = StudySettings(games=3, nodes=300, seed=2, max_plies=80)
    logged: list = []
    rows = run_stages(run, linear, study, log=logged.append)
    assert [row["stage"] for row in rows] == [0, 1, 2] and [row["games"] for row in rows] == [0, 8, 16]
    assert all(row["wcr_low"] <= row["wcr"] <= row["wcr_high"] and row["attacking"] == 3 for row in rows)
    assert checkpoint_path(tmp_path / "run" / "td-stem-kqk-stage2.json").exists()
    logged.clear()
    again = run_stages(run, linear, study, log=logged.append)
    assert json.dumps(again) == json.dumps(rows) and not any("WCR" in line for line in logged)  # NaN-safe equality


def test_staged_run_with_a_frozen_block_keeps_its_weights(tmp_path, linear):
    """--freeze tempo: the stage's weights keep the start's tempo weights while the others move."""
    run = StagedRun("td-stem", "krk", (Stage(8, 0.05, 0.8, 200),), 0.05, 1, str(tmp_path / "run"),
                    checkpoint_every=8, frozen=("tempo",))
    run_stages(run, linear, StudySettings(games=1, nodes=200, seed=2, max_plies=40), log=lambda text: None)
    trained = load_evaluation(str(tmp_path / "run" / "td-stem-krk-stage1.json"))
    assert (trained.mg[F_TEMPO], trained.eg[F_TEMPO]) == (linear.mg[F_TEMPO], linear.eg[F_TEMPO])
    assert not np.array_equal(trained.eg, linear.eg)


def test_fixed_depth_stage_plays_depth_limited_games_with_its_own_epsilon(tmp_path, linear):
    """A stage `d1` with epsilon 1: self-play moves searched to depth 1 (a node count otherwise), and the row records
    the depth and the stage's epsilon."""
    assert SourceConfig("endgame", True, nodes=0, ending="kqk", depth=1).move_limits() == SearchLimits(depth=1)
    assert SourceConfig("endgame", True, nodes=300, ending="kqk").move_limits() == SearchLimits(nodes=300)
    run = StagedRun("td-leaf", "kqk", (Stage(4, 0.05, 0.5, 0, depth=1, epsilon=1.0),), 0.05, 1, str(tmp_path / "run"),
                    checkpoint_every=4)
    rows = run_stages(run, linear, StudySettings(games=1, nodes=200, seed=2, max_plies=40), log=lambda text: None)
    assert (rows[1]["depth"], rows[1]["nodes"], rows[1]["epsilon"]) == (1, 0, 1.0) and rows[0]["depth"] == 0


def test_stages_spec_parsing():
    assert parse_stages("400:0.02:0.9:500, 200:0.01:0.7:1000") == (Stage(400, 0.02, 0.9, 500),
                                                                   Stage(200, 0.01, 0.7, 1000))
    assert parse_stages("500:0.01:0.5:d3:0.6") == (Stage(500, 0.01, 0.5, 0, depth=3, epsilon=0.6),)
    for bad, reason in [("400:0.02:0.9", "stage 1"), ("400:0.02:0.9:500,x:0.1:0.5:10", "stage 2"),
                        ("400:0.02:1.5:500", "LAMBDA"), ("0:0.02:0.5:500", "GAMES"), ("", "stage 1"),
                        ("10:0.02:0.5:d0", "dDEPTH"), ("10:0.02:0.5:dx", "stage 1"), ("10:0.02:0.5:d2:1.5", "EPSILON"),
                        ("10:0.02:0.5:100:0.1:2", "stage 1")]:
        with pytest.raises(ValueError, match=reason):
            parse_stages(bad)


def test_wilson_interval():
    """Known values: 85 of 100 -> [0.767, 0.907]; 0 of 10 -> [0, 0.278]."""
    assert wilson_interval(85, 100) == pytest.approx((0.7672, 0.9069), abs=1e-4)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)


@pytest.mark.parametrize("arguments, message", [
    (["train", "--method", "td-leaf", "--source", "endgame", "--ending", "kbk"], "--ending krk or kqk"),
    (["train", "--method", "td-leaf", "--source", "endgame"], "--source endgame needs --ending"),
    (["train", "--method", "td-leaf", "--source", "endgame", "--ending", "krk", "--openings", "book.epd"],
     "--openings has no use with --source endgame"),
    (["train", "--method", "td-stem", "--source", "endgame", "--ending", "krk", "--freeze", "tempo,tempi"],
     "--freeze: no feature block 'tempi'"),
    (["endgame-train", "--method", "td-stem", "--ending", "kbk", "--stages", "10:0.01:0.7:100"],
     "--ending must be one of krk, kqk"),
    (["endgame-train", "--method", "td-stem", "--ending", "krk", "--stages", "10:0.01:0.7"],
     "--stages: stage 1 '10:0.01:0.7' is not GAMES:ALPHA:LAMBDA:NODES"),
    (["endgame-train", "--method", "td-stem", "--ending", "krk", "--stages", "10:0.01:0.7:100", "--freeze", "tempi"],
     "--freeze: no feature block 'tempi'"),
    (["endgame-train", "--method", "td-stem", "--ending", "krk", "--stages", "10:0.01:0.7:100", "--freeze", "tempo",
      "--init", "<network>"], "only the linear weights have feature blocks to freeze"),
])
def test_bad_arguments_exit_2_with_the_reason(tmp_path, engine_env, arguments, message):
    command = [sys.executable, "-m", "mpcmc_engine", *arguments, "--games" if arguments[0] == "train" else "--dir",
               "4" if arguments[0] == "train" else str(tmp_path / "run")]
    if arguments[0] == "train":
        command += ["--out", str(tmp_path / "w.json")]
    finished = subprocess.run(command, env=engine_env, capture_output=True, text=True, timeout=120)
    assert finished.returncode == 2 and message in finished.stderr and "Traceback" not in finished.stderr
    assert not (tmp_path / "w.json").exists() and not (tmp_path / "run").exists()
