"""`mpcmc-engine epd`: a small suite with bm / am / c0 positions and bad lines, run through Stockfish."""

import os

import chess
import pytest

from mpcmc_engine.cli import main
from mpcmc_engine.data import STS, WAC
from mpcmc_engine.epd import parse_point_scores, read_test_suite

STOCKFISH = "/usr/games/stockfish"
needs_stockfish = pytest.mark.skipif(not os.path.exists(STOCKFISH), reason=f"Stockfish not found at {STOCKFISH}")

SUITE = """\
# a comment line, then six positions: four scorable, two bad
6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id "mate1";
4k3/8/2p5/3p4/8/8/8/3QK3 w - - am Qxd5; id "avoid";
4k3/8/8/3q4/8/8/8/3QK3 w - - bm Qxd5; c0 "Qxd5=10, Kf2=2, Qd2=1"; id "points";
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm Na3; id "unlikely";
this is not a position
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm Qh5; id "illegal bm";
"""


@pytest.fixture
def suite(tmp_path):
    path = tmp_path / "suite.epd"
    path.write_text(SUITE)
    return str(path)


def test_read_suite_reports_bad_lines_with_file_and_line(suite):
    positions, errors = read_test_suite(suite)
    assert [position.name for position in positions] == ["mate1", "avoid", "points", "unlikely"]
    assert len(errors) == 2
    assert errors[0].startswith(f"{suite}:6: ") and errors[1].startswith(f"{suite}:7: ")
    points = positions[2]
    assert points.max_points == 10 and points.points_for(chess.Move.from_uci("e1f2")) == 2
    assert points.is_solved_by(chess.Move.from_uci("d1d5")) and not points.is_solved_by(chess.Move.from_uci("e1f2"))
    avoid = positions[1]
    assert not avoid.is_solved_by(chess.Move.from_uci("d1d5")) and avoid.is_solved_by(chess.Move.from_uci("e1e2"))


def test_point_scores_only_from_sts_style_comments():
    board = chess.Board()
    assert parse_point_scores(board, "Nf3=10, e4=5") == {chess.Move.from_uci("g1f3"): 10,
                                                         chess.Move.from_uci("e2e4"): 5}
    assert parse_point_scores(board, "All win but e3 is best.") == {}
    with pytest.raises(ValueError):
        parse_point_scores(board, "Qh5=10")


@needs_stockfish
@pytest.mark.parametrize("concurrency", [1, 2])
def test_epd_with_stockfish(suite, capsys, concurrency):
    status = main(["epd", suite, "--engine", STOCKFISH, "--nodes", "20000", "--option", "Hash=16",
                   "--concurrency", str(concurrency), "--verbose"])
    out, err = capsys.readouterr()
    assert status == 0
    lines = out.strip().splitlines()
    assert len(lines) == 5
    assert lines[0].startswith("mate1: bm Ra8# | engine Ra8# | ok")
    assert lines[1].endswith("ok") and lines[2].endswith("10/10 | ok") and lines[3].endswith("fail")
    assert lines[-1].startswith("solved 3/4, points 10/10, time ")
    assert "nodes " in lines[-1]
    assert f"{suite}:6: " in err and f"{suite}:7: " in err


@needs_stockfish
def test_epd_progress_bar_goes_to_stderr(suite, capsys):
    assert main(["epd", suite, "--engine", STOCKFISH, "--depth", "6"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("solved 3/4") and len(out.splitlines()) == 1
    assert "4/4" in err


def test_epd_exit_status_when_nothing_can_run(suite, tmp_path, capsys):
    assert main(["epd", suite, "--engine", str(tmp_path / "no-such-engine"), "--nodes", "10"]) == 1
    assert "cannot start engine" in capsys.readouterr().err
    bad = tmp_path / "bad.epd"
    bad.write_text("nonsense\n8/8/8/8/8/8/8/8 w - - bm e4;\n")
    assert main(["epd", str(bad), "--engine", STOCKFISH, "--nodes", "10"]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:1: " in err and f"{bad}:2: " in err and "no valid position" in err
    assert main(["epd", str(tmp_path / "missing.epd")]) == 1


@needs_stockfish
def test_epd_shared_wac_sample(tmp_path, capsys):
    sample = tmp_path / "wac10.epd"
    with open(WAC) as handle:
        sample.write_text("".join(handle.readlines()[:10]))
    assert main(["epd", str(sample), "--engine", STOCKFISH, "--nodes", "50000"]) == 0
    solved, total = capsys.readouterr().out.split()[1].split(",")[0].split("/")
    assert total == "10" and int(solved) >= 6


def test_the_shipped_strategic_test_suite_reads_whole():
    """Every one of the STS's 1500 positions reads with its best move worth the full 10 points, 100 a theme."""
    positions, errors = read_test_suite(str(STS))
    assert errors == [] and len(positions) == 1500
    assert all(position.max_points == 10 and len(position.best_moves) == 1
               and position.points_for(position.best_moves[0]) == 10
               for position in positions)
    themes = {}
    for position in positions:
        theme = position.name.split(")", 1)[0]   # "STS(v7.0": the theme's number
        themes[theme] = themes.get(theme, 0) + 1
    assert len(themes) == 15 and set(themes.values()) == {100}, themes
