"""Tactical strength through the UCI process: every shipped mate-in-2 solved as a mate, and a WAC floor.

The default run takes a sample of the mate-in-2 file; `pytest -m slow` runs all of it and the WAC suite.
"""

import chess
import chess.engine
import pytest

from mpcmc_engine.data import MATE_IN_2, WAC

MATE2_SAMPLE_STEP = 8          # default run: every 8th position of mate2.fen
MATE2_LIMIT = chess.engine.Limit(mate=2, depth=12)  # the search stops at the first mate in two it proves
WAC_NODES = 20_000
WAC_FLOOR = 0.55               # measured 196/300 (65 %) at WAC_NODES; raise it as the search improves


def mate2_boards(step: int) -> list:
    lines = MATE_IN_2.read_text().splitlines()
    return [chess.Board(line.strip()) for line in lines[::step] if line.strip()]


def assert_mates(engine, boards):
    failures = []
    for board in boards:
        info = engine.analyse(board, MATE2_LIMIT)
        mate = info["score"].relative.mate()
        if mate is None or not 0 < mate <= 2:
            failures.append(f"{board.fen()}: {info['score']} pv {info.get('pv')}")
    assert not failures, f"{len(failures)} of {len(boards)} not solved:\n" + "\n".join(failures)


def test_mate_in_two_sample(engine):
    assert_mates(engine, mate2_boards(MATE2_SAMPLE_STEP))


@pytest.mark.slow
def test_mate_in_two_all(engine):
    assert_mates(engine, mate2_boards(1))


@pytest.mark.slow
def test_win_at_chess_floor(engine):
    solved = total = 0
    for line in WAC.read_text().splitlines():
        if not line.strip():
            continue
        board, operations = chess.Board.from_epd(line)
        result = engine.play(board, chess.engine.Limit(nodes=WAC_NODES))
        solved += result.move in operations.get("bm", [])
        total += 1
    print(f"\nWAC: {solved}/{total} at {WAC_NODES} nodes")
    assert solved >= WAC_FLOOR * total
