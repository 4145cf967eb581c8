"""uci_process: every step of talking to another engine process has a timeout, and a failed start leaves no process
behind (the scripted fake engine plays the engine that never answers)."""

import sys
import time
from pathlib import Path

import chess
import chess.engine
import pytest

from mpcmc_engine.uci_process import EngineSpec, parse_engine_command, parse_option, play_within, start_engine
from tests.processes import command_line, live_pids, wait_gone

FAKE = str(Path(__file__).with_name("fake_uci_engine.py"))


def fake(mode: str, good_moves: int = 2) -> EngineSpec:
    return EngineSpec((sys.executable, FAKE, mode, str(good_moves)), f"fake-{mode}")


def running_fakes(mode: str) -> list:
    """Process ids of fake engines in `mode` still alive (zombies excluded)."""
    return [pid for pid in live_pids() if f"{FAKE} {mode} " in command_line(pid)]


def gone_within(mode: str, seconds: float = 10.0) -> bool:
    """Whether every fake engine in `mode` has ended within `seconds` (none left running at the end)."""
    wait_gone(running_fakes(mode), seconds)
    return not running_fakes(mode)


@pytest.mark.parametrize("mode,timeouts", [("mute", {"handshake_timeout_s": 1.0}),
                                           ("unready", {"ready_timeout_s": 1.0})])
def test_a_start_that_hangs_times_out_and_leaves_no_process(mode, timeouts):
    began = time.monotonic()
    with pytest.raises(TimeoutError):
        start_engine(fake(mode), **timeouts)
    assert time.monotonic() - began < 30  # 1 s asked; generous for a busy machine
    assert gone_within(mode)


def test_a_move_that_hangs_times_out():
    engine = start_engine(fake("hang", good_moves=0))
    try:
        with pytest.raises(TimeoutError, match="no move within"):
            play_within(engine, chess.Board(), chess.engine.Limit(nodes=100), 1.0)
    finally:
        engine.close()
    assert gone_within("hang")


def test_a_good_engine_starts_and_plays():
    engine = start_engine(fake("good"))
    try:
        result = play_within(engine, chess.Board(), chess.engine.Limit(nodes=100), 30.0)
        assert result.move in chess.Board().legal_moves
    finally:
        engine.quit()


def test_command_and_option_parsing():
    assert parse_engine_command("stockfish --flag 'a b'") == ["stockfish", "--flag", "a b"]
    assert parse_option(" Hash = 16 ") == ("Hash", "16")
    for bad in ("Hash", "=3"):
        with pytest.raises(ValueError):
            parse_option(bad)
    with pytest.raises(ValueError):
        parse_engine_command("  ")
