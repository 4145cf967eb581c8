"""MPC-MC through the engine's UCI interface: options, decisions with real sub-engines, faults, no orphans."""

import os
import shlex
import signal
import sys
import time
from pathlib import Path

import chess
import chess.engine
import pytest

from tests.processes import live_children, wait_gone

STOCKFISH = "/usr/games/stockfish"
FAKE = str(Path(__file__).with_name("fake_uci_engine.py"))
SCHOLARS_MATE = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
needs_stockfish = pytest.mark.skipif(not os.path.exists(STOCKFISH), reason="Stockfish not installed at /usr/games")


def test_plain_mode_declares_no_mpcmc_options(engine_command, engine_env):
    engine = chess.engine.SimpleEngine.popen_uci(engine_command + ["--plain"], timeout=120, env=engine_env)
    try:
        assert not [name for name in engine.options if "MPCMC" in name]
    finally:
        engine.quit()


def test_mpcmc_options_are_declared_with_standard_types(engine):
    for name in ("MPCMC", "MPCMC_Evaluator", "MPCMC_Opponent", "MPCMC_Workers", "MPCMC_Fortify",
                 "MPCMC_EvalLimit", "MPCMC_OpponentLimit", "MPCMC_TwoStepKeep", "MPCMC_TwoStepRank",
                 "MPCMC_EvaluatorOptions", "MPCMC_OpponentOptions", "MPCMC_EvaluatorHash", "MPCMC_Candidates",
                 "MPCMC_PlainShare", "MPCMC_MinCallMs", "UCI_ShowMPCMC"):
        assert name in engine.options
    assert engine.options["MPCMC"].default == "off"
    assert set(engine.options["MPCMC"].var) == {"off", "half", "one", "two"}
    assert engine.options["MPCMC_EvaluatorHash"].default == "fresh"
    assert set(engine.options["MPCMC_EvaluatorHash"].var) == {"fresh", "keep"}
    assert engine.options["MPCMC_TwoStepRank"].default == "evaluator"  # the cells played so far ranked so
    assert set(engine.options["MPCMC_TwoStepRank"].var) == {"evaluator", "opponent"}
    assert engine.options["MPCMC_Candidates"].default == 0  # every legal move: the paper's exact first step


@needs_stockfish
@pytest.mark.parametrize("mode", ["half", "one", "two"])
def test_stockfish_sub_engines_find_mate_in_one(open_engine, mode):
    engine = open_engine()
    engine.configure({"MPCMC": mode, "MPCMC_Evaluator": STOCKFISH, "MPCMC_Opponent": STOCKFISH,
                      "MPCMC_EvalLimit": "2000 nodes", "MPCMC_OpponentLimit": "2000 nodes", "MPCMC_Workers": 2,
                      "MPCMC_EvaluatorOptions": "Hash=16; Threads=1"})
    result = engine.play(chess.Board(SCHOLARS_MATE), chess.engine.Limit(time=5.0), info=chess.engine.INFO_ALL)
    assert result.move == chess.Move.from_uci("h5f7")
    assert result.info["score"].relative == chess.engine.Mate(1)
    engine.quit()


@needs_stockfish
def test_decision_reports_the_predicted_reply_as_pv_and_ponder_move(open_engine):
    engine = open_engine()
    engine.configure({"MPCMC": "one", "MPCMC_Evaluator": STOCKFISH, "MPCMC_Opponent": STOCKFISH,
                      "MPCMC_EvalLimit": "1000 nodes", "MPCMC_OpponentLimit": "1000 nodes", "UCI_ShowMPCMC": True})
    board = chess.Board()
    with engine.analysis(board, chess.engine.Limit(nodes=1000)) as analysis:
        infos = list(analysis)
        best = analysis.wait()
    strings = [info["string"] for info in infos if "string" in info]
    assert sum(text.startswith("mpcmc move ") for text in strings) == 20
    assert any(text.startswith("mpcmc chose ") for text in strings)
    pv = [info["pv"] for info in infos if "pv" in info][-1]
    assert pv[0] == best.move and len(pv) == 2 and best.ponder == pv[1]
    after = board.copy()
    after.push(best.move)
    assert best.ponder in after.legal_moves
    engine.quit()


@pytest.mark.parametrize("evaluator_hash", ["fresh", "keep"])
def test_the_evaluator_starts_a_new_game_before_every_call_unless_it_keeps_its_hash(open_engine, tmp_path,
                                                                                    evaluator_hash):
    # one worker, so one evaluator process logs every evaluator call: two moves with 20 root moves each, every move
    # with 20 one-step evaluations and the fortification's analysis of the root, each move in a new game of the
    # engine under test (its own `ucinewgame` must not reach the evaluator)
    log = tmp_path / "evaluator.log"
    evaluator = shlex.join(["env", f"FAKE_UCI_COMMAND_LOG={log}", sys.executable, FAKE, "good"])
    engine = open_engine()
    engine.configure({"MPCMC": "one", "MPCMC_Fortify": True, "MPCMC_Workers": 1, "MPCMC_Evaluator": evaluator,
                      "MPCMC_Opponent": shlex.join([sys.executable, FAKE, "good"]),
                      "MPCMC_EvaluatorHash": evaluator_hash})
    board = chess.Board()
    for game in range(2):
        board.push(engine.play(board, chess.engine.Limit(nodes=1), game=game).move)
    engine.quit()
    commands = [line for line in log.read_text().splitlines() if line.startswith(("ucinewgame", "go"))]
    calls = 2 * 21
    if evaluator_hash == "fresh":
        assert commands == ["ucinewgame", "go nodes 1"] * calls
    else:
        assert commands == ["ucinewgame"] + ["go nodes 1"] * calls


def test_internal_sub_engines_and_no_orphans_after_quit(open_engine):
    engine = open_engine()
    engine.configure({"MPCMC": "one", "MPCMC_Workers": 1, "MPCMC_EvalLimit": "depth 2",
                      "MPCMC_OpponentLimit": "depth 2"})
    engine.ping()  # isready starts the sub-engines: this engine itself with --plain
    pid = engine.transport.get_pid()
    children = live_children(pid)
    assert len(children) == 2
    result = engine.play(chess.Board(SCHOLARS_MATE), chess.engine.Limit(time=10.0))
    assert result.move == chess.Move.from_uci("h5f7")
    engine.quit()
    assert wait_gone(children) == []


def test_sub_engines_die_with_a_killed_parent(open_engine):
    engine = open_engine()
    engine.configure({"MPCMC": "half", "MPCMC_Workers": 1})
    engine.ping()
    pid = engine.transport.get_pid()
    children = live_children(pid)
    assert children
    os.kill(pid, signal.SIGKILL)
    assert wait_gone(children) == []


def test_bad_mpcmc_option_values_are_refused_and_the_engine_still_plays(raw_engine):
    engine = raw_engine()
    engine.send("uci")
    engine.read_until("uciok")
    for name, value in (("MPCMC_EvalLimit", "fast"), ("MPCMC_OpponentOptions", "Hash"), ("MPCMC", "three"),
                        ("MPCMC_Opponent", "'unbalanced"), ("MPCMC_EvaluatorHash", "forget"),
                        ("MPCMC_TwoStepRank", "alphabetical")):
        engine.send(f"setoption name {name} value {value}", "isready")
        lines = engine.read_until("readyok")
        assert any(line.startswith("info string error: ") for line in lines), (name, lines)
    # sub-engines that cannot start: the error is reported, and moves still come, legal and in time
    engine.send("setoption name MPCMC value one", "setoption name MPCMC_Evaluator value /nonexistent/engine",
                "isready")
    lines = engine.read_until("readyok")
    assert any("cannot start /nonexistent/engine" in line for line in lines), lines
    engine.send("position startpos", "go movetime 1000")
    start = time.monotonic()
    move = engine.read_until("bestmove")[-1].split()[1]
    elapsed = time.monotonic() - start
    print(f"movetime 1000 with a sub-engine that cannot start -> bestmove after {elapsed:.3f} s")
    assert elapsed < 2.0, f"bestmove after {elapsed:.3f} s"  # generous for a busy machine; a start timeout is 30 s
    assert chess.Move.from_uci(move) in chess.Board().legal_moves


@pytest.mark.parametrize("mode, fault, report", [
    ("half", "hang", "mpcmc: 0/20 root moves scored in time"),
    ("one", "crash", "sub-engine tasks failed: opponent: engine process died unexpectedly (exit code: 3)"),
])
def test_sub_engines_that_hang_or_die_mid_call_are_reported_and_moves_come_in_time(raw_engine, tmp_path, mode, fault,
                                                                                  report):
    pids = tmp_path / "sub-engine.pids"
    fake = shlex.join(["env", f"FAKE_UCI_PID_FILE={pids}", sys.executable, FAKE, fault, "0"])
    engine = raw_engine()
    engine.send("uci", f"setoption name MPCMC value {mode}", "setoption name MPCMC_Workers value 2",
                f"setoption name MPCMC_Evaluator value {fake}", f"setoption name MPCMC_Opponent value {fake}",
                "isready")
    engine.read_until("readyok")
    for _ in range(2):  # the second move is asked while the first one's hung calls may still be running
        engine.send("position startpos", "go movetime 1500")
        start = time.monotonic()
        lines = engine.read_until("bestmove", timeout=30)
        elapsed = time.monotonic() - start
        print(f"movetime 1500 with {fault}ing sub-engines -> bestmove after {elapsed:.3f} s")
        assert chess.Move.from_uci(lines[-1].split()[1]) in chess.Board().legal_moves
        assert elapsed < 3.0  # generous for a busy machine; a hung call's watchdog is 2 s beyond its time
        assert any(line.startswith("info string ") and report in line for line in lines), lines
    engine.send("quit")
    assert engine.process.wait(timeout=30) == 0
    assert wait_gone([int(pid) for pid in pids.read_text().split()]) == []


@pytest.mark.parametrize("candidates", [0, 3])
def test_mpcmc_on_a_short_clock_never_loses_on_time(open_engine, candidates):
    # 2 s for the whole game and no increment: the auto per-call limits and the hard deadline must keep every move
    # inside the clock, even where the calls cannot all finish (the best move found so far is played); with
    # candidates, the plain search's share comes first
    engine = open_engine()
    engine.configure({"MPCMC": "one", "MPCMC_Workers": 2, "MPCMC_Candidates": candidates})
    engine.ping()
    board = chess.Board()
    clock = 2.0
    for _ in range(8):
        start = time.monotonic()
        result = engine.play(board, chess.engine.Limit(white_clock=clock, black_clock=clock))
        clock -= time.monotonic() - start
        assert clock > 0, "out of time"
        assert result.move in board.legal_moves
        board.push(result.move)
    engine.quit()


def test_too_little_time_to_score_every_root_move_leaves_the_move_to_the_plain_search(open_engine):
    # 20 root moves are 40 calls of at least 8 ms on 1 worker: they cannot fit in 0.1 s, but fit in 2 s
    engine = open_engine()
    engine.configure({"MPCMC": "one", "MPCMC_Workers": 1, "UCI_ShowMPCMC": True})
    engine.ping()
    board = chess.Board()
    for seconds, expected in ((0.1, "20 root moves cannot all be scored"), (2.0, "mpcmc chose")):
        with engine.analysis(board, chess.engine.Limit(time=seconds)) as analysis:
            strings = [info["string"] for info in analysis if "string" in info]
            assert analysis.wait().move in board.legal_moves
        assert any(expected in line for line in strings), strings
    engine.quit()


def _deepest_lines(infos) -> list:
    """The first moves of the MultiPV lines of the deepest completed iteration, best first."""
    exact = [info for info in infos if "pv" in info and "lowerbound" not in info and "upperbound" not in info]
    depth = max(info["depth"] for info in exact)
    return [info["pv"][0] for info in sorted((i for i in exact if i["depth"] == depth), key=lambda i: i["multipv"])]


def test_candidates_are_the_plain_searchs_best_moves_and_only_they_are_scored(open_engine, engine_command,
                                                                               engine_env):
    board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    engine = open_engine()
    engine.configure({"MPCMC": "one", "MPCMC_Workers": 1, "MPCMC_Candidates": 3, "UCI_ShowMPCMC": True,
                      "MPCMC_EvalLimit": "300 nodes", "MPCMC_OpponentLimit": "300 nodes"})
    with engine.analysis(board, chess.engine.Limit(nodes=3000)) as analysis:
        strings = [info["string"] for info in analysis if "string" in info]
        chosen = analysis.wait().move
    scored = [chess.Move.from_uci(line.split()[2]) for line in strings if line.startswith("mpcmc move ")]
    assert any(f"3/3 moves scored, the plain search's best 3 of {board.legal_moves.count()}" in line
               for line in strings), strings
    plain = chess.engine.SimpleEngine.popen_uci(engine_command + ["--plain"], timeout=120, env=engine_env)
    try:
        with plain.analysis(board, chess.engine.Limit(nodes=3000), multipv=3) as analysis:
            best_three = _deepest_lines(list(analysis))
    finally:
        plain.quit()
    assert len(best_three) == 3 and sorted(scored, key=str) == sorted(best_three, key=str)
    assert chosen in scored
    engine.quit()


def test_a_move_that_cannot_give_each_call_its_least_time_is_left_to_the_plain_search(open_engine):
    # 2 candidates are 4 calls on 1 worker: 4 x 400 ms do not fit in half of a 1 s move, 4 x 20 ms do
    engine = open_engine()
    engine.configure({"MPCMC": "one", "MPCMC_Workers": 1, "MPCMC_Candidates": 2, "UCI_ShowMPCMC": True})
    board = chess.Board()
    for least_ms, expected in ((400, "2 root moves cannot all be scored"), (20, "mpcmc chose")):
        engine.configure({"MPCMC_MinCallMs": least_ms})
        with engine.analysis(board, chess.engine.Limit(time=1.0)) as analysis:
            strings = [info["string"] for info in analysis if "string" in info]
            assert analysis.wait().move in board.legal_moves
        assert any(expected in line for line in strings), strings
    engine.quit()
