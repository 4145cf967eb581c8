"""Fault injection through the real engine process: a damaged Syzygy file, `quit` and `stop` during long tool
commands, bad option values during a search, and a failure inside `go` itself. Every `go` still ends in one legal
bestmove; timing bounds are generous (the faults they catch took minutes or forever)."""

import chess
import pytest

from mpcmc_engine.eval.weights import material_only_weights, save_weights
from tests.test_uci_protocol import legal_bestmove, start

KQK = "8/8/8/8/8/2k5/8/K6Q w - - 0 1"
SYZYGY_MAGIC = b"\x71\xe8\x23\x5d"
DAMAGED_TABLES = {
    "random bytes": bytes(range(256)) * 16,
    "empty": b"",
    "truncated after the header": SYZYGY_MAGIC + bytes(range(256)) * 10 + bytes(12),
    "zeros after the header": SYZYGY_MAGIC + bytes(64 * 40 + 12),
}


def damaged_table_directory(tmp_path, content: bytes):
    """A directory holding one KQvK.rtbw with `content` (python-chess cannot write real tables)."""
    directory = tmp_path / "syzygy"
    directory.mkdir()
    (directory / "KQvK.rtbw").write_bytes(content)
    return directory


def no_bestmove_for(engine, seconds: float) -> list:
    """The lines of the next `seconds`, checked to hold no bestmove (the search is still running)."""
    lines = engine.lines_for(seconds)
    assert not any(line.startswith("bestmove") for line in lines), lines
    return lines


@pytest.mark.parametrize("content", DAMAGED_TABLES.values(), ids=DAMAGED_TABLES.keys())
def test_a_damaged_syzygy_file_is_ignored_and_go_still_moves(raw_engine, tmp_path, content):
    engine, _ = start(raw_engine)
    engine.send(f"setoption name SyzygyPath value {damaged_table_directory(tmp_path, content)}",
                f"position fen {KQK}", "go depth 4")
    lines = engine.read_until("bestmove", timeout=30)
    legal_bestmove(lines, chess.Board(KQK))
    assert any(line.startswith("info string error: Syzygy") for line in lines), lines


def test_quit_during_go_perft_exits_promptly(raw_engine):
    engine, _ = start(raw_engine)
    engine.send("position startpos", "go perft 7")  # billions of nodes: minutes
    no_bestmove_for(engine, 0.5)
    engine.send("quit")
    assert engine.process.wait(timeout=10) == 0


def test_stop_during_go_perft_ends_it_without_a_total(raw_engine):
    engine, _ = start(raw_engine)
    engine.send("position startpos", "go perft 7")
    no_bestmove_for(engine, 0.5)
    engine.send("stop", "isready")
    lines = engine.read_until("readyok", timeout=10)
    assert "info string perft stopped" in lines and not any(line.startswith("Nodes searched") for line in lines)
    engine.send("go perft 2")
    assert engine.read_until("Nodes searched", timeout=10)[-1] == "Nodes searched: 400"


@pytest.mark.parametrize("command", ["stop", "quit"])
def test_stop_and_quit_during_bench_act_at_once(raw_engine, command):
    engine, _ = start(raw_engine)
    engine.send("bench 30")  # far beyond what finishes in a test's time
    no_bestmove_for(engine, 0.5)
    if command == "quit":
        engine.send("quit")
        assert engine.process.wait(timeout=10) == 0
        return
    engine.send("stop", "isready")
    lines = engine.read_until("readyok", timeout=10)
    assert "info string bench stopped" in lines and not any(line.endswith(" nps") for line in lines)


def test_bad_option_values_during_a_search_change_nothing(raw_engine, tmp_path):
    engine, _ = start(raw_engine)
    weights = tmp_path / "material.json"
    save_weights(material_only_weights(), weights)
    tables = damaged_table_directory(tmp_path, DAMAGED_TABLES["empty"])
    engine.send(f"setoption name EvalFile value {weights}", f"setoption name SyzygyPath value {tables}",
                f"position fen {KQK}", "eval")
    evaluation = engine.read_until("Final evaluation")[-1]
    engine.send("go infinite")
    no_bestmove_for(engine, 0.3)
    engine.send(f"setoption name EvalFile value {tmp_path / 'missing.json'}",
                f"setoption name SyzygyPath value {tmp_path / 'missing'}",
                "setoption name MPCMC_EvalLimit value lots", "setoption name MPCMC_EvaluatorOptions value Hash")
    errors = [line for line in no_bestmove_for(engine, 1.0) if line.startswith("info string error")]
    assert len(errors) == 4, errors
    engine.send("stop")
    legal_bestmove(engine.read_until("bestmove", timeout=10), chess.Board(KQK))
    engine.send("eval")
    assert engine.read_until("Final evaluation")[-1] == evaluation  # still the material-only weights
    engine.send("go depth 2")  # the damaged tables are still the ones in force
    lines = engine.read_until("bestmove", timeout=30)
    assert any(line.startswith("info string error: Syzygy") for line in lines), lines


def test_a_failure_inside_go_still_ends_in_a_legal_bestmove(monkeypatch):
    """The guard around the whole go path: a fault before the search starts (here in building the search job)."""
    from mpcmc_engine.uci import engine as engine_module

    class Recorder:
        def __init__(self):
            self.bestmoves, self.errors = [], []

        def bestmove(self, move, ponder):
            self.bestmoves.append(move)

        def error(self, text):
            self.errors.append(text)

        def info(self, report):
            pass

        def text(self, line):
            pass

    def broken_job(*arguments, **keywords):
        raise RuntimeError("injected fault")

    listener = Recorder()
    engine = engine_module.Engine(listener, plain=True)
    monkeypatch.setattr(engine_module, "SearchJob", broken_job)
    engine.set_position(["startpos", "moves", "e2e4"])
    engine.go(["depth", "3"], 0)
    board = chess.Board()
    board.push_uci("e2e4")
    assert len(listener.bestmoves) == 1 and chess.Move.from_uci(listener.bestmoves[0]) in board.legal_moves
    assert any("injected fault" in error for error in listener.errors)
