"""The engine process driven by python-chess (as lichess-bot drives it): handshake, options, analysis, play, stop,
MultiPV, Chess960, searchmoves and draws. One engine process for the module."""

import time

import chess
import chess.engine
import pytest

from mpcmc_engine import ENGINE_AUTHOR, ENGINE_NAME
from mpcmc_engine.uci import strength


def test_handshake_names_the_engine_and_its_options(engine):
    assert engine.id["name"].startswith(ENGINE_NAME) and engine.id["author"] == ENGINE_AUTHOR
    for name in ("Hash", "Threads", "MultiPV", "Ponder", "Move Overhead", "UCI_Chess960", "UCI_ShowWDL",
                 "UCI_LimitStrength", "UCI_Elo", "Skill Level", "SyzygyPath", "SearchAlgorithm", "EvalFile",
                 "Clear Hash"):
        assert name in engine.options
    assert engine.options["EvalFile"].default == "<network>"  # a default python-chess reads back whole


def test_every_option_can_be_set(engine):
    settings = {"Hash": 8, "Threads": 1, "Move Overhead": 50, "UCI_ShowWDL": True, "SyzygyPath": "",
                "SearchAlgorithm": "mtdbi", "EvalFile": "<network>", "Clear Hash": None}
    engine.configure(settings)
    engine.ping()
    info = engine.analyse(chess.Board(), chess.engine.Limit(depth=3))
    assert info["wdl"] is not None and sum(info["wdl"].relative) == 1000
    engine.configure({"Hash": 16, "Move Overhead": 30, "UCI_ShowWDL": False, "SearchAlgorithm": "pvs"})
    engine.ping()


@pytest.mark.parametrize("limit", [chess.engine.Limit(depth=4), chess.engine.Limit(nodes=3000),
                                   chess.engine.Limit(time=0.3)], ids=["depth", "nodes", "time"])
def test_analyse_by_limit(engine, limit):
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    info = engine.analyse(board, limit)
    assert info["pv"] and info["pv"][0] in board.legal_moves
    assert isinstance(info["score"].relative.score(mate_score=100000), int)
    if limit.depth:
        assert info["depth"] == limit.depth


@pytest.mark.parametrize("plies", [24, pytest.param(200, marks=pytest.mark.slow)])
def test_play_a_game_with_a_clock(engine, plies):
    """At 1 s + 0.01 s: every move legal and within the remaining clock (measured here, as a GUI would)."""
    board, clocks = chess.Board(), {chess.WHITE: 1.0, chess.BLACK: 1.0}
    engine.configure({"Clear Hash": None})
    while not board.is_game_over() and board.ply() < plies:
        limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                   white_inc=0.01, black_inc=0.01)
        began = time.perf_counter()
        result = engine.play(board, limit)
        used = time.perf_counter() - began
        assert result.move in board.legal_moves
        clocks[board.turn] += 0.01 - used
        assert clocks[board.turn] > 0, f"flagged at ply {board.ply()}"
        board.push(result.move)


def test_stop_ends_go_infinite(engine):
    with engine.analysis(chess.Board()) as analysis:
        for info in analysis:
            if info.get("depth", 0) >= 2:
                break
        analysis.stop()
        best = analysis.wait()
    assert best.move in chess.Board().legal_moves


def test_multipv_three_distinct_lines(engine):
    board = chess.Board()
    infos = engine.analyse(board, chess.engine.Limit(depth=4), multipv=3)
    assert [info["multipv"] for info in infos] == [1, 2, 3]
    assert len({info["pv"][0] for info in infos}) == 3
    scores = [info["score"].relative.score(mate_score=100000) for info in infos]
    assert scores == sorted(scores, reverse=True)


def test_chess960_game(engine):
    board = chess.Board.from_chess960_pos(218)  # not the classical start position
    for _ in range(6):
        result = engine.play(board, chess.engine.Limit(depth=3))
        assert result.move in board.legal_moves
        board.push(result.move)
    castling = chess.Board("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", chess960=True)
    result = engine.play(castling, chess.engine.Limit(depth=2), root_moves=[chess.Move.from_uci("e1b1")])
    assert castling.is_castling(result.move) and result.move.uci() == "e1b1"  # king takes rook


def test_searchmoves_restrict_the_root(engine):
    board = chess.Board()
    allowed = [chess.Move.from_uci("a2a3"), chess.Move.from_uci("h2h3")]
    result = engine.play(board, chess.engine.Limit(depth=3), root_moves=allowed)
    assert result.move in allowed


def test_fifty_move_rule_is_a_draw(engine):
    board = chess.Board("7k/8/8/8/8/8/8/K5R1 w - - 99 100")  # KR v K, but any move ends the game drawn
    info = engine.analyse(board, chess.engine.Limit(depth=4))
    assert info["score"].relative.score() == 0


def test_repetition_saves_the_weaker_side(engine):
    board = chess.Board("1n4k1/8/8/8/8/8/8/3Q2K1 w - - 0 1")
    for move in "d1d2 b8c6 d2d1 c6b8 d1d2 b8c6 d2d1".split():
        board.push_uci(move)
    info = engine.analyse(board, chess.engine.Limit(depth=4))
    assert info["pv"][0] == chess.Move.from_uci("c6b8")  # the third occurrence of the start position
    assert info["score"].relative.score() == 0


def test_bullet_game_against_itself_thinks_and_keeps_its_clock(open_engine):
    """1+0.01 from the start position to the end of the game, two processes with default options, the clocks kept
    here as a GUI keeps them: nobody loses on time, and no move is played below depth 6 while more than 0.5 s
    remain (issue 80: depth 1 in 1 ms before)."""
    players = {chess.WHITE: open_engine(), chess.BLACK: open_engine()}
    board, clocks = chess.Board(), {chess.WHITE: 1.0, chess.BLACK: 1.0}
    shallow = []
    while not board.is_game_over(claim_draw=True) and board.ply() < 300:
        limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                   white_inc=0.01, black_inc=0.01)
        began = time.perf_counter()
        result = players[board.turn].play(board, limit, info=chess.engine.INFO_BASIC)
        used = time.perf_counter() - began
        assert result.move in board.legal_moves
        if clocks[board.turn] > 0.5 and result.info.get("depth", 0) < 6:
            shallow.append((board.ply(), result.info.get("depth"), round(used, 4)))
        clocks[board.turn] += 0.01 - used
        assert clocks[board.turn] > 0, f"flagged at ply {board.ply()}"
        board.push(result.move)
    assert not shallow, f"moves below depth 6 with more than 0.5 s left (ply, depth, seconds): {shallow}"


def test_limited_strength_searches_few_nodes_and_still_takes_a_hanging_queen(engine):
    """UCI_LimitStrength with UCI_Elo at its floor: a node-capped search (strength.strength_for) that plays a
    legal move from its lines; a queen left en prise is taken (the other lines are about 900 cp worse)."""
    weakest = strength.strength_for(True, strength.MIN_ELO, strength.MAX_SKILL)
    engine.configure({"UCI_LimitStrength": True, "UCI_Elo": strength.MIN_ELO})
    try:
        board = chess.Board("rnb1kbnr/pppp1ppp/8/4p1q1/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 1 3")
        for _ in range(3):
            result = engine.play(board, chess.engine.Limit(white_clock=60, black_clock=60),
                                 info=chess.engine.INFO_BASIC)
            assert result.move == chess.Move.from_uci("c1g5")
            assert 0 < result.info["nodes"] <= weakest.nodes
    finally:
        engine.configure({"UCI_LimitStrength": False, "UCI_Elo": strength.MAX_ELO})
