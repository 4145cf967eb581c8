"""Perft suites: every position's node counts exact (shallow by default, full depth with -m slow)."""

import pytest

from mpcmc_engine.bitboard.position import Position
from mpcmc_engine.data import PERFT_CHESS960, PERFT_CPW, PERFT_STANDARD, PERFT_TRICKY
from mpcmc_engine.tools.perft_suite import PerftCase, SuiteError, read_perft_suite

DEFAULT_NODE_CAP = 2_000_000  # default run: every depth whose expected count is at most this


def _cases(path):
    cases = list(read_perft_suite(path))
    errors = [case for case in cases if isinstance(case, SuiteError)]
    assert not errors, errors
    return cases


def _read_tricky(path):
    """Cases of python-chess's `.perft` format: `id`, `epd`, then `perft DEPTH COUNT` lines."""
    cases, name, fen, counts = [], "", None, {}
    for line in open(path, encoding="utf-8"):
        key, _, value = line.strip().partition(" ")
        if key == "id":
            if fen:
                cases.append(PerftCase(name, fen, counts, name))
            name, fen, counts = value, None, {}
        elif key == "epd":
            fen = value + " 0 1"
        elif key == "perft":
            depth, count = value.split()
            counts[int(depth)] = int(count)
    if fen:
        cases.append(PerftCase(name, fen, counts, name))
    return cases


def _check(case, chess960=False, max_depth=None, node_cap=None):
    position = Position(case.fen, chess960)
    for depth, expected in sorted(case.counts.items()):
        if max_depth is not None and depth > max_depth:
            break
        if node_cap is not None and expected > node_cap:
            break
        assert position.perft(depth) == expected, f"{case.source} depth {depth}"
    assert position.ply == 0


@pytest.mark.parametrize("suite", [PERFT_STANDARD, PERFT_CPW], ids=["standard", "cpw"])
def test_suite_shallow(suite):
    for case in _cases(suite):
        _check(case, node_cap=DEFAULT_NODE_CAP)


def test_tricky_positions_all_depths():
    # python-chess's tricky suite is read in Chess960 mode: some rows castle with X-FEN KQkq on inner rooks.
    cases = _read_tricky(PERFT_TRICKY)
    assert len(cases) == 19
    for case in cases:
        _check(case, chess960=True)


def test_chess960_sample():
    cases = _cases(PERFT_CHESS960)
    assert len(cases) == 960
    for case in cases[::24]:
        _check(case, chess960=True, max_depth=4)


@pytest.mark.slow
@pytest.mark.parametrize("suite", [PERFT_STANDARD, PERFT_CPW], ids=["standard", "cpw"])
def test_suite_full_depth(suite):
    for case in _cases(suite):
        _check(case)


@pytest.mark.slow
def test_chess960_all_to_depth_4():
    for case in _cases(PERFT_CHESS960):
        _check(case, chess960=True, max_depth=4)
